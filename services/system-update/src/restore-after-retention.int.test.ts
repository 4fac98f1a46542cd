import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultTopicNames, EmbeddedEventLog, encodeMcl, SchemaIds } from '@catalog/events';
import {
  changeLogForStored,
  EnvReader,
  openAspectStore,
  openEventLog,
  openSearchAdapters,
  readAdapterSettings,
} from '@catalog/runtime';
import { runSystemUpdate } from './system-update.js';

// Restoring indices reads the store, never the log: it must work once retention has emptied the log.

const logger = pino({ level: 'silent' });
const opened: Array<{ close(): Promise<void> }> = [];
let dir: string | undefined;

afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('system-update restore-indices after retention', () => {
  it('rebuilds the indices from the store when every change log has been deleted from the log', async () => {
    dir = mkdtempSync(join(tmpdir(), 'restore-retention-'));
    const settings = readAdapterSettings(
      new EnvReader({ CATALOG_DATA_DIR: dir, CATALOG_LOG_RETENTION_MS: '1000' }),
    );
    const log = await openEventLog(settings, logger);
    const store = await openAspectStore(settings, logger);
    const readModels = await openSearchAdapters(settings, logger);
    opened.push(log, store, readModels);
    if (!(log instanceof EmbeddedEventLog)) throw new Error('expected the embedded event log');

    const topic = defaultTopicNames.metadataChangeLogVersioned;
    await log.ensureTopics([{ name: topic }]);
    const names = ['orders', 'invoices', 'refunds'];
    for (const name of names) {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,shop.${name},PROD)`;
      const created = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' };
      const [result] = await store.applyBatch([
        {
          requestId: `r-${name}`,
          mode: 'UPSERT',
          urn,
          aspect: 'datasetProperties',
          value: { name, description: `retained ${name} table` },
          created,
          keyAspect: {
            name: 'datasetKey',
            value: { platform: 'urn:li:dataPlatform:hive', name: `shop.${name}`, origin: 'PROD' },
          },
        },
      ]);
      // The change log persistence produced for it, which retention then deletes.
      const mcl = changeLogForStored({
        entityType: 'dataset',
        changeType: 'UPSERT',
        current: result!.current!,
        created,
      });
      await log.produce(topic, [{ key: urn, value: encodeMcl(mcl, SchemaIds.metadataChangeLog) }]);
    }
    expect(await log.runRetention(Date.now() + 60_000)).toBe(names.length);
    expect(await log.lag('nobody-yet', topic)).toEqual([
      { partition: 0, offset: '-1', endOffset: String(names.length), lag: 0 },
    ]);

    const report = await runSystemUpdate(
      { log, store, readModels, topics: defaultTopicNames, logger },
      { steps: ['restore-indices'], batchSize: 2, clean: true },
    );
    expect(report?.entities).toBe(names.length);
    const found = await readModels.search.search({
      entityTypes: ['dataset'],
      input: 'retained',
      start: 0,
      count: 10,
    });
    expect(found.hits.map((h) => h.urn).sort()).toEqual(
      names.map((n) => `urn:li:dataset:(urn:li:dataPlatform:hive,shop.${n},PROD)`).sort(),
    );
  });
});
