import type { ApplyResult } from '../port.js';
import { aspectId, isLatestDocument, type LatestDocument } from './aspect-document.js';
import { duplicateKeyIndexes } from './mongo-errors.js';
import { findByIds, type RequestDocument, type WriteContext } from './write-context.js';

/** A DELETE or DELETE_ENTITY decided in a round: the versions 0 it removes and its result. */
export interface DeletePlan {
  readonly removed: readonly LatestDocument[];
  readonly result: ApplyResult;
}

/**
 * Records each delete's result first, with what it removes, then removes. Recording first is what
 * lets a redelivery after a crash answer DELETED (and finish the job) instead of NOT_FOUND. Returns
 * the positions whose record was refused as a duplicate (another process recorded the request at
 * that moment): those go round again and replay that record.
 */
export async function recordThenDelete(
  ctx: WriteContext,
  plans: readonly DeletePlan[],
): Promise<Set<number>> {
  if (plans.length === 0) return new Set();
  let refused = new Set<number>();
  try {
    await ctx.requests.insertMany(
      plans.map((plan) => deleteRecord(ctx, plan)),
      { ordered: false },
    );
  } catch (error) {
    refused = duplicateKeyIndexes(error);
  }
  const recorded = plans.filter((_, index) => !refused.has(index));
  const requestIds = recorded.map((plan) => plan.result.requestId);
  await ctx.hooks?.afterStep?.('delete-recorded', requestIds);
  await removeAspects(
    ctx,
    recorded.flatMap((plan) => plan.removed),
  );
  await ctx.hooks?.afterStep?.('deleted', requestIds);
  return refused;
}

function deleteRecord(ctx: WriteContext, plan: DeletePlan): RequestDocument {
  return {
    _id: plan.result.requestId,
    result: JSON.stringify(plan.result),
    appliedAt: ctx.now,
    deleting: plan.removed.map((doc) => ({
      urn: doc.urn,
      aspect: doc.aspect,
      seq: doc.seq,
      requestId: doc.requestId,
    })),
  };
}

/** History first, versions 0 last: a version 0 still there means the delete has not finished. */
async function removeAspects(ctx: WriteContext, removed: readonly LatestDocument[]): Promise<void> {
  if (removed.length === 0) return;
  const history = removed.map((doc) => ({ urn: doc.urn, aspect: doc.aspect, version: { $gt: 0 } }));
  const [onlyHistory] = history;
  await ctx.aspects.deleteMany(
    history.length === 1 && onlyHistory !== undefined ? onlyHistory : { $or: history },
  );
  const ids = removed.map((doc) => doc._id);
  const [onlyId] = ids;
  await ctx.aspects.deleteMany(
    ids.length === 1 && onlyId !== undefined ? { _id: onlyId } : { _id: { $in: ids } },
  );
}

/** A recorded result, replayed; a delete interrupted after its record is finished first. */
export async function replayRecorded(ctx: WriteContext, record: RequestDocument): Promise<ApplyResult> {
  if (record.deleting !== undefined && record.deleting.length > 0) {
    const docs = await findByIds(
      ctx.aspects,
      record.deleting.map((m) => aspectId(m.urn, m.aspect, 0)),
    );
    const unfinished = record.deleting.flatMap((marker) => {
      const doc = docs.get(aspectId(marker.urn, marker.aspect, 0));
      return isLatestDocument(doc) && doc.seq === marker.seq && doc.requestId === marker.requestId
        ? [doc]
        : [];
    });
    if (unfinished.length > 0) {
      ctx.logger?.warn(
        { requestId: record._id, aspects: unfinished.map((d) => d.aspect) },
        'finishing an interrupted delete',
      );
      await removeAspects(ctx, unfinished);
    }
  }
  return { ...(JSON.parse(record.result) as ApplyResult), replayed: true };
}
