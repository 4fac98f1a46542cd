import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { checkProposal } from './proposal.js';
import {
  TIMESERIES_END_TIME_HEADER,
  TIMESERIES_START_TIME_HEADER,
  timeseriesRangeFromHeaders,
  timeseriesRangeHeaders,
} from './timeseries-range.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';

function aspect(value: unknown): { value: string; contentType: string } {
  return { value: JSON.stringify(value), contentType: 'application/json' };
}

describe('checkProposal with changeType CREATE_ENTITY', () => {
  it('takes a non-key aspect with its value, as the ecosystem does', () => {
    const checked = checkProposal({
      entityType: 'dataset',
      entityUrn: URN,
      changeType: 'CREATE_ENTITY',
      aspectName: 'datasetProperties',
      aspect: aspect({ description: 'd' }),
    });
    expect(checked.changeType).toBe('CREATE_ENTITY');
    expect(checked.aspect.name).toBe('datasetProperties');
    expect(checked.aspect.isKey).toBe(false);
    expect(checked.value).toMatchObject({ description: 'd' });
  });

  it('needs the value of a non-key aspect (only the key aspect is derived from the urn)', () => {
    expect(() =>
      checkProposal({
        entityType: 'dataset',
        entityUrn: URN,
        changeType: 'CREATE_ENTITY',
        aspectName: 'datasetProperties',
      }),
    ).toThrow('proposal.aspect is required');
  });

  it('defaults to the key aspect, derived from the urn, when no aspect is named', () => {
    const checked = checkProposal({ entityType: 'dataset', entityUrn: URN, changeType: 'CREATE_ENTITY' });
    expect(checked.aspect.name).toBe('datasetKey');
    expect(checked.value).toEqual({ platform: 'urn:li:dataPlatform:hive', name: 'db.t', origin: 'PROD' });
  });

  it('refuses a time-series aspect, which only takes UPSERT or DELETE', () => {
    expect(() =>
      checkProposal({
        entityType: 'dataset',
        entityUrn: URN,
        changeType: 'CREATE_ENTITY',
        aspectName: 'datasetProfile',
        aspect: aspect({ timestampMillis: 1 }),
      }),
    ).toThrow('only takes changeType UPSERT');
  });
});

describe('checkProposal with changeType DELETE of a time-series aspect', () => {
  const del = (headers?: Record<string, string>) =>
    checkProposal({
      entityType: 'dataset',
      entityUrn: URN,
      changeType: 'DELETE',
      aspectName: 'datasetProfile',
      ...(headers === undefined ? {} : { headers }),
    });

  it('takes the inclusive range of values to delete from its headers', () => {
    const checked = del({
      [TIMESERIES_START_TIME_HEADER]: '1000',
      [TIMESERIES_END_TIME_HEADER]: '2000',
    });
    expect(checked.changeType).toBe('DELETE');
    expect(checked.aspect.kind).toBe('timeseries');
    expect(checked.timeseriesRange).toEqual({ startTimeMillis: 1000, endTimeMillis: 2000 });
    expect(checked.value).toBeUndefined();
  });

  it('deletes every value without a range, and leaves a bound open when its header is absent', () => {
    expect(del().timeseriesRange).toEqual({});
    expect(del({ other: 'x' }).timeseriesRange).toEqual({});
    expect(del({ [TIMESERIES_START_TIME_HEADER]: '0' }).timeseriesRange).toEqual({ startTimeMillis: 0 });
    expect(del({ [TIMESERIES_END_TIME_HEADER]: '5' }).timeseriesRange).toEqual({ endTimeMillis: 5 });
  });

  it('matches the header names case-insensitively and takes start equal to end', () => {
    expect(
      del({ 'x-timeseries-start-time-millis': ' 7 ', 'X-TIMESERIES-END-TIME-MILLIS': '7' }).timeseriesRange,
    ).toEqual({ startTimeMillis: 7, endTimeMillis: 7 });
  });

  it('refuses a bound that is not a non-negative safe integer', () => {
    for (const bad of ['-1', '1.5', '1e3', '', 'abc', '0x10', '9007199254740992']) {
      expect(() => del({ [TIMESERIES_START_TIME_HEADER]: bad })).toThrow(ValidationError);
      expect(() => del({ [TIMESERIES_END_TIME_HEADER]: bad })).toThrow(
        `Header ${TIMESERIES_END_TIME_HEADER} must be a non-negative integer of epoch milliseconds`,
      );
    }
  });

  it('refuses a start after the end', () => {
    expect(() =>
      del({ [TIMESERIES_START_TIME_HEADER]: '2000', [TIMESERIES_END_TIME_HEADER]: '1999' }),
    ).toThrow(
      `Header ${TIMESERIES_START_TIME_HEADER} (2000) must not be after ${TIMESERIES_END_TIME_HEADER} (1999)`,
    );
  });

  it('refuses a bound given twice under names that differ in case', () => {
    expect(() => del({ [TIMESERIES_START_TIME_HEADER]: '1', 'x-timeseries-start-time-millis': '1' })).toThrow(
      'is given more than once',
    );
  });

  it('still refuses the other change types of a time-series aspect', () => {
    for (const changeType of ['CREATE', 'PATCH']) {
      expect(() =>
        checkProposal({
          entityType: 'dataset',
          entityUrn: URN,
          changeType,
          aspectName: 'datasetProfile',
          aspect: aspect({ timestampMillis: 1 }),
        }),
      ).toThrow(
        `Time-series aspect datasetProfile only takes changeType UPSERT or DELETE, got ${changeType}`,
      );
    }
  });

  it('ignores the range headers on a DELETE of a versioned aspect', () => {
    const checked = checkProposal({
      entityType: 'dataset',
      entityUrn: URN,
      changeType: 'DELETE',
      aspectName: 'datasetProperties',
      headers: { [TIMESERIES_START_TIME_HEADER]: 'not a number' },
    });
    expect(checked.timeseriesRange).toBeUndefined();
  });

  it('writes a range as headers that read back as the same range', () => {
    for (const range of [
      {},
      { startTimeMillis: 3 },
      { endTimeMillis: 4 },
      { startTimeMillis: 5, endTimeMillis: 5 },
    ]) {
      expect(timeseriesRangeFromHeaders(timeseriesRangeHeaders(range))).toEqual(range);
    }
    expect(timeseriesRangeHeaders({ startTimeMillis: 1, endTimeMillis: 2 })).toEqual({
      'X-Timeseries-Start-Time-Millis': '1',
      'X-Timeseries-End-Time-Millis': '2',
    });
  });

  it('scopes a time-series DELETE to a run by X-Timeseries-Run-Id', () => {
    expect(timeseriesRangeHeaders({ runId: 'r1' })).toEqual({ 'X-Timeseries-Run-Id': 'r1' });
    expect(
      timeseriesRangeFromHeaders({ 'x-timeseries-run-id': ' r1 ', [TIMESERIES_START_TIME_HEADER]: '5' }),
    ).toEqual({
      startTimeMillis: 5,
      runId: 'r1',
    });
    expect(timeseriesRangeFromHeaders(timeseriesRangeHeaders({ runId: 'r', endTimeMillis: 9 }))).toEqual({
      runId: 'r',
      endTimeMillis: 9,
    });
    expect(() => timeseriesRangeFromHeaders({ 'X-Timeseries-Run-Id': ' ' })).toThrow(ValidationError);
    expect(() =>
      timeseriesRangeFromHeaders({ 'X-Timeseries-Run-Id': 'a', 'x-timeseries-run-id': 'a' }),
    ).toThrow(ValidationError);
  });
});
