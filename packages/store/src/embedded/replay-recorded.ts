import type { ApplyResult, StoredAspect } from '../port.js';
import { decodeRow, toStoredAspect, type AspectRow, type EncodedAspectRow } from './aspect-row.js';
import { restoredSystemMetadata } from './kept-system-metadata.js';
import { unpackRecord } from './packed-record.js';
import {
  PACKED_REFERENCES,
  REMOVED,
  ROW_REFERENCES,
  rowHash,
  type RowReference,
  type RowReferenceRecord,
} from './recorded-result.js';
import type { SqliteStatements } from './sqlite-statements.js';
import { decodeJson, type StoredJson } from './stored-json.js';

type RowReads = Pick<
  SqliteStatements,
  'getVersion' | 'listVersions' | 'removedVersions' | 'aspectNames' | 'urnText'
>;

/**
 * The recorded result of `requestId`, replayed: as the first delivery answered it, whatever was
 * written since. A record of format WHOLE_RESULT is that answer; one of ROW_REFERENCES or
 * PACKED_REFERENCES is rebuilt from the rows it names, wherever later writes have moved them: still
 * version 0, copied into history by a new value, or into removed_aspects by a delete (kept there
 * while a record may name them).
 *
 * Undefined when a named row is nowhere to be found, which the store's own writes and pruning never
 * cause (only a file edited behind its back, or a clock that stepped back across a prune): the caller
 * then counts the request id as forgotten and applies the write anew, as after the dedup window.
 */
export function replayRecorded(
  stmts: RowReads,
  requestId: string,
  recorded: { readonly result: StoredJson; readonly format: number },
): ApplyResult | undefined {
  let record: RowReferenceRecord | undefined;
  if (recorded.format === PACKED_REFERENCES) {
    if (typeof recorded.result === 'string') throw new Error('a packed request record is not a BLOB');
    record = unpackRecord(recorded.result, {
      urn: (id) => stmts.urnText.get(id, id)?.urn,
      aspect: (id) => stmts.aspectNames.text(id),
    });
    if (record === undefined) return undefined;
  } else if (recorded.format === ROW_REFERENCES) {
    record = JSON.parse(decodeJson(recorded.result)) as RowReferenceRecord;
  } else {
    return { ...(JSON.parse(decodeJson(recorded.result)) as ApplyResult), replayed: true };
  }
  return rebuilt(stmts, requestId, record);
}

/** The result a record of row references names, read back from the rows. */
function rebuilt(stmts: RowReads, requestId: string, record: RowReferenceRecord): ApplyResult | undefined {
  const systemMetadata = record.systemMetadata ?? [];
  const used = new Set<number>();
  const rebuild = (reference: RowReference): StoredAspect | undefined => {
    const [aspect, row, digest, index] = reference;
    const found = findRow(stmts, record.urn, aspect, row, digest, index === undefined);
    if (found === undefined) return undefined;
    const stored = { ...toStoredAspect(found), version: 0 };
    if (index === undefined) return stored;
    // Aspects sharing one kept text get copies, so no two StoredAspects of a result share an object.
    const kept = used.has(index) ? structuredClone(systemMetadata[index]) : systemMetadata[index];
    used.add(index);
    const restored = restoredSystemMetadata(kept, found);
    return restored === undefined ? undefined : { ...stored, systemMetadata: restored };
  };
  const rebuildAll = (references: readonly RowReference[]): StoredAspect[] | undefined => {
    const out: StoredAspect[] = [];
    for (const reference of references) {
      const stored = rebuild(reference);
      if (stored === undefined) return undefined;
      out.push(stored);
    }
    return out;
  };
  const previous = record.previous && rebuild(record.previous);
  const current = record.current && rebuild(record.current);
  const keyCreated = record.keyCreated && rebuild(record.keyCreated);
  const defaultsCreated = record.defaultsCreated && rebuildAll(record.defaultsCreated);
  const removed = record.removed && rebuildAll(record.removed);
  if (
    (record.previous && !previous) ||
    (record.current && !current) ||
    (record.keyCreated && !keyCreated) ||
    (record.defaultsCreated && !defaultsCreated) ||
    (record.removed && !removed)
  ) {
    return undefined;
  }
  return {
    requestId,
    status: record.status,
    ...(record.rejection === undefined ? {} : { rejection: record.rejection }),
    ...(previous === undefined ? {} : { previous }),
    ...(current === undefined ? {} : { current }),
    ...(keyCreated === undefined ? {} : { keyCreated }),
    ...(defaultsCreated === undefined ? {} : { defaultsCreated }),
    ...(removed === undefined ? {} : { removed }),
    replayed: true,
  };
}

/**
 * The row a reference names: the version it points at first, then version 0 (where a row stays
 * until a new value moves it to history), then every other version, newest first (a reference
 * that did not know the history number), then what deletes removed, newest first. A removed row is
 * looked for among those only: a later write may have stored the same content again.
 */
function findRow(
  stmts: RowReads,
  urn: string,
  aspect: string,
  row: number,
  digest: string,
  withSystemMetadata: boolean,
): AspectRow | undefined {
  // The digest is of the JSON text, so a row is compared as text however the file stores it.
  const matching = (stored: EncodedAspectRow | undefined): AspectRow | undefined => {
    if (stored === undefined) return undefined;
    const candidate = decodeRow(stored);
    return rowHash(candidate, withSystemMetadata) === digest ? candidate : undefined;
  };
  if (row !== REMOVED) {
    const pointed = row > 0 ? matching(stmts.getVersion.get(urn, aspect, row)) : undefined;
    if (pointed !== undefined) return pointed;
    const latest = matching(stmts.getVersion.get(urn, aspect, 0));
    if (latest !== undefined) return latest;
    for (const stored of stmts.listVersions.iterate(urn, aspect)) {
      if (stored.version === 0 || stored.version === row) continue;
      const candidate = matching(stored);
      if (candidate !== undefined) return candidate;
    }
  }
  for (const stored of stmts.removedVersions.iterate(urn, aspect)) {
    const candidate = matching(stored);
    if (candidate !== undefined) return candidate;
  }
  return undefined;
}
