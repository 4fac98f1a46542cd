import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeMcp, type EventLog, type ProduceRecord } from '@catalog/events';
import { dataPlatformEntities, entityRegistry } from '@catalog/model';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { bootstrapTypeEntities } from './bootstrap-type-entities.js';

const logger = pino({ level: 'silent' });
let dir: string | undefined;
let store: AspectStore | undefined;

afterEach(async () => {
  await store?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});

/** A log that records what is produced to it. */
function recordingLog(): { log: EventLog; produced: { topic: string; records: readonly ProduceRecord[] }[] } {
  const produced: { topic: string; records: readonly ProduceRecord[] }[] = [];
  const log = {
    produce: (topic: string, records: readonly ProduceRecord[]) => {
      produced.push({ topic, records });
      return Promise.resolve(records.map((_, i) => ({ topic, partition: 0, offset: String(i) })));
    },
  } as unknown as EventLog;
  return { log, produced };
}

describe('type entity bootstrap', () => {
  it('proposes a CREATE (If-None-Match: *) of every missing type entity in one append, then nothing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bootstrap-types-'));
    store = await openSqliteAspectStore({ file: join(dir, 'aspects.db') });
    const { log, produced } = recordingLog();
    const first = await bootstrapTypeEntities({ log, store, topic: 'MCP', logger });
    const count = 5 + entityRegistry.entities().length + dataPlatformEntities().length;
    expect(first).toEqual({ existing: 0, proposed: count });
    expect(produced).toHaveLength(1);
    const records = produced[0]!.records;
    expect(produced[0]!.topic).toBe('MCP');
    const mcps = records.map((r) => decodeMcp(r.value));
    const string = mcps.find((m) => m.entityUrn === 'urn:li:dataType:datahub.string')!;
    expect(string).toMatchObject({
      entityType: 'dataType',
      changeType: 'CREATE',
      aspectName: 'dataTypeInfo',
      headers: { 'If-None-Match': '*' },
    });
    expect(JSON.parse(string.aspect!.value.toString('utf8'))).toEqual({
      qualifiedName: 'datahub.string',
      displayName: 'String',
      description: 'A string of characters.',
    });
    const dataset = mcps.find((m) => m.entityUrn === 'urn:li:entityType:datahub.dataset')!;
    expect(dataset).toMatchObject({ entityType: 'entityType', aspectName: 'entityTypeInfo' });
    expect(JSON.parse(dataset.aspect!.value.toString('utf8'))).toEqual({
      qualifiedName: 'datahub.dataset',
      displayName: 'dataset',
    });
    const hive = mcps.find((m) => m.entityUrn === 'urn:li:dataPlatform:hive')!;
    expect(hive).toMatchObject({
      entityType: 'dataPlatform',
      aspectName: 'dataPlatformInfo',
      changeType: 'CREATE',
    });
    expect(JSON.parse(hive.aspect!.value.toString('utf8'))).toMatchObject({
      name: 'hive',
      displayName: 'Hive',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '.',
    });
    expect(records.every((r) => r.key === decodeMcp(r.value).entityUrn)).toBe(true);
    expect(records.every((r) => r.headers?.['actor'] === 'urn:li:corpuser:__datahub_system')).toBe(true);
    expect(new Set(records.map((r) => r.headers?.['requestId'])).size).toBe(count);

    // Once stored (here written straight to the store, as persistence would), nothing is proposed.
    const created = { time: 1, actor: 'urn:li:corpuser:__datahub_system' };
    await store.applyBatch(
      mcps.map((m, i) => ({
        requestId: `r${i}`,
        mode: 'CREATE' as const,
        urn: m.entityUrn!,
        aspect: m.aspectName!,
        value: JSON.parse(m.aspect!.value.toString('utf8')) as Record<string, unknown>,
        created,
      })),
    );
    const again = await bootstrapTypeEntities({ log, store, topic: 'MCP', logger });
    expect(again).toEqual({ existing: count, proposed: 0 });
    expect(produced).toHaveLength(1);
  });
});
