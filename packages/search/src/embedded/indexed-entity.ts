import type { SearchFieldType } from '@catalog/model';
import type { EntityIndexSpec, FieldMapping, SearchScalar } from '../port.js';
import { isStructuredPropertyField } from '../structured-property-fields.js';
import { fullTextOf } from '../text-tokens.js';

/** One full-text column of an entity type (see TextIndexWriter). */
export interface FtsColumn {
  readonly field: string;
  readonly type: SearchFieldType;
  /** bm25 weight: the field's boost; 0 for autocomplete-only columns. */
  readonly weight: number;
  readonly autocomplete: boolean;
}

/** An entity type's index spec with what the embedded adapter derives from it. */
export interface IndexedEntity {
  readonly spec: EntityIndexSpec;
  readonly columns: readonly FtsColumn[];
  readonly mappings: ReadonlyMap<string, FieldMapping>;
  /**
   * Fields whose values go to the `vals` table (indexed for filters and facets): every type but free
   * text. TEXT / TEXT_PARTIAL fields (descriptions, schema field paths) are many and long; filters on
   * them read the document JSON instead (`json_each`), which is slower but rare. Structured property
   * fields are not in the stored spec (their definitions name them) but are always keyed.
   */
  readonly keyed: ReadonlySet<string>;
  /** The keyed fields offered as filters (the ecosystem's default facets), in the spec's order. */
  readonly filterFields: readonly string[];
}

const FREE_TEXT: ReadonlySet<SearchFieldType> = new Set(['TEXT', 'TEXT_PARTIAL']);

/**
 * customProperties is annotated TEXT but filtered by exact `key=value`, so it stays keyed; so are
 * structured property fields of every type (rich text too: few values, filtered and faceted exactly),
 * and free-text fields offered as filters (`origin`, an incident's `state`: short values whose filters
 * and facets would otherwise read every matching document's JSON). A spec that changes which fields
 * are keyed rederives the stored rows (SqliteDocumentWriter.ensureIndex).
 */
function isKeyed(mapping: FieldMapping): boolean {
  return (
    mapping.aliasOf === undefined &&
    (!FREE_TEXT.has(mapping.type) ||
      mapping.filterable === true ||
      mapping.name === 'customProperties' ||
      isStructuredPropertyField(mapping.name))
  );
}

/** The JSON path of a field in the stored document. */
export function jsonPathOf(field: string): string {
  return `$."${field.replaceAll('"', '\\"')}"`;
}

/** The full-text columns of a spec: every field with a boost or autocomplete, aliases excluded. */
export function indexedEntity(spec: EntityIndexSpec): IndexedEntity {
  const columns = spec.fields
    .filter((f) => f.aliasOf === undefined && ((f.boost ?? 0) > 0 || f.autocomplete === true))
    .map((f) => ({
      field: f.name,
      type: f.type,
      weight: f.boost ?? 0,
      autocomplete: f.autocomplete === true,
    }));
  const keyed = spec.fields.filter(isKeyed);
  return {
    spec,
    columns,
    mappings: new Map(spec.fields.map((f) => [f.name, f])),
    keyed: new Set(keyed.map((f) => f.name)),
    filterFields: keyed.filter((f) => f.filterable === true).map((f) => f.name),
  };
}

export function valuesOf(value: SearchScalar | readonly SearchScalar[] | undefined): readonly SearchScalar[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly SearchScalar[]) : [value as SearchScalar];
}

/** The text of one full-text column for a document's fields. */
export function columnText(
  column: FtsColumn,
  fields: Readonly<Record<string, SearchScalar | readonly SearchScalar[]>>,
): string {
  return valuesOf(fields[column.field])
    .map((v) => fullTextOf(column.type, String(v)))
    .join('\n');
}
