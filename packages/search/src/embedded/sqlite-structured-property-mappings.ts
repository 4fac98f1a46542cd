import type Database from 'better-sqlite3';
import { definitionFromJson } from '../structured-property-definition-json.js';
import { STRUCTURED_PROPERTIES_PREFIX, structuredPropertyFieldName } from '../structured-property-fields.js';
import { FIELD_ID_SQL } from './keyed-values-schema.js';
import { writeTransaction } from './write-transaction.js';

/** The first name after every `structuredProperties.…` field name (`.` + 1 is `/`): a range bound. */
const AFTER_STRUCTURED_FIELDS = `${STRUCTURED_PROPERTIES_PREFIX.slice(0, -1)}/`;

/**
 * Which structured property fields each entity index maps, in `structured_property_mappings`. SQLite
 * needs no mappings (the writer keys every structured property field, typed by its values), so this is
 * bookkeeping that follows OpenSearch's: a definition put maps its field in every entity index, a new
 * entity index maps the view's fields, a dropped index loses its rows, and only the cleanup removes a
 * field (SearchIndex.cleanupStructuredPropertyMappings). Leftovers and name holders read the same
 * state on both adapters through it.
 */
export class SqliteStructuredPropertyMappings {
  private readonly mapEverywhereRow: Database.Statement<[string]>;
  private readonly mapRow: Database.Statement<[string, string]>;
  private readonly unmapRow: Database.Statement<[string, string]>;
  private readonly unmapIndexRows: Database.Statement<[string]>;
  private readonly allRows: Database.Statement<[], { entity_type: string; field: string }>;
  private readonly countValues: Database.Statement<[string, string], number>;

  constructor(db: Database.Database) {
    this.mapEverywhereRow = db.prepare(
      'INSERT OR IGNORE INTO structured_property_mappings (entity_type, field) SELECT entity_type, ? FROM index_specs',
    );
    this.mapRow = db.prepare(
      'INSERT OR IGNORE INTO structured_property_mappings (entity_type, field) VALUES (?, ?)',
    );
    this.unmapRow = db.prepare(
      'DELETE FROM structured_property_mappings WHERE entity_type = ? AND field = ?',
    );
    this.unmapIndexRows = db.prepare('DELETE FROM structured_property_mappings WHERE entity_type = ?');
    this.allRows = db.prepare(
      'SELECT entity_type, field FROM structured_property_mappings ORDER BY entity_type, field',
    );
    this.countValues = db
      .prepare<[string, string], number>(`SELECT COUNT(DISTINCT doc) FROM vals WHERE field = ${FIELD_ID_SQL}`)
      .pluck();
  }

  /** Maps the fields in every entity index there is. */
  mapEverywhere(fields: readonly string[]): void {
    for (const field of new Set(fields)) this.mapEverywhereRow.run(field);
  }

  /** Maps the fields in one entity index. */
  mapIn(entityType: string, fields: readonly string[]): void {
    for (const field of new Set(fields)) this.mapRow.run(entityType, field);
  }

  /** The entity index is gone, and its mappings with it. */
  unmapIndex(entityType: string): void {
    this.unmapIndexRows.run(entityType);
  }

  unmap(entityType: string, fields: readonly string[]): void {
    for (const field of fields) this.unmapRow.run(entityType, field);
  }

  /** Entity type → the structured property fields its index maps. */
  byEntityType(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const row of this.allRows.all()) {
      const fields = out.get(row.entity_type) ?? [];
      fields.push(row.field);
      out.set(row.entity_type, fields);
    }
    return out;
  }

  /** The documents of an entity index holding a value in the field (an empty list is no value). */
  valueCount(entityType: string, field: string): number {
    return this.countValues.get(entityType, field) ?? 0;
  }
}

/**
 * Fills `structured_property_mappings` when a file made before it is opened: every entity index maps
 * the fields of the view's definitions, and the structured property fields its documents hold values
 * in (a hard-deleted property's, or an older version's: OpenSearch would still map them).
 */
export function seedStructuredPropertyMappings(db: Database.Database): void {
  const entityTypes = db.prepare<[], string>('SELECT entity_type FROM index_specs').pluck().all();
  if (entityTypes.length === 0) return;
  const defined: string[] = [];
  for (const json of db.prepare<[], string>('SELECT definition FROM structured_properties').pluck().all()) {
    const definition = definitionFromJson(JSON.parse(json));
    if (definition !== undefined) defined.push(structuredPropertyFieldName(definition));
  }
  const held = db
    .prepare<[string, string, string], string>(
      `SELECT f.field FROM val_fields f WHERE f.entity_type = ? AND f.field >= ? AND f.field < ?
         AND EXISTS (SELECT 1 FROM vals v WHERE v.field = f.id)`,
    )
    .pluck();
  const mappings = new SqliteStructuredPropertyMappings(db);
  writeTransaction(db, () => {
    for (const entityType of entityTypes) {
      mappings.mapIn(entityType, defined);
      mappings.mapIn(entityType, held.all(entityType, STRUCTURED_PROPERTIES_PREFIX, AFTER_STRUCTURED_FIELDS));
    }
  })();
}
