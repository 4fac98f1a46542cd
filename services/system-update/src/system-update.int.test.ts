import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultTopicNames, type EventLog } from '@catalog/events';
import {
  EnvReader,
  openAspectStore,
  openEventLog,
  openSearchAdapters,
  readAdapterSettings,
  type SearchAdapters,
} from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import { runSystemUpdate } from './system-update.js';

const logger = pino({ level: 'silent' });
const opened: Array<{ close(): Promise<void> }> = [];
let dir: string | undefined;

afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function embedded(): Promise<{ log: EventLog; store: AspectStore; readModels: SearchAdapters }> {
  dir = mkdtempSync(join(tmpdir(), 'system-update-'));
  const settings = readAdapterSettings(new EnvReader({ CATALOG_DATA_DIR: dir }));
  const log = await openEventLog(settings, logger);
  const store = await openAspectStore(settings, logger);
  const readModels = await openSearchAdapters(settings, logger);
  opened.push(log, store, readModels);
  return { log, store, readModels };
}

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.ledger_lines,PROD)';

describe('system-update restore-indices', () => {
  it('rebuilds a wiped (--clean) index that text, filters and facets can all use again', async () => {
    const { log, store, readModels } = await embedded();
    const created = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' };
    await store.applyBatch([
      {
        requestId: 'r1',
        mode: 'UPSERT',
        urn,
        aspect: 'datasetProperties',
        value: { name: 'ledger_lines', description: 'Every booked line' },
        created,
        keyAspect: {
          name: 'datasetKey',
          value: { platform: 'urn:li:dataPlatform:hive', name: 'sales.ledger_lines', origin: 'PROD' },
        },
      },
      {
        requestId: 'r2',
        mode: 'UPSERT',
        urn,
        aspect: 'globalTags',
        value: { tags: [{ tag: 'urn:li:tag:finance' }] },
        created,
      },
    ]);
    const deps = { log, store, readModels, topics: defaultTopicNames, logger };
    const settings = { steps: ['restore-indices'], batchSize: 100 } as const;
    await runSystemUpdate(deps, { ...settings, clean: false });
    // A clean rebuild over an index that already holds the document.
    const report = await runSystemUpdate(deps, { ...settings, clean: true });
    expect(report?.entities).toBe(1);

    const search = (request: Record<string, unknown>) =>
      readModels.search.search({ entityTypes: ['dataset'], input: '*', start: 0, count: 10, ...request });
    expect((await search({ input: 'booked' })).hits.map((h) => h.urn)).toEqual([urn]);
    const byTag = await search({
      facets: ['tags'],
      filter: { or: [{ and: [{ field: 'tags', condition: 'EQUAL', values: ['urn:li:tag:finance'] }] }] },
    });
    expect(byTag.hits.map((h) => h.urn)).toEqual([urn]);
    expect(byTag.aggregations[0]?.values).toEqual([{ value: 'urn:li:tag:finance', count: 1 }]);
  });
});

describe('system-update restore-indices over a hard-deleted entity', () => {
  it('removes the document and edges of an entity with nothing stored, and keeps the others', async () => {
    const { log, store, readModels } = await embedded();
    const created = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' };
    const gone = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.gone,PROD)';
    await store.applyBatch([
      {
        requestId: 'k1',
        mode: 'UPSERT',
        urn,
        aspect: 'upstreamLineage',
        value: {
          upstreams: [
            { dataset: gone, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } },
          ],
        },
        created,
        keyAspect: {
          name: 'datasetKey',
          value: { platform: 'urn:li:dataPlatform:hive', name: 'sales.ledger_lines', origin: 'PROD' },
        },
      },
    ]);
    const deps = { log, store, readModels, topics: defaultTopicNames, logger };
    expect(
      (await runSystemUpdate(deps, { steps: ['restore-indices'], batchSize: 100, clean: false }))?.orphans,
    ).toBe(0);
    // What an index that missed the hard delete of `gone` still holds: its document and its edges.
    await readModels.search.upsert([
      { urn: gone, entityType: 'dataset', fields: { name: 'gone', urn: gone } },
    ]);
    await readModels.graph.replaceEdges(gone, 'globalTags', [
      { source: gone, relationship: 'TaggedWith', target: 'urn:li:tag:finance', aspect: 'globalTags' },
    ]);
    const report = await runSystemUpdate(deps, { steps: ['restore-indices'], batchSize: 100, clean: false });
    expect(report?.orphans).toBe(1);
    expect(await readModels.search.getDocument('dataset', gone)).toBeNull();
    expect(await readModels.search.getDocument('dataset', urn)).not.toBeNull();
    const related = (target: string, direction: 'INCOMING' | 'OUTGOING') =>
      readModels.graph.related({ urn: target, direction, types: [], start: 0, count: 10 });
    expect((await related(gone, 'OUTGOING')).total).toBe(0);
    // Edges to it go too, as a hard delete removes them (the ecosystem's removeNode): the restore
    // leaves the indices as the delete did.
    expect((await related(urn, 'OUTGOING')).total).toBe(0);
    expect((await related('urn:li:tag:finance', 'INCOMING')).total).toBe(0);
    // Again: nothing more to remove.
    expect(
      (await runSystemUpdate(deps, { steps: ['restore-indices'], batchSize: 100, clean: false }))?.orphans,
    ).toBe(0);
  });
});
