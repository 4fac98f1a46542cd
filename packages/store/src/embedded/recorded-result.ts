import { hash } from 'node:crypto';
import type { ApplyResult, StoredAspect } from '../port.js';
import type { AspectRow } from './aspect-row.js';
import { keptSystemMetadata } from './kept-system-metadata.js';

/** applied_requests.format of a record holding the whole ApplyResult as JSON (all before schema 3). */
export const WHOLE_RESULT = 1;
/**
 * applied_requests.format of a record naming the rows of its result as JSON (schema 3 to 4; still
 * read, no longer written): the URN and aspect names as text.
 */
export const ROW_REFERENCES = 2;
/**
 * applied_requests.format of a record naming the rows of its result by the file's dictionary ids,
 * packed (see packed-record.ts): what RecordedResultWriter records since schema 5.
 */
export const PACKED_REFERENCES = 3;

/** A row as a result gives it: its value, audit stamp and system metadata, as stored (JSON texts). */
export type RowContent = Pick<
  AspectRow,
  'metadata' | 'system_metadata' | 'created_on' | 'created_by' | 'created_for' | 'created_message'
>;

/**
 * A short digest of a row's value and audit stamp, and of its system metadata too when it is read
 * back on replay. A record names a row by aspect, version number and this: after a delete the same
 * version number can hold another value, or the same value again with other system metadata, and the
 * digest tells them apart.
 */
export function rowHash(row: RowContent, withSystemMetadata: boolean): string {
  const stamp = JSON.stringify([row.created_on, row.created_by, row.created_for, row.created_message]);
  const system = withSystemMetadata ? `${row.system_metadata ?? 'null'}\n` : '';
  // 72 bits: it only has to tell apart the few rows a record's reference can land on.
  return hash('sha1', `${stamp}\n${system}${row.metadata}`, 'base64').slice(0, 12);
}

/** How a record names a row of a result, as the write that made the result knows it. */
export interface RowIdentity {
  /**
   * The version number to look at first: the history number a version 0 gets when a later write
   * moves it there (it is at version 0 until then), or the history row itself; 0 when the write does
   * not know it; REMOVED for a row the write removed (it is in removed_aspects).
   */
  readonly row: number;
  /** The row as the result gives it. */
  readonly content: RowContent;
  /**
   * True for a version 0 that stays: a later UNCHANGED write rewrites its system metadata in place
   * (lastObserved, run ids), so the record keeps it. False for history rows and removed rows, which
   * nothing rewrites: a replay reads it back, and the digest covers it.
   */
  readonly systemMetadataMayChange: boolean;
}

/** RowIdentity.row of a row the write removed. */
export const REMOVED = -1;

/**
 * A reference in a record: aspect name, RowIdentity.row, rowHash, and the index of the row's system
 * metadata in the record's list (absent when it is read back from the row).
 */
export type RowReference = readonly [aspect: string, row: number, hash: string, systemMetadata?: number];

/**
 * A record of format ROW_REFERENCES (JSON) or PACKED_REFERENCES (packed-record.ts), as read. Every
 * aspect of a result belongs to the write's URN and is version 0, so neither is repeated per aspect;
 * the system metadata kept (see keptSystemMetadata) is kept once per distinct text (a new entity's
 * key aspect, defaults and first aspect share one).
 */
export interface RowReferenceRecord {
  readonly status: ApplyResult['status'];
  readonly urn: string;
  readonly rejection?: ApplyResult['rejection'];
  readonly systemMetadata?: readonly unknown[];
  readonly previous?: RowReference;
  readonly current?: RowReference;
  readonly keyCreated?: RowReference;
  readonly defaultsCreated?: readonly RowReference[];
  readonly removed?: readonly RowReference[];
}

/**
 * A RowReferenceRecord as the writer makes it, before it is stored: without the URN (the store
 * names it by its id), with the system metadata kept as JSON texts.
 */
export interface References extends Omit<RowReferenceRecord, 'urn' | 'systemMetadata'> {
  readonly systemTexts: readonly string[];
}

/** What the writer records: the references to the result's rows, or the whole result as JSON. */
export type Recorded =
  | { readonly format: typeof WHOLE_RESULT; readonly text: string }
  | { readonly format: typeof PACKED_REFERENCES; readonly references: References };

/** The reference fields of a result, in the order records list them (and number system metadata). */
export const SINGLE_FIELDS = ['previous', 'current', 'keyCreated'] as const;
export const LIST_FIELDS = ['defaultsCreated', 'removed'] as const;

/**
 * The record of an ApplyResult for applied_requests. The result's aspects are already stored in
 * `aspects` (or, once removed, in removed_aspects), so the record names those rows instead of
 * copying their values: a replay reads them back (see replayRecorded). The write path tells the
 * writer which row each StoredAspect of a result is (knowRow); a result with an aspect it was not
 * told about, or a field this format does not know, is recorded whole, as before.
 */
export class RecordedResultWriter {
  private readonly rows = new WeakMap<StoredAspect, RowIdentity>();

  /** Remembers which row `stored` is; returns `stored` for chaining. */
  knowRow(stored: StoredAspect, identity: RowIdentity): StoredAspect {
    this.rows.set(stored, identity);
    return stored;
  }

  toRecord(result: ApplyResult, urn: string): Recorded {
    const references = this.referencesOf(result, urn);
    if (references !== undefined) return { format: PACKED_REFERENCES, references };
    return { format: WHOLE_RESULT, text: JSON.stringify(result) };
  }

  private referencesOf(result: ApplyResult, urn: string): References | undefined {
    const {
      requestId: _requestId,
      replayed: _replayed,
      status,
      rejection,
      previous,
      current,
      keyCreated,
      defaultsCreated,
      removed,
      ...unknown
    } = result;
    if (Object.keys(unknown).length > 0) return undefined;
    const systemTexts: string[] = [];
    const reference = (stored: StoredAspect): RowReference | undefined => {
      const identity = this.rows.get(stored);
      if (identity === undefined || stored.urn !== urn || stored.version !== 0) return undefined;
      const { row, content, systemMetadataMayChange } = identity;
      const digest = rowHash(content, !systemMetadataMayChange);
      if (!systemMetadataMayChange) return [stored.aspect, row, digest];
      const systemText = keptSystemMetadata(stored.systemMetadata, content);
      let index = systemTexts.indexOf(systemText);
      if (index < 0) index = systemTexts.push(systemText) - 1;
      return [stored.aspect, row, digest, index];
    };
    const out: { -readonly [K in keyof References]: References[K] } = { status, systemTexts };
    if (rejection !== undefined) out.rejection = rejection;
    const singles = { previous, current, keyCreated };
    for (const field of SINGLE_FIELDS) {
      const stored = singles[field];
      if (stored === undefined) continue;
      const one = reference(stored);
      if (one === undefined) return undefined;
      out[field] = one;
    }
    const lists = { defaultsCreated, removed };
    for (const field of LIST_FIELDS) {
      const list = lists[field];
      if (list === undefined) continue;
      const all: RowReference[] = [];
      for (const stored of list) {
        const one = reference(stored);
        if (one === undefined) return undefined;
        all.push(one);
      }
      out[field] = all;
    }
    return out;
  }
}

/** Whether a record names any row, and so needs its URN to be replayed. */
export function namesRows(references: References): boolean {
  return (
    SINGLE_FIELDS.some((f) => references[f] !== undefined) ||
    LIST_FIELDS.some((f) => references[f] !== undefined)
  );
}
