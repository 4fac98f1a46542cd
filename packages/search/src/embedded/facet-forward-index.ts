import type Database from 'better-sqlite3';
import type { EntityDocument, EntityIndexSpec } from '../port.js';
import { valRowsOf } from './derived-rows.js';
import { DocChangeFeed } from './doc-change-feed.js';
import { indexedEntity, type IndexedEntity } from './indexed-entity.js';
import { grown } from './grown-array.js';
import { FIELD_ID_SQL } from './keyed-values-schema.js';
import { decodeDocument } from './stored-document.js';
import { UrnOrder } from './urn-order.js';

/** Per document: 0 absent (or another entity type), 1 live, 2 soft-deleted. */
const ABSENT = 0;
const LIVE = 1;
const REMOVED = 2;

/**
 * One facet field of one entity type: each document's values as ids into `values`. Typed arrays only,
 * so a million documents cost a few bytes each instead of an object per multi-valued document.
 */
interface FieldForward {
  readonly values: string[];
  readonly valueIds: Map<string, number>;
  /** Per value id: how many documents (live or removed) have it, to tell common values from rare. */
  counts: Int32Array;
  /**
   * Per document: its value id + 1 when it has one value, 0 when none, and when several -(at + 1),
   * where `pool[at]` is how many and their ids follow it.
   */
  first: Int32Array;
  /** The runs of multi-valued documents, appended; a changed document's old run is left as garbage. */
  pool: Int32Array;
  /** Where the next run goes. */
  poolEnd: number;
  /** Slots of `pool` no document refers to any more; compacted away once they are half of it. */
  garbage: number;
}

interface TypeForward {
  status: Uint8Array;
  readonly fields: Map<string, FieldForward>;
  /** The live documents' urn order, built when a filtered page first needs it. */
  order?: UrnOrder;
}

/**
 * Facet counting (and exact-value filtering) in memory: for each entity type and faceted or filtered
 * field, the values of every document (a forward index), so counting or filtering a match set of any
 * size is one pass over its ids instead of an index probe per (hit, field). Per type it also keeps
 * which documents are live and, once a filtered page asks, their urn order (UrnOrder). Built lazily
 * from `vals` and kept current by replaying `doc_changes`, the ids the writers record with each
 * document change (a changed document's values are derived from its stored fields, as the writer
 * derived its `vals` rows, which keeps this off `vals_by_doc`, there for sort keys only); call `sync` inside the read
 * transaction of the search so the counts and the match set come from one snapshot.
 */
export class FacetForwardIndex {
  private readonly types = new Map<string, TypeForward>();
  private readonly feed: DocChangeFeed;
  private readonly docRow: Database.Statement<
    [number],
    { entity_type: string; removed: number; doc: string | Uint8Array }
  >;
  private readonly specRow: Database.Statement<[string], string>;
  /** The specs of the entity types read since the last sync that replayed changes, by type. */
  private readonly specs = new Map<string, { json: string; entity: IndexedEntity }>();
  private specsChecked = new Set<string>();
  private readonly typeDocs: Database.Statement<[string], { id: number; removed: number }>;
  private readonly fieldVals: Database.Statement<[string, string], { doc: number; value: string }>;
  private readonly urnOrderIds: Database.Statement<[string], number>;

  constructor(db: Database.Database) {
    this.feed = new DocChangeFeed(db);
    this.docRow = db.prepare('SELECT entity_type, removed, doc FROM docs WHERE id = ?');
    this.specRow = db.prepare<[string], string>('SELECT spec FROM index_specs WHERE entity_type = ?').pluck();
    this.typeDocs = db.prepare('SELECT id, removed FROM docs WHERE entity_type = ?');
    // Value by value (the field's dictionary in key order), each with its documents from the `vals` key.
    this.fieldVals = db.prepare(
      `SELECT v.doc AS doc, x.value AS value FROM val_values x CROSS JOIN vals v
       ON v.field = x.field AND v.value = x.id WHERE x.field = ${FIELD_ID_SQL}`,
    );
    // docs_type_removed_urn gives them in urn order, no sort.
    this.urnOrderIds = db
      .prepare<[string], number>('SELECT id FROM docs WHERE entity_type = ? AND removed = 0 ORDER BY urn')
      .pluck();
  }

  /** Catches up with the documents changed since the last call (in the caller's read snapshot). */
  sync(): void {
    // A spec may have changed since (ensureIndex records every document of the type as changed).
    this.specsChecked = new Set();
    this.feed.catchUp(
      this.types.size > 0,
      (id) => this.refresh(id),
      () => this.types.clear(),
    );
  }

  /**
   * Value → count of the field over `ids` (the match set), or over every document of the type when
   * `ids` is undefined (live ones only unless `includeRemoved`).
   */
  count(
    entityType: string,
    field: string,
    ids: ArrayLike<number> | undefined,
    includeRemoved: boolean,
  ): Map<string, number> {
    const type = this.type(entityType);
    const forward = this.field(entityType, type, field);
    const counts = new Int32Array(forward.values.length);
    if (counts.length > 0) {
      const { first, pool } = forward;
      const { status } = type;
      const all = ids === undefined;
      const end = all ? Math.min(status.length, first.length) : ids.length;
      for (let at = 0; at < end; at++) {
        const id = all ? at : ids[at]!;
        if (all) {
          const s = status[id];
          if (s !== LIVE && !(includeRemoved && s === REMOVED)) continue;
        }
        const head = first[id] ?? 0;
        if (head > 0) counts[head - 1]! += 1;
        else if (head < 0) {
          const at = -head - 1;
          const end = at + pool[at]!;
          for (let k = at + 1; k <= end; k++) counts[pool[k]!]! += 1;
        }
      }
    }
    const out = new Map<string, number>();
    counts.forEach((n, v) => {
      if (n > 0) out.set(forward.values[v]!, n);
    });
    return out;
  }

  /** Whether a document has any of `values` in the field (any value at all when `values` is undefined). */
  matcher(entityType: string, field: string, values: readonly string[] | undefined): (id: number) => boolean {
    const forward = this.field(entityType, this.type(entityType), field);
    if (values === undefined) return (id) => (forward.first[id] ?? 0) !== 0;
    const wanted = new Set<number>();
    for (const value of values) {
      const valueId = forward.valueIds.get(value);
      if (valueId !== undefined) wanted.add(valueId);
    }
    if (wanted.size === 0) return () => false;
    // The arrays are read at each call: a sync between calls may have grown or compacted them.
    if (wanted.size === 1) {
      // One value (the common filter) compares ids instead of probing a set: a pass over every document
      // of a million calls this a million times.
      const only = wanted.values().next().value!;
      return (id) => {
        const head = forward.first[id] ?? 0;
        if (head > 0) return head - 1 === only;
        if (head === 0) return false;
        const { pool } = forward;
        const at = -head - 1;
        const end = at + pool[at]!;
        for (let k = at + 1; k <= end; k++) if (pool[k] === only) return true;
        return false;
      };
    }
    return (id) => {
      const head = forward.first[id] ?? 0;
      if (head > 0) return wanted.has(head - 1);
      if (head === 0) return false;
      const { pool } = forward;
      const at = -head - 1;
      const end = at + pool[at]!;
      for (let k = at + 1; k <= end; k++) if (wanted.has(pool[k]!)) return true;
      return false;
    };
  }

  /**
   * Reads the entity type's documents, the fields' values and its urn order now (see SearchWarmer),
   * not at first use; the urn order again once many documents changed since.
   */
  warm(entityType: string, fields: Iterable<string>): void {
    const type = this.type(entityType);
    for (const field of fields) this.field(entityType, type, field);
    this.urnOrder(entityType);
  }

  /** Whether the entity type's urn order is built and not stale. */
  ordered(entityType: string): boolean {
    const order = this.types.get(entityType)?.order;
    return order !== undefined && !order.stale;
  }

  /** Whether the entity type's documents are in memory. */
  holds(entityType: string): boolean {
    return this.types.has(entityType);
  }

  /** Whether the field's values are in memory (a facet or filter brought them in). */
  inMemory(entityType: string, field: string): boolean {
    return this.types.get(entityType)?.fields.has(field) === true;
  }

  /**
   * How many documents (live or removed) have any of `values` in the field, at most: a document with
   * several of them counts once per value. Undefined when the field is not in memory yet.
   */
  valueCount(entityType: string, field: string, values: readonly string[]): number | undefined {
    const forward = this.types.get(entityType)?.fields.get(field);
    if (forward === undefined) return undefined;
    let n = 0;
    for (const value of new Set(values)) {
      const valueId = forward.valueIds.get(value);
      if (valueId !== undefined) n += forward.counts[valueId] ?? 0;
    }
    return n;
  }

  /** Whether a document is of the type and live (or removed, when `includeRemoved`). */
  present(entityType: string, includeRemoved: boolean): (id: number) => boolean {
    const type = this.type(entityType);
    return (id) => {
      const s = type.status[id] ?? ABSENT;
      return s === LIVE || (includeRemoved && s === REMOVED);
    };
  }

  /** How many ids `select` passes over: the largest document id of the type, rounded up. */
  idSpace(entityType: string): number {
    return this.type(entityType).status.length;
  }

  /** The ids, ascending, of the type's documents that are present (see `present`) and pass `test`. */
  select(entityType: string, includeRemoved: boolean, test: (id: number) => boolean): Int32Array {
    const { status } = this.type(entityType);
    const out: number[] = [];
    for (let id = 0; id < status.length; id++) {
      const s = status[id];
      if ((s === LIVE || (includeRemoved && s === REMOVED)) && test(id)) out.push(id);
    }
    return Int32Array.from(out);
  }

  /** The type's urn order, built (again) when missing or when many documents changed since. */
  urnOrder(entityType: string): UrnOrder {
    const type = this.type(entityType);
    if (type.order === undefined || type.order.stale)
      type.order = new UrnOrder(Int32Array.from(this.urnOrderIds.iterate(entityType)));
    return type.order;
  }

  private type(entityType: string): TypeForward {
    let type = this.types.get(entityType);
    if (type === undefined) {
      type = { status: new Uint8Array(1024), fields: new Map() };
      for (const { id, removed } of this.typeDocs.iterate(entityType)) {
        type.status = grown(type.status, id);
        type.status[id] = removed === 1 ? REMOVED : LIVE;
      }
      this.types.set(entityType, type);
    }
    return type;
  }

  private field(entityType: string, type: TypeForward, field: string): FieldForward {
    let forward = type.fields.get(field);
    if (forward === undefined) {
      forward = {
        values: [],
        valueIds: new Map(),
        counts: new Int32Array(16),
        // Grown by the first value of a document past its end (addValue): a field no document has
        // (domains, containers, terms: facets asked for on every dataset search) costs nothing per
        // document, where sizing it to the type's ids took 4 MiB a field at a million datasets.
        first: new Int32Array(0),
        pool: new Int32Array(0),
        poolEnd: 0,
        garbage: 0,
      };
      for (const { doc, value } of this.fieldVals.iterate(entityType, field)) addValue(forward, doc, value);
      type.fields.set(field, forward);
    }
    return forward;
  }

  /** Re-reads one changed document into every built type and field. */
  private refresh(id: number): void {
    const row = this.docRow.get(id);
    for (const type of this.types.values()) type.order?.forget(id);
    for (const [entityType, type] of this.types) {
      if ((type.status[id] ?? ABSENT) !== ABSENT && row?.entity_type !== entityType) clear(type, id);
    }
    if (row === undefined) return;
    const type = this.types.get(row.entity_type);
    if (type === undefined) return;
    clear(type, id);
    type.status = grown(type.status, id);
    type.status[id] = row.removed === 1 ? REMOVED : LIVE;
    if (type.fields.size === 0) return;
    const entity = this.entity(row.entity_type);
    if (entity === undefined) return;
    const fields = JSON.parse(decodeDocument(row.doc)) as EntityDocument['fields'];
    for (const { field, value } of valRowsOf(entity, fields)) {
      const forward = type.fields.get(field);
      if (forward !== undefined) addValue(forward, id, value);
    }
  }

  /** The type's spec as stored in this snapshot (read once per sync). */
  private entity(entityType: string): IndexedEntity | undefined {
    const known = this.specs.get(entityType);
    if (known !== undefined && this.specsChecked.has(entityType)) return known.entity;
    this.specsChecked.add(entityType);
    const json = this.specRow.get(entityType);
    if (json === undefined) {
      this.specs.delete(entityType);
      return undefined;
    }
    if (known?.json === json) return known.entity;
    const entity = indexedEntity(JSON.parse(json) as EntityIndexSpec);
    this.specs.set(entityType, { json, entity });
    return entity;
  }
}

function addValue(forward: FieldForward, doc: number, value: string): void {
  let valueId = forward.valueIds.get(value);
  if (valueId === undefined) {
    valueId = forward.values.length;
    forward.values.push(value);
    forward.valueIds.set(value, valueId);
    forward.counts = grown(forward.counts, valueId);
  }
  forward.counts[valueId]! += 1;
  forward.first = grown(forward.first, doc);
  const head = forward.first[doc]!;
  if (head === 0) {
    forward.first[doc] = valueId + 1;
    return;
  }
  if (head > 0) {
    appendRun(forward, doc, [head - 1, valueId]);
    return;
  }
  const at = -head - 1;
  const n = forward.pool[at]!;
  if (at + 1 + n === forward.poolEnd) {
    // The document's run is the last one (its values arrive together): extend it where it is.
    forward.pool = grown(forward.pool, forward.poolEnd);
    forward.pool[forward.poolEnd++] = valueId;
    forward.pool[at] = n + 1;
    return;
  }
  const ids = [...forward.pool.subarray(at + 1, at + 1 + n), valueId];
  forward.garbage += 1 + n;
  forward.first[doc] = 0;
  appendRun(forward, doc, ids);
}

/** Writes the document's values as a new run at the end of the pool (compacting it first if due). */
function appendRun(forward: FieldForward, doc: number, ids: readonly number[]): void {
  if (forward.garbage > 1024 && forward.garbage * 2 > forward.poolEnd) compact(forward);
  const at = forward.poolEnd;
  forward.pool = grown(forward.pool, at + ids.length);
  forward.pool[at] = ids.length;
  forward.pool.set(ids, at + 1);
  forward.poolEnd = at + 1 + ids.length;
  forward.first[doc] = -(at + 1);
}

/** Copies the runs documents still refer to into a pool of their size, in document order. */
function compact(forward: FieldForward): void {
  const { first, pool } = forward;
  const live = forward.poolEnd - forward.garbage;
  const next = new Int32Array(Math.max(1024, Math.ceil(live * 1.25)));
  let end = 0;
  for (let doc = 0; doc < first.length; doc++) {
    const head = first[doc]!;
    if (head >= 0) continue;
    const at = -head - 1;
    const n = pool[at]!;
    next.set(pool.subarray(at, at + 1 + n), end);
    first[doc] = -(end + 1);
    end += 1 + n;
  }
  forward.pool = next;
  forward.poolEnd = end;
  forward.garbage = 0;
}

function clear(type: TypeForward, id: number): void {
  if (id < type.status.length) type.status[id] = ABSENT;
  for (const forward of type.fields.values()) {
    if (id >= forward.first.length) continue;
    const head = forward.first[id]!;
    if (head > 0) forward.counts[head - 1]! -= 1;
    else if (head < 0) {
      const at = -head - 1;
      const n = forward.pool[at]!;
      for (let k = at + 1; k <= at + n; k++) forward.counts[forward.pool[k]!]! -= 1;
      forward.garbage += 1 + n;
    }
    forward.first[id] = 0;
  }
}
