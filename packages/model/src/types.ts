import type { Type } from 'avsc';

/** A parsed entity URN: `urn:li:<entityType>:<id>`; a composite id `(<a>,<b>)` is split into `parts`. */
export interface Urn {
  /** The URN exactly as formatted (canonical form). */
  readonly raw: string;
  readonly entityType: string;
  /** The id as written after the entity type, parentheses included for composite ids. */
  readonly id: string;
  /** The id's parts: one element for a simple id, several for a composite id (nested URNs kept whole). */
  readonly parts: readonly string[];
}

/** One validation problem, with the path of the offending field (`owners[0].owner`, `` for the root). */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

export type AspectKind = 'versioned' | 'timeseries';

/** Field types of the search index, as the ecosystem's @Searchable annotations name them. */
export type SearchFieldType =
  | 'TEXT'
  | 'TEXT_PARTIAL'
  | 'WORD_GRAM'
  | 'KEYWORD'
  | 'URN'
  | 'URN_PARTIAL'
  | 'BOOLEAN'
  | 'COUNT'
  | 'DATETIME'
  | 'DOUBLE'
  | 'BROWSE_PATH'
  | 'OBJECT';

/** A searchable-field annotation on an aspect: where the value sits and how the index treats it. */
export interface SearchableField {
  /** Name of the field in the entity's search document (e.g. `name`, `tags`, `owners`). */
  readonly fieldName: string;
  /** Path inside the aspect value, segments joined by `/`, `*` for every array element, e.g. `tags/ * /tag`. */
  readonly path: string;
  readonly type: SearchFieldType;
  readonly boost?: number;
  /** Facet / filter display name, e.g. `Environment` for origin. */
  readonly filterName?: string;
  /** When set, the document also carries `<hasValuesFieldName>: boolean` (e.g. `hasDescription`). */
  readonly hasValuesFieldName?: string;
  /** When set, the document also carries `<numValuesFieldName>: number`. */
  readonly numValuesFieldName?: string;
  readonly addToFilters?: boolean;
  /** Whether full-text queries search this field (default true for TEXT/WORD_GRAM/TEXT_PARTIAL/KEYWORD/URN). */
  readonly queryByDefault?: boolean;
  readonly enableAutocomplete?: boolean;
  /** Extra names under which the same value is searchable, e.g. `_entityName`. */
  readonly fieldNameAliases?: readonly string[];
}

/** A relationship annotation: the aspect value at `path` is a URN the entity points to. */
export interface RelationshipAnnotation {
  /** e.g. OwnedBy, TaggedWith, DownstreamOf. */
  readonly name: string;
  /** Path inside the aspect value, same syntax as SearchableField.path. */
  readonly path: string;
  /** Entity types the target URN may have. */
  readonly entityTypes: readonly string[];
  /** Whether the edge is lineage (upstream/downstream), as the ecosystem's annotation says. */
  readonly isLineage?: boolean;
  /** False when the edge points downstream (a job Produces a dataset); absent means it points upstream. */
  readonly isUpstream?: boolean;
}

export interface AspectSpec {
  /** Aspect name, lower camel (e.g. `datasetProperties`). */
  readonly name: string;
  /** Fully qualified record name (e.g. `com.linkedin.dataset.DatasetProperties`): the union key in reads. */
  readonly recordName: string;
  readonly kind: AspectKind;
  /**
   * The version of the aspect's schema (its `@Aspect` annotation's schemaVersion, 1 when it has none):
   * the server records it as `systemMetadata.schemaVersion` of every value it writes, as the ecosystem's
   * write path does (a writer's own is kept).
   */
  readonly schemaVersion: number;
  /** True for the entity's key aspect (derived from its URN). */
  readonly isKey: boolean;
  /** Holds secret material: returned to nobody but the system actor (see `RESTRICTED_ASPECTS`). */
  readonly restricted: boolean;
  readonly searchable: readonly SearchableField[];
  readonly relationships: readonly RelationshipAnnotation[];
  /** The avsc type of the record: validates JSON input and serializes events. */
  readonly schema: Type;
}

export interface EntitySpec {
  /** Entity name, lower camel as in the ecosystem (`dataset`, `corpuser`, `corpGroup`). */
  readonly name: string;
  /** Name of the key aspect (e.g. `datasetKey`). */
  readonly keyAspect: string;
  /** Every aspect this entity may carry, key aspect included. */
  readonly aspects: ReadonlyMap<string, AspectSpec>;
  /** Whether the entity has a search index. */
  readonly searchable: boolean;
  /** The ecosystem's entity category (`core`, `internal`), when it names one. */
  readonly category?: string;
  /** Fully qualified snapshot record name for the legacy `/entities` endpoints, when the entity has one. */
  readonly snapshotName?: string;
}

/** The result of validating an aspect value against its schema. */
export type ValidationOutcome =
  | {
      readonly ok: true;
      /** The value with unknown fields dropped, unions normalized. */ readonly value: Record<
        string,
        unknown
      >;
    }
  | { readonly ok: false; readonly problems: readonly FieldProblem[] };
