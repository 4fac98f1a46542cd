import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultTopicNames,
  encodeMcl,
  openEmbeddedEventLog,
  SchemaIds,
  type EventLog,
  type MetadataChangeLog,
} from '@catalog/events';
import { checkProposal, timeseriesRangeHeaders, type TimeseriesRange } from '@catalog/model';
import { changeLogForTimeseries, changeLogForTimeseriesDelete } from '@catalog/runtime';
import { openEmbeddedSearch, type EmbeddedSearch } from '@catalog/search';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { waitFor } from '@catalog/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexTimeseriesChangeLogs } from './index-timeseries.js';
import { startIndexer, type IndexerService } from './indexer-service.js';
import { capturingLogger } from '@catalog/testkit';

const ACTOR = 'urn:li:corpuser:tester';
const created = { time: 1_700_000_000_000, actor: ACTOR };

function datasetUrn(): string {
  return `urn:li:dataset:(urn:li:dataPlatform:hive,db.profiled_${randomUUID().slice(0, 8)},PROD)`;
}

/** The change logs persistence emits, made by the same helpers from checked proposals. */
function upsert(
  urn: string,
  timestampMillis: number,
  aspectName = 'datasetProfile',
  runId?: string,
): MetadataChangeLog {
  const proposal = checkProposal({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify({ timestampMillis, rowCount: timestampMillis }) },
  });
  const systemMetadata = { lastObserved: created.time, ...(runId === undefined ? {} : { runId }) };
  return changeLogForTimeseries(proposal, systemMetadata, created);
}

function remove(urn: string, range: TimeseriesRange = {}, aspectName = 'datasetProfile'): MetadataChangeLog {
  const proposal = checkProposal({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'DELETE',
    aspectName,
    headers: timeseriesRangeHeaders(range),
  });
  return changeLogForTimeseriesDelete(proposal, { lastObserved: created.time }, created);
}

describe('time-series change logs into the embedded index', () => {
  let dir: string;
  let search: EmbeddedSearch;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'indexer-timeseries-'));
    search = await openEmbeddedSearch({ file: join(dir, 'search.db') });
  });
  afterEach(async () => {
    await search.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const times = async (urn: string, aspect = 'datasetProfile'): Promise<number[]> =>
    (await search.timeseries.query({ entityType: 'dataset', aspect, urn, limit: 100 })).map(
      (d) => d.timestampMillis,
    );

  it('deletes the entity’s values of the aspect in the range, inclusive, leaving the others', async () => {
    const { logger } = capturingLogger('debug');
    const urn = datasetUrn();
    const other = datasetUrn();
    await indexTimeseriesChangeLogs(
      [
        ...[1_000, 2_000, 3_000, 4_000].map((t) => upsert(urn, t)),
        upsert(other, 2_000),
        upsert(urn, 2_000, 'datasetUsageStatistics'),
      ],
      search.timeseries,
      logger,
    );
    await indexTimeseriesChangeLogs(
      [remove(urn, { startTimeMillis: 2_000, endTimeMillis: 3_000 })],
      search.timeseries,
      logger,
    );
    expect(await times(urn)).toEqual([4_000, 1_000]);
    expect(await times(other)).toEqual([2_000]);
    expect(await times(urn, 'datasetUsageStatistics')).toEqual([2_000]);

    // No range: every value of the entity's aspect.
    await indexTimeseriesChangeLogs([remove(urn)], search.timeseries, logger);
    expect(await times(urn)).toEqual([]);
    expect(await times(other)).toEqual([2_000]);
  });

  it('deletes only the values of the run a DELETE’s X-Timeseries-Run-Id names', async () => {
    const { logger } = capturingLogger('debug');
    const urn = datasetUrn();
    await indexTimeseriesChangeLogs(
      [
        upsert(urn, 1_000, 'datasetProfile', 'r1'),
        upsert(urn, 2_000, 'datasetProfile', 'r2'),
        upsert(urn, 3_000),
      ],
      search.timeseries,
      logger,
    );
    const deletion = remove(urn, { runId: 'r1' });
    expect(deletion.headers).toEqual({ 'X-Timeseries-Run-Id': 'r1' });
    await indexTimeseriesChangeLogs([deletion, deletion], search.timeseries, logger);
    expect(await times(urn)).toEqual([3_000, 2_000]);
    expect(await search.timeseries.countRun('r2')).toBe(1);
  });

  it('applies a batch in log order, and the same again when it is redelivered', async () => {
    const { logger } = capturingLogger('debug');
    const urn = datasetUrn();
    const batch = [
      upsert(urn, 1_000),
      upsert(urn, 2_000),
      remove(urn, { endTimeMillis: 1_500 }),
      upsert(urn, 500),
      remove(urn, { startTimeMillis: 2_000, endTimeMillis: 2_000 }),
      upsert(urn, 3_000),
    ];
    await indexTimeseriesChangeLogs(batch, search.timeseries, logger);
    expect(await times(urn)).toEqual([3_000, 500]);
    await indexTimeseriesChangeLogs(batch, search.timeseries, logger);
    expect(await times(urn)).toEqual([3_000, 500]);
    // A delete redelivered on its own deletes what is gone: nothing, and no failure.
    await indexTimeseriesChangeLogs([batch[4]!], search.timeseries, logger);
    expect(await times(urn)).toEqual([3_000, 500]);
  });

  it('skips, and reports, a delete whose range is malformed; ignores a DELETE of a versioned aspect', async () => {
    const { logger, lines } = capturingLogger('debug');
    const urn = datasetUrn();
    await indexTimeseriesChangeLogs([upsert(urn, 1_000)], search.timeseries, logger);
    const malformed: MetadataChangeLog = {
      ...remove(urn),
      headers: { 'X-Timeseries-Start-Time-Millis': 'soon' },
    };
    const versioned: MetadataChangeLog = { ...remove(urn), aspectName: 'datasetProperties' };
    await indexTimeseriesChangeLogs([malformed, versioned, upsert(urn, 2_000)], search.timeseries, logger);
    expect(await times(urn)).toEqual([2_000, 1_000]);
    expect(lines()).toContainEqual(
      expect.objectContaining({ msg: 'time-series delete with a malformed range skipped', urn }),
    );
  });
});

describe('the indexer service with time-series DELETE change logs on the log', () => {
  let dir: string;
  let log: EventLog;
  let store: AspectStore;
  let search: EmbeddedSearch;
  let indexer: IndexerService;
  const topics = defaultTopicNames;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'indexer-service-timeseries-'));
    log = await openEmbeddedEventLog({ directory: join(dir, 'log'), pollIntervalMs: 10 });
    store = await openSqliteAspectStore({ file: join(dir, 'aspects.db') });
    search = await openEmbeddedSearch({ file: join(dir, 'search.db') });
    indexer = await startIndexer({
      log,
      store,
      search: search.search,
      graph: search.graph,
      timeseries: search.timeseries,
      topics,
      logger: capturingLogger('debug').logger,
      groupId: 'indexer-test',
      maxBatchSize: 100,
    });
    await indexer.ready;
  });
  afterEach(async () => {
    await indexer.stop();
    await log.close();
    await search.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const produce = (mcls: readonly MetadataChangeLog[]) =>
    log.produce(
      topics.metadataChangeLogTimeseries,
      mcls.map((mcl) => ({
        key: mcl.entityUrn ?? '',
        value: encodeMcl(mcl, SchemaIds.metadataChangeLogTimeseries),
      })),
    );
  const times = async (urn: string): Promise<number[]> =>
    (await search.timeseries.query({ entityType: 'dataset', aspect: 'datasetProfile', urn, limit: 100 })).map(
      (d) => d.timestampMillis,
    );
  const until = (urn: string, expected: number[]) =>
    waitFor(
      async () => JSON.stringify(await times(urn)) === JSON.stringify(expected),
      20_000,
      `${urn} to hold ${JSON.stringify(expected)}`,
    );

  it('deletes the newest value when asked for start = end = its time, and takes the same delete again', async () => {
    const urn = datasetUrn();
    await produce([upsert(urn, 1_000), upsert(urn, 2_000), upsert(urn, 3_000)]);
    await until(urn, [3_000, 2_000, 1_000]);
    const newest = remove(urn, { startTimeMillis: 3_000, endTimeMillis: 3_000 });
    await produce([newest]);
    await until(urn, [2_000, 1_000]);
    // Redelivered (produced again): nothing more goes; a later write still lands.
    await produce([newest, upsert(urn, 4_000)]);
    await until(urn, [4_000, 2_000, 1_000]);
    await produce([remove(urn)]);
    await until(urn, []);
  });
});
