import type { AnyBulkWriteOperation } from 'mongodb';
import { historyToPrune } from '../retention-rules.js';
import { aspectId, type AspectDocument, type LatestDocument } from './aspect-document.js';
import { findByIds, type WriteContext } from './write-context.js';

/**
 * History versions a write looks at past version 0's `historyFrom`: a write removes at most this many
 * rows, so an aspect with a long history from before its retention is trimmed over its next writes.
 */
const PRUNE_WINDOW = 64;

/** A write that made a new version 0 (`latest`), with its retention. */
export interface MadeVersion {
  readonly latest: LatestDocument;
  readonly retention: Parameters<typeof historyToPrune>[0];
}

interface Window {
  readonly latest: LatestDocument;
  readonly from: number;
  readonly to: number;
  /** Only rows written before this go (a time bound); MAX_SAFE_INTEGER removes every row of the window. */
  readonly writtenBefore: number;
}

/**
 * Removes the history rows each write's retention rules out (see historyToPrune), after the write has
 * recorded its result. Rows are addressed by _id only (FerretDB reads no other index): the window of
 * versions from version 0's `historyFrom`, which then moves past what is gone. A crash in between only
 * leaves rows a later write of the aspect removes.
 */
export async function pruneHistory(ctx: WriteContext, made: readonly MadeVersion[]): Promise<void> {
  const windows: Window[] = [];
  for (const { latest, retention } of made) {
    const prune = historyToPrune(retention, latest.seq, ctx.now);
    if (prune === undefined) continue;
    const from = latest.historyFrom ?? 1;
    const to = Math.min(prune.upTo, from + PRUNE_WINDOW - 1);
    if (to >= from) windows.push({ latest, from, to, writtenBefore: prune.writtenBefore });
  }
  if (windows.length === 0) return;
  const idsOf = (w: Window) => range(w.from, w.to).map((v) => aspectId(w.latest.urn, w.latest.aspect, v));
  const timed = windows.filter((w) => w.writtenBefore < Number.MAX_SAFE_INTEGER);
  const found =
    timed.length === 0
      ? new Map<string, AspectDocument>()
      : await findByIds(ctx.aspects, timed.flatMap(idsOf));
  const doomed: string[] = [];
  const moves: AnyBulkWriteOperation<AspectDocument>[] = [];
  for (const w of windows) {
    let next = w.to + 1;
    for (const version of range(w.from, w.to)) {
      const id = aspectId(w.latest.urn, w.latest.aspect, version);
      const doc = found.get(id);
      const goes =
        w.writtenBefore === Number.MAX_SAFE_INTEGER || (doc !== undefined && doc.createdOn < w.writtenBefore);
      if (goes) doomed.push(id);
      else if (doc !== undefined && next > w.to) next = version;
    }
    if (next > w.from) {
      moves.push({
        updateOne: {
          filter: { _id: w.latest._id, seq: w.latest.seq },
          update: { $set: { historyFrom: next } },
        },
      });
    }
  }
  for (let at = 0; at < doomed.length; at += ID_CHUNK) {
    await ctx.aspects.deleteMany({ _id: { $in: doomed.slice(at, at + ID_CHUNK) } });
  }
  for (let at = 0; at < moves.length; at += UPDATES_PER_COMMAND) {
    await ctx.aspects.bulkWrite(moves.slice(at, at + UPDATES_PER_COMMAND), { ordered: false });
  }
}

/** Ids per `$in` (FerretDB narrows through its _id index up to 1,000, see write-context.ts). */
const ID_CHUNK = 1_000;
/** FerretDB never answers an update batch of 100 or more (see apply-round.ts). */
const UPDATES_PER_COMMAND = 50;

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v++) out.push(v);
  return out;
}
