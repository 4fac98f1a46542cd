import { describe, expect, it } from 'vitest';
import type { TimeseriesDocument } from '@catalog/search';
import { checkStatsRequest, TimeseriesStats, windowStart } from './timeseries-stats.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 2, 8); // a Monday, 08:00 UTC

function profile(urn: string, at: number, rowCount: number, partition?: string): TimeseriesDocument {
  return {
    entityType: 'dataset',
    aspect: 'datasetProfile',
    urn,
    timestampMillis: at,
    id: `${urn}-${at}`,
    value: {
      timestampMillis: at,
      rowCount,
      ...(partition === undefined ? {} : { partitionSpec: { partition, type: 'PARTITION' } }),
    },
  };
}

describe('time-series statistics (getTimeseriesStats)', () => {
  it('groups by string and day buckets and computes latest, sum and cardinality per group', () => {
    const stats = new TimeseriesStats(
      'datasetProfile',
      [
        { fieldPath: 'rowCount', aggregationType: 'LATEST' },
        { fieldPath: 'rowCount', aggregationType: 'SUM' },
        { fieldPath: 'rowCount', aggregationType: 'CARDINALITY' },
      ],
      [
        { type: 'STRING_GROUPING_BUCKET', key: 'partitionSpec.partition' },
        {
          type: 'DATE_GROUPING_BUCKET',
          key: 'timestampMillis',
          timeWindowSize: { unit: 'DAY', multiple: 1 },
        },
      ],
    );
    // Arrival order does not matter: LATEST is the newest value.
    for (const d of [
      profile('a', T0 + DAY + 5, 30, 'p1'),
      profile('a', T0, 10, 'p1'),
      profile('a', T0 + 1000, 20, 'p1'),
      profile('b', T0, 7, 'p2'),
      profile('c', T0, 99),
    ])
      stats.add(d);
    const day = (t: number) => String(Math.floor(t / DAY) * DAY);
    expect(stats.table()).toEqual({
      columnNames: [
        'partitionSpec.partition',
        'timestampMillis',
        'latest_rowCount',
        'sum_rowCount',
        'cardinality_rowCount',
      ],
      columnTypes: ['string', 'long', 'long', 'double', 'long'],
      rows: [
        // p1 holds three values, p2 one: the terms order is by count, then value; days ascending.
        ['p1', day(T0), '20', '30', '2'],
        ['p1', day(T0 + DAY), '30', '30', '1'],
        ['p2', day(T0), '7', '7', '1'],
      ],
    });
  });

  it('starts windows on UTC calendar boundaries: weeks on Monday, months and quarters on the 1st', () => {
    const wednesday = T0 + 2 * DAY + 3600_000;
    expect(windowStart(wednesday, { unit: 'WEEK', multiple: 1 })).toBe(Date.UTC(2026, 10, 2));
    expect(windowStart(wednesday, { unit: 'MONTH', multiple: 1 })).toBe(Date.UTC(2026, 10, 1));
    expect(windowStart(wednesday, { unit: 'QUARTER', multiple: 1 })).toBe(Date.UTC(2026, 9, 1));
    expect(windowStart(wednesday, { unit: 'YEAR', multiple: 1 })).toBe(Date.UTC(2026, 0, 1));
    expect(windowStart(wednesday, { unit: 'HOUR', multiple: 6 })).toBe(Date.UTC(2026, 10, 4, 6));
  });

  it('answers NULL for a metric a group has no value of, and refuses fields the aspect does not have', () => {
    const stats = new TimeseriesStats(
      'datasetProfile',
      [{ fieldPath: 'columnCount', aggregationType: 'LATEST' }],
      [{ type: 'STRING_GROUPING_BUCKET', key: 'urn' }],
    );
    stats.add(profile('urn:li:dataset:x', T0, 1));
    expect(stats.table().rows).toEqual([['urn:li:dataset:x', 'NULL']]);
    expect(() =>
      checkStatsRequest('datasetProfile', [{ fieldPath: 'nosuch', aggregationType: 'LATEST' }], []),
    ).toThrow(/Unknown field nosuch/);
    expect(() =>
      checkStatsRequest(
        'datasetProfile',
        [{ fieldPath: 'partitionSpec.partition', aggregationType: 'SUM' }],
        [],
      ),
    ).toThrow(/SUM needs a numeric field/);
    expect(() =>
      checkStatsRequest(
        'datasetProfile',
        [{ fieldPath: 'rowCount', aggregationType: 'SUM' }],
        [{ type: 'DATE_GROUPING_BUCKET', key: 'timestampMillis' }],
      ),
    ).toThrow(/timeWindowSize/);
  });
});
