import type { Collection } from 'mongodb';
import type { AspectWrite } from '../port.js';
import type { AspectDocument } from './aspect-document.js';
import { looksUpIdsByEquality } from './id-lookup.js';

/** One document of the `requests` collection: the result recorded for a request id. */
export interface RequestDocument {
  readonly _id: string;
  /** The ApplyResult as JSON text (replayed: false). */
  readonly result: string;
  /** Clock milliseconds; old entries are pruned after the retention. */
  readonly appliedAt: number;
  /**
   * DELETE and DELETE_ENTITY record their result before they remove anything; this lists the
   * versions 0 they remove, so a redelivery after a crash in between can finish the delete.
   */
  readonly deleting?: readonly DeletingMarker[];
}

export interface DeletingMarker {
  readonly urn: string;
  readonly aspect: string;
  readonly seq: number;
  readonly requestId: string;
}

/** Points between the steps of a write, where tests inject a crash (a hook that throws). */
export type WriteStep = 'inserted' | 'replaced' | 'delete-recorded' | 'deleted' | 'recorded';

export interface WriteHooks {
  /** Called after each step of a round with the request ids the step wrote for. */
  afterStep?(step: WriteStep, requestIds: readonly string[]): void | Promise<void>;
}

export interface StoreLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface WriteContext {
  readonly aspects: Collection<AspectDocument>;
  readonly requests: Collection<RequestDocument>;
  /** Clock milliseconds of this round. */
  readonly now: number;
  /** A claimed history version older than this is taken over (its claimer is presumed dead). */
  readonly orphanClaimMs: number;
  readonly hooks?: WriteHooks;
  readonly logger?: StoreLogger;
}

/** A write of the batch still to apply, with its retry state. */
export interface PendingWrite {
  readonly index: number;
  readonly write: AspectWrite;
  readonly attempt: number;
  /** After a lost claim: the history version another request holds. */
  readonly contestedClaim?: number;
}

/** Keys per $in list: a batch of 500 writes with their key aspects in one query, and no more ids than the
 * local FerretDB build narrows through its _id index (1,000, see infra/local/ferretdb-sqlite-id-index.patch). */
const ID_CHUNK = 1_000;

/** Equality queries in flight at once when ids are looked up one by one (see id-lookup.ts). */
const EQUALITY_CONCURRENCY = 64;

/**
 * Documents by _id, each read through the server's `_id` index (see id-lookup.ts): on MongoDB one `$in`
 * query per chunk of ids; where only `_id` equality is indexed (FerretDB, patched), one equality query
 * per id, run concurrently.
 */
export async function findByIds<T extends { readonly _id: string }>(
  collection: Collection<T>,
  ids: readonly string[],
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const unique = [...new Set(ids)];
  if (unique.length > 1 && looksUpIdsByEquality(collection.db.client)) {
    for (let at = 0; at < unique.length; at += EQUALITY_CONCURRENCY) {
      const docs = await Promise.all(
        unique
          .slice(at, at + EQUALITY_CONCURRENCY)
          .map((id) => collection.findOne({ _id: id } as never) as Promise<T | null>),
      );
      for (const doc of docs) if (doc !== null) found.set(doc._id, doc);
    }
    return found;
  }
  for (let at = 0; at < unique.length; at += ID_CHUNK) {
    const chunk = unique.slice(at, at + ID_CHUNK);
    const filter = chunk.length === 1 ? { _id: chunk[0] } : { _id: { $in: chunk } };
    // The driver's Filter<T> cannot follow a generic _id; the shape is right for every T here.
    const docs = (await collection.find(filter as never).toArray()) as unknown as T[];
    for (const doc of docs) found.set(doc._id, doc);
  }
  return found;
}
