import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeMcl,
  encodeMcl,
  genericAspectFromJson,
  SchemaIds,
  type LogRecord,
  type MetadataChangeProposal,
} from '@catalog/events';
import { TIMESERIES_END_TIME_HEADER, TIMESERIES_START_TIME_HEADER } from '@catalog/model';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proposalRecord, TEST_ACTOR } from './proposal-records.testing.js';
import { applyProposals } from './apply-proposals.js';

const ACTOR = TEST_ACTOR;
const record = (mcp: MetadataChangeProposal, requestId?: string): LogRecord =>
  proposalRecord(mcp, requestId, 1_700_000_000_000);

function datasetUrn(): string {
  return `urn:li:dataset:(urn:li:dataPlatform:hive,db.profiled_${randomUUID().slice(0, 8)},PROD)`;
}

function deleteProfile(urn: string, headers?: Record<string, string>): MetadataChangeProposal {
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'DELETE',
    aspectName: 'datasetProfile',
    ...(headers === undefined ? {} : { headers }),
  };
}

describe('DELETE of a time-series aspect through persistence', () => {
  let dir: string;
  let store: AspectStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'persistence-timeseries-delete-'));
    store = await openSqliteAspectStore({ file: join(dir, 'aspects.db') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('becomes a time-series change log of changeType DELETE with the range, writing nothing to the store', async () => {
    const urn = datasetUrn();
    const requestId = randomUUID();
    const effects = await applyProposals(
      [
        record(
          deleteProfile(urn, {
            [TIMESERIES_START_TIME_HEADER]: '1000',
            [TIMESERIES_END_TIME_HEADER]: '2000',
            'X-Other': 'kept',
          }),
          requestId,
        ),
      ],
      store,
    );
    expect(effects.failed).toEqual([]);
    expect(effects.versioned).toEqual([]);
    expect(effects.outcomes).toEqual([
      { requestId, ok: true, status: 'DELETED', urn, aspectName: 'datasetProfile' },
    ]);
    expect(effects.timeseries).toHaveLength(1);
    const { mcl } = effects.timeseries[0]!;
    expect(mcl).toMatchObject({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'DELETE',
      aspectName: 'datasetProfile',
      created: { time: 1_700_000_000_000, actor: ACTOR },
      headers: {
        'X-Timeseries-Start-Time-Millis': '1000',
        'X-Timeseries-End-Time-Millis': '2000',
        'X-Other': 'kept',
      },
    });
    expect(mcl.aspect).toBeUndefined();
    expect(mcl.previousAspectValue).toBeUndefined();
    // It keeps encoding as the ecosystem's change log, range and all.
    const decoded = decodeMcl(encodeMcl(mcl, SchemaIds.metadataChangeLogTimeseries));
    expect(decoded.changeType).toBe('DELETE');
    expect(decoded.headers).toEqual(mcl.headers);
    expect(await store.getLatest(urn)).toEqual([]);
  });

  it('carries no range without one (every value), and writes the range headers under their own names', async () => {
    const urn = datasetUrn();
    const effects = await applyProposals(
      [
        record(deleteProfile(urn)),
        record(deleteProfile(urn, { 'x-timeseries-end-time-millis': ' 5 ', other: 'x' })),
      ],
      store,
    );
    expect(effects.outcomes.map((o) => o.ok && o.status)).toEqual(['DELETED', 'DELETED']);
    const [all, upTo] = effects.timeseries.map(({ mcl }) => mcl);
    expect(all?.changeType).toBe('DELETE');
    expect(all?.headers).toBeUndefined();
    expect(upTo?.headers).toEqual({ other: 'x', 'X-Timeseries-End-Time-Millis': '5' });
  });

  it('refuses a malformed range with its reason, emitting nothing', async () => {
    const urn = datasetUrn();
    const requestId = randomUUID();
    const effects = await applyProposals(
      [
        record(
          deleteProfile(urn, { [TIMESERIES_START_TIME_HEADER]: '3', [TIMESERIES_END_TIME_HEADER]: '2' }),
          requestId,
        ),
        record(deleteProfile(urn, { [TIMESERIES_START_TIME_HEADER]: '-1' })),
      ],
      store,
    );
    expect(effects.timeseries).toEqual([]);
    expect(effects.failed).toHaveLength(2);
    expect(effects.outcomes[0]).toMatchObject({
      requestId,
      ok: false,
      code: 'VALIDATION',
      message: `Header ${TIMESERIES_START_TIME_HEADER} (3) must not be after ${TIMESERIES_END_TIME_HEADER} (2)`,
    });
    expect(effects.outcomes[1]).toMatchObject({
      ok: false,
      code: 'VALIDATION',
      message: expect.stringContaining('must be a non-negative integer of epoch milliseconds'),
    });
  });

  it('succeeds again when redelivered, with the same change log, and keeps batch order with upserts', async () => {
    const urn = datasetUrn();
    const upsert: MetadataChangeProposal = {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'datasetProfile',
      aspect: genericAspectFromJson({ timestampMillis: 1500, rowCount: 1 }),
    };
    const ids = [randomUUID(), randomUUID()];
    const batch = (): LogRecord[] => [
      record(upsert, ids[0]),
      record(deleteProfile(urn, { [TIMESERIES_START_TIME_HEADER]: '1500' }), ids[1]),
    ];
    const first = await applyProposals(batch(), store);
    const again = await applyProposals(batch(), store);
    for (const effects of [first, again]) {
      expect(effects.outcomes.map((o) => o.ok && o.status)).toEqual(['TIMESERIES', 'DELETED']);
      expect(effects.timeseries.map(({ requestId, mcl }) => [requestId, mcl.changeType])).toEqual([
        [ids[0], 'UPSERT'],
        [ids[1], 'DELETE'],
      ]);
    }
    expect(again.timeseries).toEqual(first.timeseries);
  });
});
