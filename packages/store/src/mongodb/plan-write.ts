import { sameAspectValue } from '../canonical-json.js';
import type { ApplyResult, AspectWrite, SideAspect, StoredAspect, SystemMetadata } from '../port.js';
import {
  aspectId,
  historyDocument,
  isLatestDocument,
  latestDocument,
  toStoredAspect,
  type AspectDocument,
  type LatestDocument,
} from './aspect-document.js';
import type { PendingWrite, WriteContext } from './write-context.js';
import {
  newValue,
  newVersionMetadata,
  observedAgain,
  sideMetadata,
  storedVersionText,
} from '../write-rules.js';

/**
 * What the key aspect of an UPSERT/CREATE needs: nothing, an insert, or a report (recovery); and, when
 * the write creates the entity, its defaults (AspectWrite.entityDefaults): inserts for those absent,
 * reports for those an earlier attempt of this request stored.
 */
export interface KeyPlan {
  readonly insert?: LatestDocument;
  readonly created?: StoredAspect;
  readonly defaultInserts?: readonly LatestDocument[];
  readonly defaultsCreated?: readonly StoredAspect[];
}

/** The step a write takes in this round, decided from the documents read at its start. */
export type WritePlan =
  /** `key`: a recovered CREATED write of the key aspect may still have entity defaults to store. */
  | { readonly kind: 'done'; readonly result: ApplyResult; readonly key?: KeyPlan }
  | { readonly kind: 'create'; readonly latest: LatestDocument; readonly key: KeyPlan }
  | {
      readonly kind: 'update';
      readonly previous: LatestDocument;
      /** Absent when this request already holds the claim (its own, or an orphan taken over). */
      readonly claim?: AspectDocument;
      readonly latest: LatestDocument;
      readonly key: KeyPlan;
    }
  | {
      readonly kind: 'unchanged';
      readonly previous: LatestDocument;
      readonly observed: SystemMetadata;
      readonly key: KeyPlan;
    }
  | {
      readonly kind: 'delete';
      readonly removed: readonly LatestDocument[];
      readonly result: ApplyResult;
    }
  | { readonly kind: 'retry' }
  /** Recovery of an update whose result needs the history row `version` as its previous value. */
  | { readonly kind: 'rebuild-update'; readonly latest: LatestDocument; readonly key: KeyPlan };

/** The ids planWrite needs read for `pending`, besides the entity scans of DELETE_ENTITY. */
export function idsToRead(pending: PendingWrite): string[] {
  const { write, contestedClaim } = pending;
  if (write.mode === 'DELETE_ENTITY') return [];
  const ids = [aspectId(write.urn, write.aspect, 0)];
  const key = write.keyAspect;
  if (write.mode !== 'DELETE' && key !== undefined && key.name !== write.aspect) {
    ids.push(aspectId(write.urn, key.name, 0));
  }
  if (write.mode !== 'DELETE' && key !== undefined) {
    for (const d of write.entityDefaults ?? []) ids.push(aspectId(write.urn, d.name, 0));
  }
  if (contestedClaim !== undefined) ids.push(aspectId(write.urn, write.aspect, contestedClaim));
  return ids;
}

/**
 * Decides one write. `docs` holds what idsToRead asked for; `entity` the versions 0 of the entity
 * (DELETE_ENTITY only).
 */
export function planWrite(
  ctx: WriteContext,
  pending: PendingWrite,
  docs: ReadonlyMap<string, AspectDocument>,
  entity: readonly LatestDocument[],
): WritePlan {
  const { write } = pending;
  const { requestId, urn, aspect } = write;
  if (write.mode === 'DELETE_ENTITY') return planDeleteEntity(write, entity);
  const found = docs.get(aspectId(urn, aspect, 0));
  const current = isLatestDocument(found) ? found : undefined;
  if (write.mode === 'DELETE') {
    if (current === undefined)
      return { kind: 'done', result: { requestId, status: 'NOT_FOUND', replayed: false } };
    const result: ApplyResult = {
      requestId,
      status: 'DELETED',
      previous: toStoredAspect(current),
      replayed: false,
    };
    return { kind: 'delete', removed: [current], result };
  }
  const key = planKey(write, docs, current);
  if (current !== undefined && current.requestId === requestId) {
    // This request set version 0 before and crashed before recording its result: rebuild the result.
    if (current.seq === 0) {
      const result: ApplyResult = {
        requestId,
        status: 'CREATED',
        current: toStoredAspect(current),
        replayed: true,
      };
      return { kind: 'done', result, key };
    }
    return { kind: 'rebuild-update', latest: current, key };
  }
  const stored =
    current === undefined || current.systemMetadata === null
      ? null
      : (JSON.parse(current.systemMetadata) as SystemMetadata);
  // `seq` counts the updates of version 0, so the aspect has had seq + 1 versions.
  const versions = () => (current === undefined ? 0 : current.seq + 1);
  const made = newValue(
    write,
    current === undefined ? undefined : (JSON.parse(current.metadata) as Record<string, unknown>),
    current === undefined
      ? { versions: 0, modifiedAt: undefined, version: undefined }
      : {
          versions: versions(),
          modifiedAt: toStoredAspect(current).created.time,
          version: storedVersionText(stored),
        },
  );
  if (!made.ok) {
    const result: ApplyResult = {
      requestId,
      status: 'INVALID',
      rejection: made.rejection,
      ...(current === undefined ? {} : { previous: toStoredAspect(current) }),
      replayed: false,
    };
    return { kind: 'done', result };
  }
  const value = made.value;
  const incoming = write.systemMetadata ?? null;
  if (current === undefined) {
    const systemMetadata = newVersionMetadata(incoming, undefined, write.created);
    return {
      kind: 'create',
      latest: latestDocument(urn, aspect, 0, requestId, value, systemMetadata, write.created),
      key,
    };
  }
  if (write.mode === 'CREATE') {
    return {
      kind: 'done',
      result: { requestId, status: 'CONFLICT', previous: toStoredAspect(current), replayed: false },
    };
  }
  const text = JSON.stringify(value);
  if (text === current.metadata || sameAspectValue(JSON.parse(current.metadata), value)) {
    return {
      kind: 'unchanged',
      previous: current,
      observed: observedAgain(stored, incoming, ctx.now, versions),
      key,
    };
  }
  const systemMetadata = newVersionMetadata(incoming, { systemMetadata: stored, versions }, write.created);
  const next = current.seq + 1;
  const fresh = latestDocument(urn, aspect, next, requestId, value, systemMetadata, write.created);
  // The retention's progress carries over to the new version 0.
  const latest = current.historyFrom === undefined ? fresh : { ...fresh, historyFrom: current.historyFrom };
  if (pending.contestedClaim === next) {
    const claim = docs.get(aspectId(urn, aspect, next));
    if (claim !== undefined) {
      if (claim.claimedBy === requestId) return { kind: 'update', previous: current, latest, key };
      const age = ctx.now - (claim.claimedAt ?? 0);
      if (age < ctx.orphanClaimMs) return { kind: 'retry' };
      ctx.logger?.warn(
        { urn, aspect, version: next, claimedBy: claim.claimedBy, ageMs: age, requestId },
        'taking over a history version claimed by a writer that never finished',
      );
      return { kind: 'update', previous: current, latest, key };
    }
  }
  return {
    kind: 'update',
    previous: current,
    claim: historyDocument(current, next, requestId, ctx.now),
    latest,
    key,
  };
}

function planDeleteEntity(write: AspectWrite, entity: readonly LatestDocument[]): WritePlan {
  const { requestId } = write;
  if (entity.length === 0)
    return { kind: 'done', result: { requestId, status: 'NOT_FOUND', replayed: false } };
  const removed = [...entity].sort((a, b) => (a.aspect < b.aspect ? -1 : a.aspect > b.aspect ? 1 : 0));
  const stored = removed.map(toStoredAspect);
  // `previous` is the aspect the delete was addressed to (normally the key aspect), for its change log.
  const previous = stored.find((s) => s.aspect === write.aspect);
  const result: ApplyResult = {
    requestId,
    status: 'DELETED',
    ...(previous === undefined ? {} : { previous }),
    removed: stored,
    replayed: false,
  };
  return { kind: 'delete', removed, result };
}

/**
 * The entity's key aspect is stored when it has none. A key document set by this very request means
 * an earlier attempt stored it and crashed before recording: it is reported as created again. A write
 * that creates the entity (stores its key, or is the key aspect and finds none) plans its defaults.
 */
function planKey(
  write: AspectWrite,
  docs: ReadonlyMap<string, AspectDocument>,
  current: LatestDocument | undefined,
): KeyPlan {
  const key = write.keyAspect;
  if (key === undefined) return {};
  if (key.name === write.aspect) {
    // The key aspect itself: this write creates the entity if there is none, or did so before a crash.
    const createsEntity =
      current === undefined || (current.requestId === write.requestId && current.seq === 0);
    return createsEntity ? planDefaults(write, docs) : {};
  }
  const existing = docs.get(aspectId(write.urn, key.name, 0));
  if (isLatestDocument(existing)) {
    return existing.requestId === write.requestId && existing.seq === 0
      ? { created: toStoredAspect(existing), ...planDefaults(write, docs) }
      : {};
  }
  return { insert: newLatest(write, key), ...planDefaults(write, docs) };
}

/**
 * The entity defaults of a write that creates the entity: each absent one is inserted; one this request
 * stored in an earlier attempt is reported as created; one stored by another write is left alone.
 */
function planDefaults(
  write: AspectWrite,
  docs: ReadonlyMap<string, AspectDocument>,
): Pick<KeyPlan, 'defaultInserts' | 'defaultsCreated'> {
  const defaultInserts: LatestDocument[] = [];
  const defaultsCreated: StoredAspect[] = [];
  for (const side of write.entityDefaults ?? []) {
    const { name } = side;
    if (name === write.aspect) continue;
    const existing = docs.get(aspectId(write.urn, name, 0));
    if (!isLatestDocument(existing)) defaultInserts.push(newLatest(write, side));
    else if (existing.requestId === write.requestId && existing.seq === 0)
      defaultsCreated.push(toStoredAspect(existing));
  }
  return {
    ...(defaultInserts.length === 0 ? {} : { defaultInserts }),
    ...(defaultsCreated.length === 0 ? {} : { defaultsCreated }),
  };
}

/** Version 0 of an aspect this write stores besides its own (the key aspect, an entity default). */
function newLatest(write: AspectWrite, side: SideAspect): LatestDocument {
  return latestDocument(
    write.urn,
    side.name,
    0,
    write.requestId,
    side.value,
    newVersionMetadata(sideMetadata(write, side), undefined, write.created),
    write.created,
  );
}

/** The result with what the write stored for a new entity: its key aspect and its defaults. */
export function withEntityCreated(
  result: ApplyResult,
  keyCreated: StoredAspect | undefined,
  defaultsCreated: readonly StoredAspect[] = [],
): ApplyResult {
  return {
    ...result,
    ...(keyCreated === undefined ? {} : { keyCreated }),
    ...(defaultsCreated.length === 0 ? {} : { defaultsCreated }),
  };
}
