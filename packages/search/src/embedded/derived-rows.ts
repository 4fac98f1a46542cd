import { browseEntityName, normalizeBrowsePath } from '../default-browse-path.js';
import { BROWSE_PATHS_FIELD, NAME_FIELD, URN_FIELD } from '../document-fields.js';
import type { EntityDocument } from '../port.js';
import { isStructuredPropertyField } from '../structured-property-fields.js';
import { isMultiPath } from './browse-multi-path.js';
import { valuesOf, type IndexedEntity } from './indexed-entity.js';

/**
 * The rows of `vals` and `browse` are derived from a document's stored fields (`docs.doc`) and its
 * entity type's spec (`index_specs`), and nothing else. The writer finds a document's rows by deriving
 * them again from its stored fields and deletes them by their full keys, so `browse` needs no index by
 * document (`vals` keeps one, for sort keys only: see sqlite-page-rows.ts). That holds only while the rows in the file were derived the way this code derives
 * them, so the file records the DERIVATION_VERSION that wrote them, and a file of another version has
 * every document's rows rebuilt at open (derived-rows-schema.ts).
 *
 * Whoever changes what valRowsOf or browseRowsOf give for some document (or what they read: the keyed
 * fields of a spec, isStructuredPropertyField, normalizeBrowsePath, browseEntityName, isMultiPath)
 * must bump DERIVATION_VERSION; otherwise deletes miss the rows the older code wrote, and those stay.
 */
export const DERIVATION_VERSION = 1;

type Fields = EntityDocument['fields'];

/** One `vals` row of a document: field, value as text, value as number (numbers only). */
export interface ValRow {
  readonly field: string;
  readonly value: string;
  readonly num: number | null;
}

/** One `browse` row of a document (its entity type and id aside). */
export interface BrowseRow {
  readonly parent: string;
  readonly leaf: 0 | 1;
  readonly segment: string;
  readonly multi: 0 | 1;
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

/**
 * The browse rows of a document, distinct by key. A browse path is the folder the entity is listed
 * in: one group row per folder on the way down (leaf = 0, under its parent) and the entity's own row
 * in the folder itself (leaf = 1, its name). `multi` marks a document under several paths
 * (browse-multi-path.ts).
 */
export function browseRowsOf(fields: Fields): BrowseRow[] {
  const name = browseEntityName(String(fields[URN_FIELD] ?? ''), fields[NAME_FIELD]);
  const paths = valuesOf(fields[BROWSE_PATHS_FIELD]);
  const multi = isMultiPath(paths) ? 1 : 0;
  const rows: BrowseRow[] = [];
  const seen = new Set<string>();
  const add = (parent: string, leaf: 0 | 1, segment: string): void => {
    const key = `${parent}\u0000${leaf}\u0000${segment}`;
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ parent, leaf, segment, multi });
  };
  for (const raw of paths) {
    const path = normalizeBrowsePath(String(raw));
    const segments = path === '' ? [] : path.split('/').slice(1);
    let parent = '';
    for (const segment of segments) {
      add(parent, 0, segment);
      parent = `${parent}/${segment}`;
    }
    add(path, 1, name);
  }
  return rows;
}
