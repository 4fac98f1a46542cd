/**
 * The MongoDB aspect store's write protocol: atomic per write and idempotent per request id, without
 * multi-document transactions (FerretDB has none; on MongoDB they need a replica set and cost round
 * trips). It rests on the one atomic primitive both servers share: an insert whose _id (or unique key)
 * exists fails with a duplicate key.
 *
 * Documents (aspect-document.ts): version 0 of an aspect carries `seq`, its highest history version,
 * and `requestId`, the request whose write set its value; history row k (1 <= k <= seq) keeps the
 * k-th value. Results are recorded in `requests` under the request id (`_id`).
 *
 * UPSERT / CREATE by request r:
 *  1. A recorded result for r is returned, replayed, and nothing changes.
 *  2. Version 0 (v0) is read.
 *     - None: insert v0 (seq 0, requestId r). A duplicate key means another writer created it first:
 *       go round again (step 1), now against its value.
 *     - v0.requestId = r: r's write landed and the process died before step 3: the result is rebuilt
 *       (CREATED when seq = 0, else UPDATED with history row seq as previous), marked replayed.
 *     - CREATE: CONFLICT. Same value (key order ignored): UNCHANGED, `$set` of the system metadata
 *       where {_id, seq: c}.
 *     - A new value, v0 at seq c: (a) claim c+1: insert history row c+1 holding v0's content,
 *       claimedBy r. A duplicate key means c+1 is taken: go round again; if v0 is still at c and the
 *       claim is r's own (r died between (a) and (b)) or older than orphanClaimMs (its writer died and
 *       was never redelivered), continue to (b) without inserting; a fresh claim of another writer is
 *       waited for. (b) replace v0 where {_id, seq: c} by the new value with seq c+1, requestId r.
 *       Only the holder of claim c+1 replaces v0 at c, so no two writers make the same version and no
 *       value is lost; a replace matching nothing (v0 moved) goes round again.
 *     The entity's key aspect, when absent, is inserted with (a) (requestId r; duplicate = existed).
 *  3. Record r's result (insert; a duplicate means another process recorded r at the same moment:
 *     its result is answered, so both agree).
 *  4. A new value with a retention (AspectWrite.retention): remove the history rows it rules out
 *     (prune-history.ts). Not atomic with the write: a crash before it leaves rows the next write of
 *     the aspect removes; results are recorded whole, so no replay needs a removed row.
 * DELETE / DELETE_ENTITY by r: record the result first, listing the (seq, requestId) of each v0 it
 * removes; then delete the history rows, then the versions 0. A redelivery finds the record, and if
 * one of those versions 0 is still there unchanged (a crash mid-delete) it finishes the delete, so the
 * answer stays DELETED rather than NOT_FOUND.
 *
 * A crash between any two steps leaves a state the redelivery of the same request completes (tests:
 * mongo-write-protocol.int.test.ts). Throughput: writes of a batch run in rounds of independent writes
 * (planRounds), each round in a fixed number of commands; a write that lost a race is retried in a
 * new round. Within a process, writes to one entity are serialized (KeyedMutex), so races at the
 * server need two processes writing one aspect at once (a consumer-group rebalance).
 *
 * FerretDB 1.24 runs an update as read, change in memory, write back the whole document, without
 * isolation, so the conditional replace is not atomic there. The claim rule above keeps concurrent
 * value changes safe anyway; what remains is that an UNCHANGED `$set` from one process racing a value
 * change from another can write the old document back (the claimed history row then marks the lost
 * step). MongoDB does not have this gap.
 */
import type { AnyBulkWriteOperation } from 'mongodb';
import type { ApplyResult, StoredAspect } from '../port.js';
import {
  aspectId,
  isLatestDocument,
  runFields,
  toStoredAspect,
  type AspectDocument,
  type LatestDocument,
} from './aspect-document.js';
import { recordThenDelete, replayRecorded } from './apply-deletes.js';
import { duplicateKeyIndexes } from './mongo-errors.js';
import { pruneHistory } from './prune-history.js';
import { idsToRead, planWrite, withEntityCreated, type KeyPlan, type WritePlan } from './plan-write.js';
import { findByIds, type PendingWrite, type RequestDocument, type WriteContext } from './write-context.js';

export interface RoundOutcome {
  readonly done: ReadonlyMap<number, ApplyResult>;
  /** Writes that lost a race (a duplicate key, a moved counter) and must run again in a new round. */
  readonly retry: readonly PendingWrite[];
}

interface Live {
  readonly pending: PendingWrite;
  plan: WritePlan;
  keyCreated?: StoredAspect;
  /** Entity defaults this write stored (see AspectWrite.entityDefaults). */
  defaultsCreated: StoredAspect[];
  /** Deletes record their result before removing anything. */
  recordedAlready?: boolean;
}

/**
 * Applies a round of independent writes (no two on one entity, no two with one request id) with a
 * fixed number of commands, whatever the round's size: read recorded results, read versions 0, one
 * unordered insert (new versions 0, claimed history rows, key aspects), one unordered bulk of
 * conditional replaces, then record the results. Deletes record first and remove after.
 */
export async function applyRound(ctx: WriteContext, round: readonly PendingWrite[]): Promise<RoundOutcome> {
  const done = new Map<number, ApplyResult>();
  const retry: PendingWrite[] = [];
  // Both reads at once: the versions 0 of a write that turns out to be recorded are just not used.
  const [recorded, docs] = await Promise.all([
    findByIds(
      ctx.requests,
      round.map((p) => p.write.requestId),
    ),
    findByIds(ctx.aspects, round.flatMap(idsToRead)),
  ]);
  const fresh: PendingWrite[] = [];
  for (const pending of round) {
    const record = recorded.get(pending.write.requestId);
    if (record === undefined) fresh.push(pending);
    else done.set(pending.index, await replayRecorded(ctx, record));
  }
  const entities = await latestOfEntities(
    ctx,
    fresh.filter((p) => p.write.mode === 'DELETE_ENTITY').map((p) => p.write.urn),
  );
  const live: Live[] = fresh.map((pending) => ({
    pending,
    plan: planWrite(ctx, pending, docs, entities.get(pending.write.urn) ?? []),
    defaultsCreated: [],
  }));
  const retryLive = (item: Live, contestedClaim?: number) => {
    item.plan = { kind: 'retry' };
    const { contestedClaim: _old, ...rest } = item.pending;
    retry.push({
      ...rest,
      attempt: rest.attempt + 1,
      ...(contestedClaim === undefined ? {} : { contestedClaim }),
    });
  };
  for (const item of live) if (item.plan.kind === 'retry') retryLive(item, item.pending.contestedClaim);

  await insertNewDocuments(ctx, live, retryLive);
  await replaceLatest(ctx, live, retryLive);
  await applyDeletes(ctx, live, retryLive);
  for (const item of live) {
    if (item.plan.kind === 'rebuild-update')
      item.plan = { kind: 'done', result: await rebuildUpdate(ctx, item) };
  }
  await recordResults(ctx, live, done);
  await pruneHistory(
    ctx,
    live.flatMap(({ plan, pending }) =>
      plan.kind === 'update' && pending.write.retention !== undefined
        ? [{ latest: plan.latest, retention: pending.write.retention }]
        : [],
    ),
  );
  return { done, retry };
}

async function insertNewDocuments(
  ctx: WriteContext,
  live: readonly Live[],
  retryLive: (item: Live, contestedClaim?: number) => void,
): Promise<void> {
  const inserts: { doc: AspectDocument; item: Live; role: 'main' | 'key' | 'default' }[] = [];
  const keysStored = new Set<string>();
  for (const item of live) {
    const { plan } = item;
    if (plan.kind === 'create') inserts.push({ doc: plan.latest, item, role: 'main' });
    if (plan.kind === 'update' && plan.claim !== undefined)
      inserts.push({ doc: plan.claim, item, role: 'main' });
    const key = keyOf(plan);
    if (key?.created !== undefined) item.keyCreated = key.created;
    item.defaultsCreated.push(...(key?.defaultsCreated ?? []));
    // Writes of one round storing the same key aspect or default: the first in batch order stores it.
    if (key?.insert !== undefined && !keysStored.has(key.insert._id)) {
      keysStored.add(key.insert._id);
      inserts.push({ doc: key.insert, item, role: 'key' });
    }
    for (const doc of key?.defaultInserts ?? []) {
      if (keysStored.has(doc._id)) continue;
      keysStored.add(doc._id);
      inserts.push({ doc, item, role: 'default' });
    }
  }
  if (inserts.length === 0) return;
  let refused = new Set<number>();
  try {
    await ctx.aspects.insertMany(
      inserts.map((i) => i.doc),
      { ordered: false },
    );
  } catch (error) {
    refused = duplicateKeyIndexes(error);
  }
  inserts.forEach(({ doc, item, role }, index) => {
    if (role === 'key') {
      // Refused: another writer stored the entity's key first, so this write did not create it.
      if (!refused.has(index)) item.keyCreated = toStoredAspect(doc);
    } else if (role === 'default') {
      // Refused: the entity has this aspect already (another writer stored it), so it is left alone.
      if (!refused.has(index)) item.defaultsCreated.push(toStoredAspect(doc));
    } else if (refused.has(index)) {
      retryLive(item, item.plan.kind === 'update' ? doc.version : undefined);
    }
  });
  await ctx.hooks?.afterStep?.(
    'inserted',
    inserts.map((i) => i.item.pending.write.requestId),
  );
}

/**
 * Version 0 changes only if its counter is still the one read: on MongoDB the replace is atomic, so
 * of two writers the second matches nothing and goes round again.
 */
/**
 * Replacements and updates sent per bulk command. MongoDB takes any number, but FerretDB 1.24 (the
 * MongoDB-wire server of the local and CI runs) never answers an update batch of 100 or more
 * operations; commands of 50 cost nothing measurable on either.
 */
const UPDATES_PER_COMMAND = 50;

async function replaceLatest(
  ctx: WriteContext,
  live: readonly Live[],
  retryLive: (item: Live) => void,
): Promise<void> {
  const changing: { item: Live; previous: LatestDocument; expected: (doc: AspectDocument) => boolean }[] = [];
  const ops: AnyBulkWriteOperation<AspectDocument>[] = [];
  for (const item of live) {
    const { plan } = item;
    if (plan.kind === 'update') {
      ops.push({
        replaceOne: { filter: { _id: plan.previous._id, seq: plan.previous.seq }, replacement: plan.latest },
      });
      const { requestId, seq } = plan.latest;
      changing.push({
        item,
        previous: plan.previous,
        expected: (d) => d.requestId === requestId && d.seq === seq,
      });
    } else if (plan.kind === 'unchanged') {
      const text = JSON.stringify(plan.observed);
      ops.push({
        updateOne: {
          filter: { _id: plan.previous._id, seq: plan.previous.seq },
          update: { $set: { systemMetadata: text, ...runFields(plan.observed, plan.previous.createdOn) } },
        },
      });
      const { seq } = plan.previous;
      changing.push({
        item,
        previous: plan.previous,
        expected: (d) => d.seq === seq && d.systemMetadata === text,
      });
    }
  }
  if (ops.length === 0) return;
  let matched = 0;
  for (let at = 0; at < ops.length; at += UPDATES_PER_COMMAND) {
    const result = await ctx.aspects.bulkWrite(ops.slice(at, at + UPDATES_PER_COMMAND), { ordered: false });
    matched += result.matchedCount;
  }
  if (matched < ops.length) {
    // The bulk result has no per-operation counts: read back which versions 0 are not as written.
    const now = await findByIds(
      ctx.aspects,
      changing.map((c) => c.previous._id),
    );
    for (const { item, previous, expected } of changing) {
      const doc = now.get(previous._id);
      if (doc === undefined || !expected(doc)) retryLive(item);
    }
  }
  await ctx.hooks?.afterStep?.(
    'replaced',
    changing.map((c) => c.item.pending.write.requestId),
  );
}

/** Deletes record their result before they remove anything; see recordThenDelete. */
async function applyDeletes(
  ctx: WriteContext,
  live: readonly Live[],
  retryLive: (item: Live) => void,
): Promise<void> {
  const deletes = live.flatMap((item) => (item.plan.kind === 'delete' ? [{ item, plan: item.plan }] : []));
  const refused = await recordThenDelete(
    ctx,
    deletes.map((d) => d.plan),
  );
  deletes.forEach(({ item, plan }, index) => {
    if (refused.has(index)) return retryLive(item);
    item.plan = { kind: 'done', result: plan.result };
    item.recordedAlready = true;
  });
}

async function latestOfEntities(
  ctx: WriteContext,
  urns: readonly string[],
): Promise<Map<string, LatestDocument[]>> {
  const byUrn = new Map<string, LatestDocument[]>();
  if (urns.length === 0) return byUrn;
  const filter =
    urns.length === 1 ? { urn: urns[0] ?? '', version: 0 } : { urn: { $in: [...urns] }, version: 0 };
  for (const doc of await ctx.aspects.find(filter).toArray()) {
    if (!isLatestDocument(doc)) continue;
    const list = byUrn.get(doc.urn);
    if (list === undefined) byUrn.set(doc.urn, [doc]);
    else list.push(doc);
  }
  return byUrn;
}

/** This request changed version 0 and crashed before recording: previous is the history row it made. */
async function rebuildUpdate(ctx: WriteContext, item: Live): Promise<ApplyResult> {
  if (item.plan.kind !== 'rebuild-update') throw new Error('not a rebuild');
  const { latest } = item.plan;
  const row = await ctx.aspects.findOne({ _id: aspectId(latest.urn, latest.aspect, latest.seq) });
  const result: ApplyResult = {
    requestId: item.pending.write.requestId,
    status: 'UPDATED',
    ...(row === null ? {} : { previous: { ...toStoredAspect(row), version: 0 } }),
    current: toStoredAspect(latest),
    replayed: true,
  };
  return result;
}

function keyOf(plan: WritePlan): KeyPlan | undefined {
  return plan.kind === 'done' ||
    plan.kind === 'create' ||
    plan.kind === 'update' ||
    plan.kind === 'unchanged' ||
    plan.kind === 'rebuild-update'
    ? plan.key
    : undefined;
}

/** The result of each write that finished this round, recorded under its request id. */
async function recordResults(
  ctx: WriteContext,
  live: readonly Live[],
  done: Map<number, ApplyResult>,
): Promise<void> {
  const toRecord: { index: number; result: ApplyResult }[] = [];
  for (const item of live) {
    const result = resultOf(item);
    if (result === undefined) continue;
    done.set(item.pending.index, result);
    if (item.recordedAlready !== true) toRecord.push({ index: item.pending.index, result });
  }
  if (toRecord.length === 0) return;
  const records: RequestDocument[] = toRecord.map(({ result }) => ({
    _id: result.requestId,
    result: JSON.stringify({ ...result, replayed: false }),
    appliedAt: ctx.now,
  }));
  let refused = new Set<number>();
  try {
    await ctx.requests.insertMany(records, { ordered: false });
  } catch (error) {
    refused = duplicateKeyIndexes(error);
  }
  if (refused.size > 0) {
    // Another process recorded the same request at the same moment: both must answer the same.
    const theirs = await findByIds(
      ctx.requests,
      [...refused].map((i) => records[i]?._id ?? ''),
    );
    for (const i of refused) {
      const entry = toRecord[i];
      const record = entry === undefined ? undefined : theirs.get(entry.result.requestId);
      if (entry !== undefined && record !== undefined)
        done.set(entry.index, { ...(JSON.parse(record.result) as ApplyResult), replayed: true });
    }
  }
  await ctx.hooks?.afterStep?.(
    'recorded',
    records.map((r) => r._id),
  );
}

function resultOf(item: Live): ApplyResult | undefined {
  const { plan } = item;
  const requestId = item.pending.write.requestId;
  switch (plan.kind) {
    case 'done':
      return withEntityCreated(plan.result, item.keyCreated, item.defaultsCreated);
    case 'create':
      return withEntityCreated(
        { requestId, status: 'CREATED', current: toStoredAspect(plan.latest), replayed: false },
        item.keyCreated,
        item.defaultsCreated,
      );
    case 'update':
      return withEntityCreated(
        {
          requestId,
          status: 'UPDATED',
          previous: toStoredAspect(plan.previous),
          current: toStoredAspect(plan.latest),
          replayed: false,
        },
        item.keyCreated,
        item.defaultsCreated,
      );
    case 'unchanged': {
      const previous = toStoredAspect(plan.previous);
      return withEntityCreated(
        {
          requestId,
          status: 'UNCHANGED',
          previous,
          current: { ...previous, systemMetadata: plan.observed },
          replayed: false,
        },
        item.keyCreated,
        item.defaultsCreated,
      );
    }
    default:
      return undefined;
  }
}
