import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { decodeMcp, genericAspectToJson, type EventLog, type ProduceRecord } from '@catalog/events';
import type { TimeseriesIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import { backfillRunFields, RUN_FIELDS_UPGRADE_URN } from './backfill-run-fields.js';

const logger = pino({ level: 'silent' });

/** The few members the step uses, with the backfills recorded; the rest is never called. */
function fakes(options: { backfills: boolean; marker?: Record<string, unknown> }) {
  const calls: string[] = [];
  const produced: ProduceRecord[] = [];
  const store = {
    async get(urn: string, aspect: string): Promise<StoredAspect | null> {
      calls.push(`get ${urn} ${aspect}`);
      return options.marker === undefined
        ? null
        : {
            urn,
            aspect,
            version: 0,
            value: options.marker,
            systemMetadata: null,
            created: { time: 0, actor: 'urn:li:corpuser:__datahub_system' },
          };
    },
    ...(options.backfills
      ? {
          async backfillRunFields(o?: { batchSize?: number }) {
            calls.push(`store ${o?.batchSize}`);
            return 3;
          },
        }
      : {}),
  } as unknown as AspectStore;
  const timeseries = (options.backfills
    ? {
        async backfillRunIds() {
          calls.push('timeseries');
          return 2;
        },
      }
    : {}) as unknown as TimeseriesIndex;
  const log = {
    async produce(topic: string, records: readonly ProduceRecord[]) {
      produced.push(...records);
      return records.map((_, offset) => ({ topic, partition: 0, offset: String(offset) }));
    },
  } as unknown as EventLog;
  return { store, timeseries, log, calls, produced };
}

describe('the ingestion-run backfill step', () => {
  it('does nothing, not even a store read, on adapters without backfills (embedded)', async () => {
    const f = fakes({ backfills: false });
    const report = await backfillRunFields({ ...f, topic: 'MCP', logger });
    expect(report).toEqual({ skipped: 'not-needed', aspects: 0, timeseriesDocuments: 0 });
    expect(f.calls).toEqual([]);
    expect(f.produced).toEqual([]);
  });

  it('runs both backfills, then proposes its SUCCEEDED upgrade result', async () => {
    const f = fakes({ backfills: true });
    const report = await backfillRunFields({ ...f, topic: 'MCP', logger, batchSize: 50 });
    expect(report).toEqual({ aspects: 3, timeseriesDocuments: 2 });
    expect(f.calls).toEqual([`get ${RUN_FIELDS_UPGRADE_URN} dataHubUpgradeResult`, 'store 50', 'timeseries']);
    expect(f.produced).toHaveLength(1);
    const mcp = decodeMcp(f.produced[0]!.value);
    expect(mcp).toMatchObject({
      entityType: 'dataHubUpgrade',
      entityUrn: RUN_FIELDS_UPGRADE_URN,
      changeType: 'UPSERT',
      aspectName: 'dataHubUpgradeResult',
    });
    expect(genericAspectToJson(mcp.aspect!)).toMatchObject({
      state: 'SUCCEEDED',
      result: { aspects: '3', timeseriesDocuments: '2' },
    });
  });

  it('skips once its upgrade result is stored, and runs again after a failed one', async () => {
    const done = fakes({ backfills: true, marker: { state: 'SUCCEEDED', timestampMs: 1 } });
    expect(await backfillRunFields({ ...done, topic: 'MCP', logger })).toEqual({
      skipped: 'done',
      aspects: 0,
      timeseriesDocuments: 0,
    });
    expect(done.calls).toHaveLength(1);
    expect(done.produced).toEqual([]);
    const failed = fakes({ backfills: true, marker: { state: 'FAILED', timestampMs: 1 } });
    expect((await backfillRunFields({ ...failed, topic: 'MCP', logger })).aspects).toBe(3);
  });
});
