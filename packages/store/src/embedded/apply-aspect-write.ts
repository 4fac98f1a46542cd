import { sameAspectValue } from '../canonical-json.js';
import type { ApplyResult, AspectWrite, AuditStamp, StoredAspect, SystemMetadata } from '../port.js';
import { decodeRow, storedAspectOf, toStoredAspect, type AspectRow } from './aspect-row.js';
import { encodeJson, encodeNullableJson } from './stored-json.js';
import { packRecord } from './packed-record.js';
import { namesRows, RecordedResultWriter, REMOVED, WHOLE_RESULT } from './recorded-result.js';
import { replayRecorded } from './replay-recorded.js';
import { requestKey } from './request-key.js';
import type { SqliteStatements } from './sqlite-statements.js';
import { historyToPrune } from '../retention-rules.js';
import {
  newValue,
  newVersionMetadata,
  observedAgain,
  sideMetadata,
  storedVersionText,
} from '../write-rules.js';

const recorder = new RecordedResultWriter();

/**
 * Applies one write inside the caller's transaction and records its result under the request id.
 * A request id already recorded (by an earlier batch, or earlier in this batch: the record is in the
 * same transaction) returns that result, replayed, and changes nothing.
 */
export function applyAspectWrite(stmts: SqliteStatements, write: AspectWrite, now: number): ApplyResult {
  const key = requestKey(write.requestId);
  const recorded = stmts.findRequest.get(key);
  if (recorded !== undefined) {
    const replay = replayRecorded(stmts, write.requestId, recorded);
    if (replay !== undefined) return replay;
    // The rows the record names are gone (see replayRecorded): the id counts as forgotten.
    stmts.forgetRequest.run(key);
  }
  // A delete may remove the entity's URN row (it is then in removed_urns under that id): its id is
  // read first. The rows an upsert's result names exist once it is applied.
  const deleting = write.mode === 'DELETE' || write.mode === 'DELETE_ENTITY';
  const urnIdBefore = deleting ? stmts.urnId.get(write.urn)?.id : undefined;
  const result = applyChange(stmts, write, now);
  const record = recorder.toRecord(result, write.urn);
  if (record.format === WHOLE_RESULT) {
    // Encoded like the rows: a result recorded whole holds values and system metadata as JSON.
    stmts.recordRequest.run(key, encodeJson(record.text), record.format, now);
    return result;
  }
  const { references } = record;
  const urnId = namesRows(references) ? (urnIdBefore ?? stmts.urnId.get(write.urn)?.id) : 0;
  // Only a store bug leaves a named row without its URN's id.
  if (urnId === undefined) throw new Error(`the aspect store has no id for ${write.urn}`);
  const packed = packRecord(references, { urnId, aspectId: (name) => stmts.aspectNames.ensure(name) });
  stmts.recordRequest.run(key, packed, record.format, now);
  return result;
}

function applyChange(stmts: SqliteStatements, write: AspectWrite, now: number): ApplyResult {
  switch (write.mode) {
    case 'UPSERT':
    case 'CREATE':
      return upsert(stmts, write, now);
    case 'DELETE':
      return deleteAspect(stmts, write, now);
    case 'DELETE_ENTITY':
      return deleteEntity(stmts, write, now);
  }
}

/**
 * Version 0 as read, for a result. The record names it with its system metadata as read (a later
 * UNCHANGED write rewrites it in place); 0 for the history number, which this write has no need to read.
 */
function readLatest(row: AspectRow): StoredAspect {
  return recorder.knowRow(toStoredAspect(row), { row: 0, content: row, systemMetadataMayChange: true });
}

/** Version 0 of the aspect, its JSON as text. */
function readRow(stmts: SqliteStatements, urn: string, aspect: string): AspectRow | undefined {
  const row = stmts.getVersion.get(urn, aspect, 0);
  return row === undefined ? undefined : decodeRow(row);
}

function upsert(stmts: SqliteStatements, write: AspectWrite, now: number): ApplyResult {
  const { requestId, urn, aspect } = write;
  const latestRow = readRow(stmts, urn, aspect);
  const previous = latestRow === undefined ? undefined : readLatest(latestRow);
  if (previous !== undefined && write.mode === 'CREATE') {
    return { requestId, status: 'CONFLICT', previous, replayed: false };
  }
  // Versions: the latest plus the history rows below it (history numbers run 1..max), read when needed.
  // A retention may have removed the newest history rows: version 0's own number (its system
  // metadata's version, the k-th value) keeps the numbering from going back.
  let historyMax: number | undefined;
  const versions = () =>
    (historyMax ??= Math.max(
      stmts.maxVersion.get(urn, aspect)?.max ?? 0,
      ordinalOf(previous?.systemMetadata) - 1,
    )) + 1;
  const made = newValue(write, previous?.value, {
    versions: write.patch === undefined || previous === undefined ? 0 : versions(),
    modifiedAt: previous?.created.time,
    version: storedVersionText(previous?.systemMetadata),
  });
  if (!made.ok) {
    return {
      requestId,
      status: 'INVALID',
      rejection: made.rejection,
      ...(previous ? { previous } : {}),
      replayed: false,
    };
  }
  const value = made.value;
  const text = JSON.stringify(value);
  const incoming = write.systemMetadata ?? null;
  let result: ApplyResult;
  if (latestRow === undefined || previous === undefined) {
    const systemMetadata = newVersionMetadata(incoming, undefined, write.created);
    const current = writeLatest(stmts, undefined, urn, aspect, value, text, systemMetadata, write.created);
    result = { requestId, status: 'CREATED', current, replayed: false };
  } else if (text === latestRow.metadata || sameAspectValue(previous.value, value)) {
    const observed = observedAgain(previous.systemMetadata, incoming, now, versions);
    const observedText = JSON.stringify(observed);
    stmts.ensureRun.run(observedText);
    stmts.updateSystemMetadata.run({
      systemMetadata: encodeJson(observedText),
      systemText: observedText,
      urn,
      aspect,
    });
    const current = { ...previous, systemMetadata: observed };
    recorder.knowRow(current, {
      row: 0,
      content: { ...latestRow, system_metadata: observedText },
      systemMetadataMayChange: true,
    });
    result = { requestId, status: 'UNCHANGED', previous, current, replayed: false };
  } else {
    const systemMetadata = newVersionMetadata(
      incoming,
      { systemMetadata: previous.systemMetadata, versions },
      write.created,
    );
    // The old latest keeps its content, system metadata and audit stamp under the next history number.
    const historyNumber = versions();
    stmts.copyLatestToHistory.run(historyNumber, urn, aspect);
    // Named in the record as that history row, whose system metadata nothing rewrites.
    recorder.knowRow(previous, { row: historyNumber, content: latestRow, systemMetadataMayChange: false });
    const current = writeLatest(
      stmts,
      historyNumber,
      urn,
      aspect,
      value,
      text,
      systemMetadata,
      write.created,
    );
    result = { requestId, status: 'UPDATED', previous, current, replayed: false };
    pruneHistory(stmts, write, historyNumber, now);
  }
  const keyCreated = ensureKeyAspect(stmts, write);
  const createdEntity =
    keyCreated !== undefined || (write.keyAspect?.name === aspect && result.status === 'CREATED');
  const defaultsCreated = createdEntity ? storeEntityDefaults(stmts, write) : [];
  return {
    ...result,
    ...(keyCreated === undefined ? {} : { keyCreated }),
    ...(defaultsCreated.length === 0 ? {} : { defaultsCreated }),
  };
}

/**
 * Removes the history rows the write's retention rules out, now that `highest` is the newest. They
 * are kept in removed_aspects, as a delete keeps what it removes, while a request record may name
 * them (this write's own record names the row it just made, which a maxVersions of 1 removes).
 */
function pruneHistory(stmts: SqliteStatements, write: AspectWrite, highest: number, now: number): void {
  const prune = historyToPrune(write.retention, highest, now);
  if (prune === undefined) return;
  const { urn, aspect } = write;
  if (stmts.keepPrunedHistory.run(now, urn, aspect, prune.upTo, prune.writtenBefore).changes > 0) {
    stmts.pruneHistory.run(urn, aspect, prune.upTo, prune.writtenBefore);
  }
}

/** The ordinal of a stored value (its system metadata's version), 0 when it has none. */
function ordinalOf(systemMetadata: SystemMetadata | null | undefined): number {
  const text = storedVersionText(systemMetadata);
  return text !== undefined && /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : 0;
}

/** Stores the entity defaults a new entity does not have yet (see AspectWrite.entityDefaults). */
function storeEntityDefaults(stmts: SqliteStatements, write: AspectWrite): StoredAspect[] {
  const created: StoredAspect[] = [];
  for (const side of write.entityDefaults ?? []) {
    const { name, value } = side;
    if (name === write.aspect || stmts.hasLatest.get(write.urn, name) !== undefined) continue;
    const metadata = newVersionMetadata(sideMetadata(write, side), undefined, write.created);
    created.push(
      writeLatest(stmts, undefined, write.urn, name, value, JSON.stringify(value), metadata, write.created),
    );
  }
  return created;
}

/**
 * Stores the entity's key aspect when it has none. A write of the key aspect itself has already
 * stored it, so it is not stored (or reported) twice.
 */
function ensureKeyAspect(stmts: SqliteStatements, write: AspectWrite): StoredAspect | undefined {
  const key = write.keyAspect;
  if (key === undefined || key.name === write.aspect) return undefined;
  if (stmts.hasLatest.get(write.urn, key.name) !== undefined) return undefined;
  const text = JSON.stringify(key.value);
  return writeLatest(
    stmts,
    undefined,
    write.urn,
    key.name,
    key.value,
    text,
    newVersionMetadata(sideMetadata(write, key), undefined, write.created),
    write.created,
  );
}

/**
 * A version 0 this write removes, for a result: the record names it in removed_aspects, where the
 * delete keeps every version it removes while a request record may name them.
 */
function removedLatest(row: AspectRow): StoredAspect {
  return recorder.knowRow(toStoredAspect(row), {
    row: REMOVED,
    content: row,
    systemMetadataMayChange: false,
  });
}

function deleteAspect(stmts: SqliteStatements, write: AspectWrite, now: number): ApplyResult {
  const { requestId, urn, aspect } = write;
  const latestRow = readRow(stmts, urn, aspect);
  // History rows go too, even in the (never expected) case of history without a version 0.
  if (stmts.keepRemovedAspect.run(now, urn, aspect).changes > 0) {
    stmts.deleteAspect.run(urn, aspect);
    // The entity's last aspect takes its URN's dictionary row with it, kept in removed_urns for the
    // request records that name its id.
    stmts.keepRemovedUrn.run(now, urn);
    stmts.forgetUrn.run(urn);
  }
  if (latestRow === undefined) return { requestId, status: 'NOT_FOUND', replayed: false };
  return { requestId, status: 'DELETED', previous: removedLatest(latestRow), replayed: false };
}

function deleteEntity(stmts: SqliteStatements, write: AspectWrite, now: number): ApplyResult {
  const { requestId, urn } = write;
  const removed = stmts.latestOfEntity.all(urn).map((row) => removedLatest(decodeRow(row)));
  if (stmts.keepRemovedEntity.run(now, urn).changes > 0) {
    stmts.deleteEntity.run(urn);
    stmts.keepRemovedUrn.run(now, urn);
    stmts.forgetUrn.run(urn);
  }
  if (removed.length === 0) return { requestId, status: 'NOT_FOUND', replayed: false };
  // `previous` is the aspect the delete was addressed to (normally the key aspect), for its change log.
  const previous = removed.find((stored) => stored.aspect === write.aspect);
  return {
    requestId,
    status: 'DELETED',
    ...(previous === undefined ? {} : { previous }),
    removed,
    replayed: false,
  };
}

/**
 * Writes version 0 and returns it as stored: a new row when `replacing` is undefined, else over the
 * current one, which the caller has just copied to history row `replacing`. The record names the row
 * by the history number it gets once a new value replaces it in turn: 1, or `replacing` + 1.
 */
function writeLatest(
  stmts: SqliteStatements,
  replacing: number | undefined,
  urn: string,
  aspect: string,
  value: Readonly<Record<string, unknown>>,
  text: string,
  systemMetadata: SystemMetadata | null,
  created: AuditStamp,
): StoredAspect {
  const systemText = systemMetadata === null ? null : JSON.stringify(systemMetadata);
  const impersonator = created.impersonator ?? null;
  const message = created.message ?? null;
  // The dictionary rows the row's ids name (a replaced row already has its URN).
  if (replacing === undefined) stmts.ensureUrn.run({ urn });
  stmts.ensureRun.run(systemText);
  const values = {
    urn,
    aspectId: stmts.aspectNames.ensure(aspect),
    actorId: stmts.actors.ensure(created.actor),
    metadata: encodeJson(text),
    systemMetadata: encodeNullableJson(systemText),
    systemText,
    createdOn: created.time,
    createdBy: created.actor,
    createdFor: impersonator,
    createdMessage: message,
  };
  if (replacing === undefined) stmts.insertLatest.run(values);
  else stmts.replaceLatest.run(values);
  const content = {
    metadata: text,
    system_metadata: systemText,
    created_on: created.time,
    created_by: created.actor,
    created_for: impersonator,
    created_message: message,
  };
  return recorder.knowRow(storedAspectOf(urn, aspect, 0, value, systemMetadata, created), {
    row: replacing === undefined ? 1 : replacing + 1,
    content,
    systemMetadataMayChange: true,
  });
}
