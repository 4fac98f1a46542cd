import { hash } from 'node:crypto';
import type { ApplyResult, StoredAspect } from '../port.js';
import type { AspectRow } from './aspect-row.js';
import { keptSystemMetadata } from './kept-system-metadata.js';

/** applied_requests.format of a record holding the whole ApplyResult as JSON (all before schema 3). */
export const WHOLE_RESULT = 1;
/** applied_requests.format of a record naming the rows of its result (see RecordedResultWriter). */
export const ROW_REFERENCES = 2;

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
 * A record of format ROW_REFERENCES. Every aspect of a result belongs to the write's URN and is
 * version 0, so neither is repeated per aspect; the system metadata kept (see keptSystemMetadata) is
 * kept once per distinct text (a new entity's key aspect, defaults and first aspect share one).
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

  toRecord(result: ApplyResult, urn: string): { readonly text: string; readonly format: number } {
    const text = this.referencesOf(result, urn);
    if (text !== undefined) return { text, format: ROW_REFERENCES };
    return { text: JSON.stringify(result), format: WHOLE_RESULT };
  }

  private referencesOf(result: ApplyResult, urn: string): string | undefined {
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
    const reference = (stored: StoredAspect): string | undefined => {
      const identity = this.rows.get(stored);
      if (identity === undefined || stored.urn !== urn || stored.version !== 0) return undefined;
      const { row, content, systemMetadataMayChange } = identity;
      const digest = rowHash(content, !systemMetadataMayChange);
      if (!systemMetadataMayChange) return JSON.stringify([stored.aspect, row, digest]);
      const systemText = keptSystemMetadata(stored.systemMetadata, content);
      let index = systemTexts.indexOf(systemText);
      if (index < 0) index = systemTexts.push(systemText) - 1;
      return JSON.stringify([stored.aspect, row, digest, index]);
    };
    const references = (list: readonly StoredAspect[]): string | undefined => {
      const out: string[] = [];
      for (const stored of list) {
        const one = reference(stored);
        if (one === undefined) return undefined;
        out.push(one);
      }
      return `[${out.join(',')}]`;
    };
    const fields: [string, string | undefined][] = [];
    if (previous !== undefined) fields.push(['previous', reference(previous)]);
    if (current !== undefined) fields.push(['current', reference(current)]);
    if (keyCreated !== undefined) fields.push(['keyCreated', reference(keyCreated)]);
    if (defaultsCreated !== undefined) fields.push(['defaultsCreated', references(defaultsCreated)]);
    if (removed !== undefined) fields.push(['removed', references(removed)]);
    let text = `{"status":${JSON.stringify(status)},"urn":${JSON.stringify(urn)}`;
    if (rejection !== undefined) text += `,"rejection":${JSON.stringify(rejection)}`;
    if (systemTexts.length > 0) text += `,"systemMetadata":[${systemTexts.join(',')}]`;
    for (const [name, value] of fields) {
      if (value === undefined) return undefined;
      text += `,"${name}":${value}`;
    }
    return `${text}}`;
  }
}
