import type { SearchFieldType } from '@catalog/model';
import { URN_FIELD } from '../document-fields.js';
import type { FieldMapping } from '../port.js';

/**
 * Where each use of one logical document field lives in the OpenSearch mapping: the query builders
 * work from these paths, never from the field types, so the mapping and the queries cannot drift apart.
 */
export interface FieldPaths {
  readonly name: string;
  readonly type: SearchFieldType;
  readonly kind: 'string' | 'number' | 'date' | 'boolean';
  /** Exact values: term/terms filters, wildcard/prefix, aggregations, sorting. */
  readonly exact: string;
  /** Lowercase-normalized keyword (IEQUAL). */
  readonly folded?: string;
  /** Word-analyzed text (full-text queries). */
  readonly text?: string;
  /** Edge n-grams of each word (partial words, autocomplete). */
  readonly partial?: string;
  /** path_hierarchy tokens of a browse path: a term on it matches every path at or under a prefix. */
  readonly hierarchy?: string;
  /** The parent of each browse path (`/a/b` for `/a/b/c`): entities listed at a path. */
  readonly browseParent?: string;
  /** Every proper ancestor of each browse path, root `/` included: browse groups aggregate on it. */
  readonly browseAncestors?: string;
  readonly boost: number;
  readonly autocomplete: boolean;
}

/** Adapter bookkeeping lives under this object in every entity document, apart from the fields. */
export const META_FIELD = '@catalog';
export const URN_PATH = `${META_FIELD}.urn`;
export const ENTITY_TYPE_PATH = `${META_FIELD}.entityType`;
export const BROWSE_PATH = `${META_FIELD}.browse`;
/**
 * Field aliases, one per field and alias of the spec, to the path its sort reads (the keyword form of
 * text fields): one sort clause then sorts every index by its own mapping of a name (`_entityName` is
 * `name.keyword` in one index, `title.keyword` in another). Aliases are mapping-only: adding them to an
 * existing index needs no reindex.
 */
export const SORT_PATH = `${META_FIELD}.sort`;

/** The sort alias of a field name (see SORT_PATH). */
export function sortAliasPath(name: string): string {
  return `${SORT_PATH}.${name}`;
}

export const SUBFIELD = {
  keyword: 'keyword',
  folded: 'lowercase',
  text: 'text',
  partial: 'ngram',
  hierarchy: 'hierarchy',
  /**
   * The words of the entity's own `urn` (urn-component analysis, as the ecosystem's `urn.delimited`).
   * Indices made before it map `urn.text` with the plain word analyzer, which a mapping update cannot
   * change: the subfield has its own name, so ensuring such an index adds it (and backfills it).
   */
  delimited: 'delimited',
} as const;

const PARTIAL_TYPES: ReadonlySet<SearchFieldType> = new Set(['TEXT_PARTIAL', 'WORD_GRAM', 'URN_PARTIAL']);

/** The subfield holding the analyzed words of a keyword field (the entity urn's has its own name). */
export function textSubfield(name: string): string {
  return name === URN_FIELD ? SUBFIELD.delimited : SUBFIELD.text;
}

/** The paths of a field declared in the index spec. */
export function fieldPaths(field: FieldMapping): FieldPaths {
  const name = field.name;
  const base = { name, type: field.type, boost: field.boost ?? 0, autocomplete: field.autocomplete === true };
  const partial =
    PARTIAL_TYPES.has(field.type) || field.autocomplete === true ? `${name}.${SUBFIELD.partial}` : undefined;
  switch (field.type) {
    case 'TEXT':
    case 'TEXT_PARTIAL':
    case 'WORD_GRAM':
      return {
        ...base,
        kind: 'string',
        exact: `${name}.${SUBFIELD.keyword}`,
        folded: `${name}.${SUBFIELD.folded}`,
        text: name,
        ...(partial ? { partial } : {}),
      };
    case 'KEYWORD':
    case 'URN':
    case 'URN_PARTIAL':
    case 'OBJECT':
      return {
        ...base,
        kind: 'string',
        exact: name,
        folded: `${name}.${SUBFIELD.folded}`,
        text: `${name}.${textSubfield(name)}`,
        ...(partial ? { partial } : {}),
      };
    case 'BROWSE_PATH':
      return {
        ...base,
        kind: 'string',
        exact: name,
        folded: `${name}.${SUBFIELD.folded}`,
        hierarchy: `${name}.${SUBFIELD.hierarchy}`,
        browseParent: `${BROWSE_PATH}.${name}.parent`,
        browseAncestors: `${BROWSE_PATH}.${name}.ancestors`,
        ...(partial ? { partial } : {}),
      };
    case 'BOOLEAN':
      return { ...base, kind: 'boolean', exact: name };
    case 'COUNT':
    case 'DOUBLE':
      return { ...base, kind: 'number', exact: name };
    case 'DATETIME':
      return { ...base, kind: 'date', exact: name };
  }
}

/**
 * The paths of a field the spec does not declare (indexed by the dynamic templates: strings become
 * keywords with a lowercase subfield; numbers and booleans keep their JSON type).
 */
export function undeclaredFieldPaths(name: string): FieldPaths {
  if (name === URN_FIELD)
    return { name, type: 'URN', kind: 'string', exact: URN_PATH, boost: 0, autocomplete: false };
  return {
    name,
    type: 'KEYWORD',
    kind: 'string',
    exact: name,
    folded: `${name}.${SUBFIELD.folded}`,
    boost: 0,
    autocomplete: false,
  };
}

/** The proper ancestors of a path, root included: `/a/b/c` → `/`, `/a`, `/a/b`; the root has none. */
export function pathAncestors(path: string): string[] {
  const segments = splitPath(path);
  return segments.map((_, index) => `/${segments.slice(0, index).join('/')}`);
}

/** Path segments without empty ones: `/a//b/` → [a, b]; `/` and `` → []. */
export function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** The canonical form browse paths are compared in: leading slash, no trailing or doubled slashes. */
export function normalizePath(path: string): string {
  return `/${splitPath(path).join('/')}`;
}
