import type { Client, Types } from '@opensearch-project/opensearch';
import { runBulk } from './bulk-writer.js';
import { versionedIndexName } from './index-names.js';
import type { OpenSearchLogger } from './logger.js';
import { asArray, asObject, asString, isObject, totalHits, type JsonObject } from './narrow.js';

/** What to rebuild: the index behind an alias, with mappings derived from its own. */
export interface RebuildPlan {
  readonly alias: string;
  /** The concrete index behind the alias now (its only one). */
  readonly index: string;
  /**
   * The new index's mappings from the current index's (`{dynamic, _meta, properties, ...}`). Called at
   * the start and again, with the latest mappings, just before the swap (mappings added meanwhile).
   */
  readonly mappings: (current: JsonObject) => JsonObject;
  /**
   * Asked once the current index is write-blocked and refreshed (its documents final), before the
   * swap: false abandons the rebuild (the new index is dropped, the block lifted, nothing changes).
   */
  readonly confirm?: (index: string) => Promise<boolean>;
}

export type RebuildOutcome =
  { readonly rebuilt: true; readonly index: string } | { readonly rebuilt: false; readonly index: string };

/** Index settings a rebuilt index takes over; the rest (uuid, creation date, blocks...) are the server's. */
const COPIED_SETTINGS = [
  'number_of_shards',
  'number_of_replicas',
  'analysis',
  'mapping',
  'max_result_window',
  'max_ngram_diff',
  'max_shingle_diff',
  'refresh_interval',
] as const;

/** Documents per page when the documents deleted during the first copy are looked for. */
const PAGE = 1_000;
const POLL_MS = { first: 100, max: 2_000 };

/**
 * Rebuilds the index behind an alias with new mappings, the documents copied by `_reindex`:
 * 1. a new concrete index (`<alias>_<hash>`, the settings of the current one, the planned mappings);
 * 2. a first copy of every document while writes go on reaching the current index;
 * 3. a write block on the current index, added through the block API (which returns once every write
 *    in flight has finished): writes through the alias are refused (403) from here until the swap; the
 *    caller retries them (the indexer's batches are redelivered) and they land in the new index;
 * 4. a second copy of the documents written since the first began (a sequence number above the highest
 *    one of every shard before it: a few more on a many-shard index, never fewer), overwriting their
 *    first copies, then the removal of those deleted meanwhile (looked for only when the new index holds
 *    more documents than the current one: the copies hold every document the current one does);
 * 5. the latest mappings of the current index carried over, the alias swapped atomically to the new
 *    index, the current one deleted.
 * A failure before the swap drops the new index and lifts the block: nothing has changed. A process
 * killed between 3 and 5 leaves the block: the next rebuild of the alias lifts it first (a write block
 * on an entity index is never set otherwise). Reads go on throughout.
 */
export async function rebuildBehindAlias(
  client: Client,
  logger: OpenSearchLogger,
  plan: RebuildPlan,
): Promise<RebuildOutcome> {
  const { alias, index } = plan;
  const settings = await settingsOf(client, index);
  if (isObject(settings['blocks']) && String(settings['blocks']['write']) === 'true') {
    logger.warn({ index, alias }, 'lifting the write block an interrupted rebuild left');
    await setWriteBlock(client, index, false);
  }
  const copied: JsonObject = {};
  for (const key of COPIED_SETTINGS) if (settings[key] !== undefined) copied[key] = settings[key];
  const mappings = plan.mappings(await mappingsOf(client, index));
  const next = versionedIndexName(alias, { settings: copied, mappings, rebuiltFrom: index });
  // A rebuild killed before its swap left this very index behind (same source, same mappings).
  await client.indices.delete({ index: next }, { ignore: [404] });
  await client.indices.create({
    index: next,
    body: {
      settings: copied as Types.Indices_Common.IndexSettings,
      mappings: mappings as Types.Common_Mapping.TypeMapping,
    },
  });
  logger.info({ alias, from: index, to: next }, 'rebuilding index');
  let blocked = false;
  try {
    const before = await writtenUpTo(client, index);
    await client.indices.refresh({ index });
    await reindex(client, index, next);
    await setWriteBlock(client, index, true);
    blocked = true;
    await client.indices.refresh({ index });
    if (plan.confirm !== undefined && !(await plan.confirm(index))) {
      await abandon(client, index, next, blocked);
      logger.info({ alias, index }, 'index rebuild abandoned: the index is left as it was');
      return { rebuilt: false, index };
    }
    await reindex(client, index, next, { range: { _seq_no: { gt: before } } });
    await dropDeleted(client, index, next);
    const latest = plan.mappings(await mappingsOf(client, index));
    await client.indices.putMapping({ index: next, body: mappingUpdate(latest) });
    await client.indices.updateAliases({
      body: {
        actions: [{ remove: { index, alias } }, { add: { index: next, alias, is_write_index: true } }],
      },
    });
  } catch (error) {
    await abandon(client, index, next, blocked).catch((cause: unknown) =>
      logger.error({ alias, index, next, err: cause }, 'could not undo a failed index rebuild'),
    );
    throw error;
  }
  await client.indices.delete({ index }, { ignore: [404] });
  logger.info({ alias, from: index, to: next }, 'index rebuilt');
  return { rebuilt: true, index: next };
}

async function abandon(client: Client, index: string, next: string, blocked: boolean): Promise<void> {
  await client.indices.delete({ index: next }, { ignore: [404] });
  if (blocked) await setWriteBlock(client, index, false);
}

/**
 * Sets or lifts the write block. Setting it goes through the add-block API, not the setting: only that
 * API waits until every shard accounts for the block, so no write accepted before it returns lands
 * after the copy that follows (a write in flight while the setting changed could, and was lost).
 */
async function setWriteBlock(client: Client, index: string, on: boolean): Promise<void> {
  if (!on) {
    await client.indices.putSettings({ index, body: { index: { blocks: { write: false } } } });
    return;
  }
  const response = await client.indices.addBlock({ index, block: 'write' });
  const body = asObject(response.body, 'add block');
  if (body['acknowledged'] !== true || body['shards_acknowledged'] !== true)
    throw new Error(
      `the write block on ${index} was not acknowledged by every shard: ${JSON.stringify(body)}`,
    );
}

/** The `index` settings of a concrete index, as the server echoes them (numbers as strings). */
async function settingsOf(client: Client, index: string): Promise<JsonObject> {
  const response = await client.indices.getSettings({ index });
  const entry = asObject(asObject(response.body, 'get settings')[index], `settings of ${index}`);
  return asObject(asObject(entry['settings'], 'settings')['index'], 'index settings');
}

async function mappingsOf(client: Client, index: string): Promise<JsonObject> {
  const response = await client.indices.getMapping({ index });
  const entry = asObject(asObject(response.body, 'get mapping')[index], `mapping of ${index}`);
  return asObject(entry['mappings'], 'mappings');
}

/** What a put-mapping request may carry of a full mapping (the server merges it into the index's). */
function mappingUpdate(mappings: JsonObject): Types.Common_Mapping.TypeMapping {
  const update: JsonObject = { properties: mappings['properties'] ?? {} };
  if (mappings['_meta'] !== undefined) update['_meta'] = mappings['_meta'];
  if (mappings['dynamic_templates'] !== undefined)
    update['dynamic_templates'] = mappings['dynamic_templates'];
  return update as Types.Common_Mapping.TypeMapping;
}

/**
 * The lowest of the highest sequence numbers of the index's primary shards: every document written
 * after this call has a higher one (on any shard). -1 for an index never written.
 */
async function writtenUpTo(client: Client, index: string): Promise<number> {
  const response = await client.indices.stats({ index, level: 'shards', metric: 'docs' });
  const shards = asObject(
    asObject(asObject(asObject(response.body, 'stats')['indices'], 'stats indices')[index], index)['shards'],
    'stats shards',
  );
  let lowest: number | undefined;
  for (const copies of Object.values(shards)) {
    for (const copy of asArray(copies, 'shard copies').map((c) => asObject(c, 'shard copy'))) {
      if (!isObject(copy['routing']) || copy['routing']['primary'] !== true) continue;
      const max = asObject(copy['seq_no'], 'seq_no')['max_seq_no'];
      if (typeof max === 'number') lowest = Math.min(lowest ?? max, max);
    }
  }
  return lowest ?? -1;
}

/** Copies the documents of `from` (those `query` matches) into `to`, overwriting. A task, polled. */
async function reindex(
  client: Client,
  from: string,
  to: string,
  query?: Types.Common_QueryDsl.QueryContainer,
): Promise<void> {
  const started = await client.reindex({
    wait_for_completion: false,
    refresh: true,
    body: { source: { index: from, size: PAGE, ...(query ? { query } : {}) }, dest: { index: to } },
  });
  const task = asString(asObject(started.body, 'reindex')['task'], 'reindex task');
  for (let wait = POLL_MS.first; ; wait = Math.min(wait * 2, POLL_MS.max)) {
    const status = asObject((await client.tasks.get({ task_id: task })).body, 'reindex task status');
    if (status['completed'] === true) {
      if (status['error'] !== undefined)
        throw new Error(`reindex ${from} → ${to} failed: ${JSON.stringify(status['error'])}`);
      const response = asObject(status['response'], 'reindex response');
      const failures = asArray(response['failures'] ?? [], 'reindex failures');
      if (failures.length > 0)
        throw new Error(`reindex ${from} → ${to} failed: ${JSON.stringify(failures.slice(0, 5))}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Deletes from `to` the documents `from` no longer holds (deleted while the first copy ran). */
async function dropDeleted(client: Client, from: string, to: string): Promise<void> {
  await client.indices.refresh({ index: to });
  if ((await countOf(client, to)) <= (await countOf(client, from))) return;
  let response = await client.search({
    index: to,
    scroll: '1m',
    size: PAGE,
    body: { _source: false, sort: ['_doc'] },
  });
  let scrollId: string | undefined;
  try {
    for (;;) {
      const body = asObject(response.body, 'scroll');
      scrollId = typeof body['_scroll_id'] === 'string' ? body['_scroll_id'] : scrollId;
      const ids = asArray(asObject(body['hits'], 'hits')['hits'], 'hits.hits').map((hit) =>
        asString(asObject(hit, 'hit')['_id'], 'hit _id'),
      );
      if (ids.length === 0) break;
      const found = await client.mget({ index: from, body: { ids }, _source: false });
      const gone = asArray(asObject(found.body, 'mget')['docs'], 'mget docs')
        .map((doc) => asObject(doc, 'mget doc'))
        .filter((doc) => doc['found'] !== true)
        .map((doc) => asString(doc['_id'], 'mget _id'));
      await runBulk(
        client,
        gone.map((id) => ({ action: 'delete' as const, index: to, id })),
        'false',
      );
      if (scrollId === undefined) break;
      response = await client.scroll({ scroll_id: scrollId, scroll: '1m' });
    }
  } finally {
    if (scrollId !== undefined) await client.clearScroll({ scroll_id: scrollId }, { ignore: [404] });
  }
  await client.indices.refresh({ index: to });
}

async function countOf(client: Client, index: string): Promise<number> {
  const response = await client.search({ index, size: 0, body: { track_total_hits: true } });
  return totalHits(asObject(asObject(response.body, 'count')['hits'], 'hits'));
}
