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
