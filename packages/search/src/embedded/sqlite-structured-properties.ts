import type Database from 'better-sqlite3';
import type { StructuredPropertySearchDefinition } from '../port.js';
import { normalizedPropertyName } from '../structured-property-fields.js';
import { definitionFromJson } from '../structured-property-definition-json.js';

/**
 * The definitions view of the embedded adapter: the `structured_properties` table, one row per property
 * urn with its qualified name's field form (for filter and facet names) and the definition as JSON.
 */
export class SqliteStructuredProperties {
  private readonly upsertRow: Database.Statement<[string, string, string]>;
  private readonly deleteRow: Database.Statement<[string]>;
  private readonly putBatch: (definitions: readonly StructuredPropertySearchDefinition[]) => void;

  constructor(private readonly db: Database.Database) {
    this.upsertRow = db.prepare(
      `INSERT INTO structured_properties (urn, normalized_name, definition) VALUES (?, ?, ?)
       ON CONFLICT (urn) DO UPDATE SET normalized_name = excluded.normalized_name, definition = excluded.definition`,
    );
    this.deleteRow = db.prepare('DELETE FROM structured_properties WHERE urn = ?');
    this.putBatch = db.transaction((definitions: readonly StructuredPropertySearchDefinition[]) => {
      for (const d of definitions)
        this.upsertRow.run(d.urn, normalizedPropertyName(d.qualifiedName), JSON.stringify(d));
    });
  }

  put(definitions: readonly StructuredPropertySearchDefinition[]): void {
    if (definitions.length > 0) this.putBatch(definitions);
  }

  delete(urns: readonly string[]): void {
    for (const urn of urns) this.deleteRow.run(urn);
  }

  byUrn(urns: readonly string[]): Map<string, StructuredPropertySearchDefinition> {
    return this.select('urn', urns);
  }

  byNormalizedName(names: readonly string[]): StructuredPropertySearchDefinition[] {
    return [...this.select('normalized_name', names).values()];
  }

  private select(column: 'urn' | 'normalized_name', keys: readonly string[]) {
    const out = new Map<string, StructuredPropertySearchDefinition>();
    const unique = [...new Set(keys)];
    // SQLite binds at most 32766 parameters; lookups are per request or per indexing batch.
    for (let at = 0; at < unique.length; at += 500) {
      const chunk = unique.slice(at, at + 500);
      const rows = this.db
        .prepare<string[], { definition: string }>(
          `SELECT definition FROM structured_properties WHERE ${column} IN (${chunk.map(() => '?').join(', ')})`,
        )
        .all(...chunk);
      for (const row of rows) {
        const definition = definitionFromJson(JSON.parse(row.definition));
        if (definition !== undefined) out.set(definition.urn, definition);
      }
    }
    return out;
  }
}
