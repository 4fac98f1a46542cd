import type Database from 'better-sqlite3';
import type { StructuredPropertyNameHolder, StructuredPropertySearchDefinition } from '../port.js';
import { compareCodePoints } from '../sort-values.js';
import { normalizedPropertyName, structuredPropertyFieldName } from '../structured-property-fields.js';
import { definitionFromJson } from '../structured-property-definition-json.js';
import { retiredRecordOf, type RetiredStructuredProperty } from '../structured-property-leftovers.js';
import type { SqliteStructuredPropertyMappings } from './sqlite-structured-property-mappings.js';
import { writeTransaction } from './write-transaction.js';

interface RetiredRow {
  readonly urn: string;
  readonly qualified_name: string;
  readonly normalized_name: string;
  readonly retired_at: number;
  readonly fields: string;
}

/**
 * The definitions view of the embedded adapter: the `structured_properties` table, one row per property
 * urn with its qualified name's field form (for filter and facet names) and the definition as JSON;
 * beside it the retired (hard-deleted) properties, `retired_structured_properties`. Putting a definition
 * maps its field in every entity index (SqliteStructuredPropertyMappings) and drops its retired record.
 */
export class SqliteStructuredProperties {
  private readonly upsertRow: Database.Statement<[string, string, string]>;
  private readonly deleteRow: Database.Statement<[string]>;
  private readonly definitionRow: Database.Statement<[string], string>;
  private readonly allRows: Database.Statement<[], string>;
  private readonly retireRow: Database.Statement<[string, string, string, number, string]>;
  private readonly forgetRow: Database.Statement<[string]>;
  private readonly retiredRows: Database.Statement<[], RetiredRow>;
  private readonly putBatch: (definitions: readonly StructuredPropertySearchDefinition[]) => void;
  private readonly retireBatch: (urns: readonly string[], retiredAt: number) => void;

  constructor(
    private readonly db: Database.Database,
    private readonly mappings: SqliteStructuredPropertyMappings,
  ) {
    this.upsertRow = db.prepare(
      `INSERT INTO structured_properties (urn, normalized_name, definition) VALUES (?, ?, ?)
       ON CONFLICT (urn) DO UPDATE SET normalized_name = excluded.normalized_name, definition = excluded.definition`,
    );
    this.deleteRow = db.prepare('DELETE FROM structured_properties WHERE urn = ?');
    this.definitionRow = db
      .prepare<[string], string>('SELECT definition FROM structured_properties WHERE urn = ?')
      .pluck();
    this.allRows = db
      .prepare<[], string>('SELECT definition FROM structured_properties ORDER BY urn')
      .pluck();
    this.retireRow = db.prepare(
      `INSERT OR REPLACE INTO retired_structured_properties (urn, qualified_name, normalized_name, retired_at, fields)
       VALUES (?, ?, ?, ?, ?)`,
    );
    this.forgetRow = db.prepare('DELETE FROM retired_structured_properties WHERE urn = ?');
    this.retiredRows = db.prepare('SELECT * FROM retired_structured_properties ORDER BY urn');
    this.putBatch = writeTransaction(db, (definitions: readonly StructuredPropertySearchDefinition[]) => {
      for (const d of definitions) {
        this.upsertRow.run(d.urn, normalizedPropertyName(d.qualifiedName), JSON.stringify(d));
        this.forgetRow.run(d.urn);
      }
      this.mappings.mapEverywhere(definitions.map(structuredPropertyFieldName));
    });
    this.retireBatch = writeTransaction(db, (urns: readonly string[], retiredAt: number) => {
      for (const urn of new Set(urns)) {
        const json = this.definitionRow.get(urn);
        const definition = json === undefined ? undefined : definitionFromJson(JSON.parse(json));
        if (definition !== undefined) {
          const r = retiredRecordOf(definition, retiredAt);
          this.retireRow.run(r.urn, r.qualifiedName, r.normalizedName, r.retiredAt, JSON.stringify(r.fields));
        }
        this.deleteRow.run(urn);
      }
    });
  }

  put(definitions: readonly StructuredPropertySearchDefinition[]): void {
    if (definitions.length > 0) this.putBatch(definitions);
  }

  /** Moves the definitions of these urns from the view to the retired records (absent ones: nothing). */
  retire(urns: readonly string[], retiredAt: number): void {
    if (urns.length > 0) this.retireBatch(urns, retiredAt);
  }

  /** Maps the fields of every definition of the view in one entity index (created or ensured). */
  mapViewIn(entityType: string): void {
    this.mappings.mapIn(entityType, this.all().map(structuredPropertyFieldName));
  }

  byUrn(urns: readonly string[]): Map<string, StructuredPropertySearchDefinition> {
    const out = new Map<string, StructuredPropertySearchDefinition>();
    for (const definition of this.select('structured_properties', 'urn', urns, 'definition', parse))
      out.set(definition.urn, definition);
    return out;
  }

  byNormalizedName(names: readonly string[]): StructuredPropertySearchDefinition[] {
    return this.select('structured_properties', 'normalized_name', names, 'definition', parse);
  }

  /** Every definition of the view, active and soft-deleted, by urn. */
  all(): StructuredPropertySearchDefinition[] {
    return this.allRows
      .all()
      .map(parse)
      .filter((d): d is StructuredPropertySearchDefinition => d !== undefined);
  }

  /** The view's definitions and the retired properties with these normalized names. */
  nameHolders(names: readonly string[]): StructuredPropertyNameHolder[] {
    const holders = new Map<string, StructuredPropertyNameHolder>();
    for (const d of this.byNormalizedName(names)) {
      holders.set(d.urn, {
        urn: d.urn,
        qualifiedName: d.qualifiedName,
        normalizedName: normalizedPropertyName(d.qualifiedName),
        state: d.removed ? 'removed' : 'active',
      });
    }
    const retired = this.select('retired_structured_properties', 'normalized_name', names, '*', retiredOf);
    for (const r of retired) {
      if (holders.has(r.urn)) continue;
      holders.set(r.urn, {
        urn: r.urn,
        qualifiedName: r.qualifiedName,
        normalizedName: r.normalizedName,
        state: 'retired',
      });
    }
    return [...holders.values()].sort((a, b) => compareCodePoints(a.urn, b.urn));
  }

  /** Every retired property, by urn. */
  retired(): RetiredStructuredProperty[] {
    return this.retiredRows.all().map(retiredOf);
  }

  /** Drops retired records (their mappings are gone). */
  forget(urns: readonly string[]): void {
    for (const urn of urns) this.forgetRow.run(urn);
  }

  private select<Row, T>(
    table: 'structured_properties' | 'retired_structured_properties',
    column: 'urn' | 'normalized_name',
    keys: readonly string[],
    columns: 'definition' | '*',
    read: (row: Row) => T | undefined,
  ): T[] {
    const out: T[] = [];
    const unique = [...new Set(keys)];
    // SQLite binds at most 32766 parameters; lookups are per request or per indexing batch.
    for (let at = 0; at < unique.length; at += 500) {
      const chunk = unique.slice(at, at + 500);
      const statement = this.db.prepare<string[], Row>(
        `SELECT ${columns} FROM ${table} WHERE ${column} IN (${chunk.map(() => '?').join(', ')})`,
      );
      if (columns === 'definition') statement.pluck();
      for (const row of statement.all(...chunk)) {
        const value = read(row);
        if (value !== undefined) out.push(value);
      }
    }
    return out;
  }
}

function parse(json: string): StructuredPropertySearchDefinition | undefined {
  return definitionFromJson(JSON.parse(json));
}

function retiredOf(row: RetiredRow): RetiredStructuredProperty {
  const fields: unknown = JSON.parse(row.fields);
  return {
    urn: row.urn,
    qualifiedName: row.qualified_name,
    normalizedName: row.normalized_name,
    retiredAt: row.retired_at,
    fields: Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : [],
  };
}
