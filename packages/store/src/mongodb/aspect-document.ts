import type { AuditStamp, StoredAspect, SystemMetadata } from '../port.js';
import { DEFAULT_RUN_ID } from '../write-rules.js';

/**
 * One document of the `aspects` collection: one version of one aspect, shaped like the ecosystem's
 * metadata_aspect_v2 row. The value and the system metadata are kept as JSON text, not as BSON
 * documents: aspect maps (customProperties and the like) have keys with '.' and '$', which BSON
 * servers reject or treat as operators, and the text keeps the producer's key order and integers
 * beyond 2^53 exactly as they came.
 */
export interface AspectDocument {
  /** `${urn}|${aspect}|${version}`: unambiguous (aspect names have no '|', the version is last). */
  readonly _id: string;
  readonly urn: string;
  readonly aspect: string;
  readonly version: number;
  readonly metadata: string;
  readonly systemMetadata: string | null;
  readonly createdOn: number;
  readonly createdBy: string;
  readonly createdFor?: string;
  readonly createdMessage?: string;
  /**
   * systemMetadata.runId (DEFAULT_RUN_ID when it has none) and lastObserved (else createdOn), copied
   * out of the JSON text so the run index can hold them. Absent on documents written before they were
   * kept until system-update's backfill (MongoAspectStore.backfillRunFields) or a new write sets them.
   */
  readonly runId?: string;
  readonly lastObserved?: number;
  /** Version 0 only: the highest history version (0 before the first change). The write counter. */
  readonly seq?: number;
  /** Version 0 only: the request whose write set this value (an UNCHANGED write leaves it). */
  readonly requestId?: string;
  /**
   * Version 0 only: the lowest history version that may still exist (1 when absent). A retention
   * removes history from here up (see prune-history.ts), so a write never looks below it.
   */
  readonly historyFrom?: number;
  /** History only: the request that claimed this version number, and when (clock milliseconds). */
  readonly claimedBy?: string;
  readonly claimedAt?: number;
}

/** Version 0 as read from the collection: both counter fields are always set on it. */
export type LatestDocument = AspectDocument & { readonly seq: number; readonly requestId: string };

export function aspectId(urn: string, aspect: string, version: number): string {
  return `${urn}|${aspect}|${version}`;
}

export function isLatestDocument(doc: AspectDocument | undefined): doc is LatestDocument {
  return doc !== undefined && doc.version === 0 && typeof doc.seq === 'number';
}

export function toStoredAspect(doc: AspectDocument): StoredAspect {
  return {
    urn: doc.urn,
    aspect: doc.aspect,
    version: doc.version,
    value: JSON.parse(doc.metadata) as Record<string, unknown>,
    systemMetadata: doc.systemMetadata === null ? null : (JSON.parse(doc.systemMetadata) as SystemMetadata),
    created: {
      time: doc.createdOn,
      actor: doc.createdBy,
      // Optional members are left out rather than set to undefined, so a stamp round-trips deep-equal.
      ...(doc.createdFor === undefined || doc.createdFor === null ? {} : { impersonator: doc.createdFor }),
      ...(doc.createdMessage === undefined || doc.createdMessage === null
        ? {}
        : { message: doc.createdMessage }),
    },
  };
}

/** The audit and value columns of a document for a value written now. */
export function contentFields(
  value: Readonly<Record<string, unknown>>,
  systemMetadata: SystemMetadata | null,
  created: AuditStamp,
): Pick<
  AspectDocument,
  | 'metadata'
  | 'systemMetadata'
  | 'createdOn'
  | 'createdBy'
  | 'createdFor'
  | 'createdMessage'
  | 'runId'
  | 'lastObserved'
> {
  return {
    metadata: JSON.stringify(value),
    systemMetadata: systemMetadata === null ? null : JSON.stringify(systemMetadata),
    ...runFields(systemMetadata, created.time),
    createdOn: created.time,
    createdBy: created.actor,
    ...(created.impersonator === undefined ? {} : { createdFor: created.impersonator }),
    ...(created.message === undefined ? {} : { createdMessage: created.message }),
  };
}

/** Version 0 of a value written by `requestId`, with the write counter at `seq`. */
export function latestDocument(
  urn: string,
  aspect: string,
  seq: number,
  requestId: string,
  value: Readonly<Record<string, unknown>>,
  systemMetadata: SystemMetadata | null,
  created: AuditStamp,
): LatestDocument {
  return {
    _id: aspectId(urn, aspect, 0),
    urn,
    aspect,
    version: 0,
    ...contentFields(value, systemMetadata, created),
    seq,
    requestId,
  };
}

/** The history row that keeps `latest`'s content under version `version`, claimed by `requestId`. */
export function historyDocument(
  latest: LatestDocument,
  version: number,
  requestId: string,
  now: number,
): AspectDocument {
  const { _id: _ignored, seq: _seq, requestId: _by, historyFrom: _from, ...content } = latest;
  return {
    ...content,
    _id: aspectId(latest.urn, latest.aspect, version),
    version,
    claimedBy: requestId,
    claimedAt: now,
  };
}

/** The run index fields of a document whose system metadata is `systemMetadata` (see AspectDocument). */
export function runFields(
  systemMetadata: SystemMetadata | null,
  createdOn: number,
): { readonly runId: string; readonly lastObserved: number } {
  const runId = systemMetadata?.runId;
  const lastObserved = systemMetadata?.lastObserved;
  return {
    runId: typeof runId === 'string' ? runId : DEFAULT_RUN_ID,
    lastObserved: typeof lastObserved === 'number' ? lastObserved : createdOn,
  };
}
