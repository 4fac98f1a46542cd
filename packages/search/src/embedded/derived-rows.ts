import type { EntityDocument } from '../port.js';
import { isStructuredPropertyField } from '../structured-property-fields.js';
import { valuesOf, type IndexedEntity } from './indexed-entity.js';

/**
 * The rows of `vals` and `browse` are derived from a document's stored fields (`docs.doc`) and its
 * entity type's spec (`index_specs`), and nothing else: readers that need one document's values derive
 * them from its stored fields as the writer does.
 */

type Fields = EntityDocument['fields'];

/** One `vals` row of a document: field, value as text, value as number (numbers only). */
export interface ValRow {
  readonly field: string;
  readonly value: string;
  readonly num: number | null;
}

/**
 * The distinct (field, value) rows of a document's keyed fields (structured property fields included,
 * numbers with `num`); the first of equal texts wins.
 */
export function valRowsOf(entity: IndexedEntity, fields: Fields): ValRow[] {
  const rows: ValRow[] = [];
  const seen = new Set<string>();
  for (const [field, value] of Object.entries(fields)) {
    if (!entity.keyed.has(field) && !isStructuredPropertyField(field)) continue;
    for (const v of valuesOf(value)) {
      const row = { field, value: String(v), num: typeof v === 'number' ? v : null };
      const key = valKey(row);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(row);
    }
  }
  return rows;
}

/** What tells two `vals` rows of one document apart: field and value text. */
export function valKey(row: ValRow): string {
  return `${row.field}\u0000${row.value}`;
}
