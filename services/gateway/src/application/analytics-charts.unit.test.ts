import type { AuditCount, AuditCountQuery, AuditIndex, SearchIndex, SearchRequest } from '@catalog/search';
import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, type Asked } from './admin-fakes.testing.js';
import { AnalyticsCharts, type AnalyticsChart } from './analytics-charts.js';

const DAY = 86_400_000;
/** Wednesday 2026-11-25, 15:00 UTC. */
const NOW = Date.UTC(2026, 10, 25, 15);
const viewer = 'urn:li:corpuser:viewer';
const alice = 'urn:li:corpuser:alice';
const hidden = 'urn:li:corpuser:hidden';

function fakes(answer: (query: AuditCountQuery) => AuditCount[]) {
  const counted: AuditCountQuery[] = [];
  const searched: SearchRequest[] = [];
  const audit = {
    count: async (query: AuditCountQuery) => {
      counted.push(query);
      return answer(query);
    },
  } as unknown as AuditIndex;
  const search = {
    search: async (request: SearchRequest) => {
      searched.push(request);
      return { total: 0, hits: [], aggregations: [] };
    },
  } as unknown as SearchIndex;
  return { audit, search, counted, searched };
}

/** VIEW_ANALYTICS for the viewer; every entity readable but `hidden`. */
const grants = (asked: Asked) =>
  asked.actorUrn === viewer &&
  (asked.privileges.includes('VIEW_ANALYTICS') ||
    (asked.resourceUrn !== undefined && asked.resourceUrn !== hidden));

const byTitle = (charts: readonly AnalyticsChart[]) => new Map(charts.map((c) => [c.title, c]));

describe('the analytics charts', () => {
  it('refuses an actor without VIEW_ANALYTICS before reading anything, and answers none when analytics is off', async () => {
    const { audit, search, counted, searched } = fakes(() => []);
    const { policy, stored } = fakeApplicationDeps(grants);
    const charts = new AnalyticsCharts(search, audit, stored, policy, true, () => NOW);
    await expect(
      charts.charts(graphqlContext('urn:li:corpuser:nobody'), ['dataset'], (e) => e),
    ).rejects.toThrow(/unauthorized to READ ANALYTICS/);
    await expect(
      charts.metadataCharts(graphqlContext('urn:li:corpuser:nobody'), { entityTypes: ['dataset'] }),
    ).rejects.toThrow(/unauthorized/);
    expect(counted).toEqual([]);
    expect(searched).toEqual([]);

    const off = new AnalyticsCharts(search, audit, stored, policy, false, () => NOW);
    expect(off.isEnabled()).toBe(false);
    expect(await off.charts(graphqlContext(viewer), ['dataset'], (e) => e)).toEqual([]);
    expect(counted).toEqual([]);
  });

  it('draws weekly active users over the last ten calendar weeks, weeks without logins between at 0', async () => {
    const monday = Date.UTC(2026, 10, 23);
    const { audit, search, counted } = fakes((q) =>
      q.interval === 'WEEK'
        ? [
            { intervalStart: monday - 21 * DAY, values: [], count: 3 },
            { intervalStart: monday, values: [], count: 2 },
          ]
        : [],
    );
    const { policy, stored } = fakeApplicationDeps(grants);
    const groups = await new AnalyticsCharts(search, audit, stored, policy, true, () => NOW).charts(
      graphqlContext(viewer),
      ['dataset'],
      (e) => e,
    );
    const weekly = byTitle(groups[0]!.charts).get('Weekly Active Users');
    expect(weekly).toEqual({
      kind: 'TimeSeriesChart',
      title: 'Weekly Active Users',
      interval: 'WEEK',
      dateRange: { start: monday + 7 * DAY - 70 * DAY, end: monday + 7 * DAY - 1 },
      lines: [
        {
          name: 'total',
          data: [
            { x: '2026-11-02T00:00:00.000Z', y: 3 },
            { x: '2026-11-09T00:00:00.000Z', y: 0 },
            { x: '2026-11-16T00:00:00.000Z', y: 0 },
            { x: '2026-11-23T00:00:00.000Z', y: 2 },
          ],
        },
      ],
    });
    const query = counted.find((q) => q.interval === 'WEEK');
    expect(query).toMatchObject({ eventTypes: ['LogInEvent'], distinct: 'actorUrn' });
    // Monthly: the twelve months before this one.
    expect(counted.find((q) => q.interval === 'MONTH')).toMatchObject({
      startTime: Date.UTC(2025, 11, 1),
      endTime: Date.UTC(2026, 10, 1),
    });
  });

  it('lists top users with their name, title and email, leaving out users the actor may not read and the root users', async () => {
    const store = new MemoryStore()
      .put(alice, 'corpUserInfo', { fullName: 'Alice A', title: 'Engineer', active: true })
      .put(alice, 'corpUserEditableInfo', { email: 'alice@example.com' });
    const { audit, search, counted } = fakes((q) =>
      q.groupBy?.[0] === 'actorUrn'
        ? [
            { values: [hidden], count: 9 },
            { values: [alice], count: 4 },
            { values: ['urn:li:corpuser:bob'], count: 1 },
          ]
        : [],
    );
    const { policy, stored } = fakeApplicationDeps(grants, store);
    const groups = await new AnalyticsCharts(search, audit, stored, policy, true, () => NOW).charts(
      graphqlContext(viewer),
      ['dataset'],
      (e) => e,
    );
    const top = byTitle(groups[0]!.charts).get('Top Users (Last 30 Days)');
    expect(top).toEqual({
      kind: 'TableChart',
      title: 'Top Users (Last 30 Days)',
      columns: ['Name', 'Title', 'Email'],
      rows: [
        {
          values: [alice, '4'],
          cells: [
            { value: 'Alice A', entityUrn: alice },
            { value: 'Engineer' },
            { value: 'alice@example.com' },
          ],
        },
        {
          values: ['urn:li:corpuser:bob', '1'],
          cells: [
            { value: 'urn:li:corpuser:bob', entityUrn: 'urn:li:corpuser:bob' },
            { value: 'None' },
            { value: 'None' },
          ],
        },
      ],
    });
    expect(counted.find((q) => q.groupBy?.[0] === 'actorUrn')?.excludeActorUrns).toEqual(
      expect.arrayContaining(['urn:li:corpuser:admin', 'urn:li:corpuser:datahub']),
    );
  });
});
