/**
 * The read-model ports, built by the indexer from the change log and read by the gateway:
 * entity search documents (search, browse, autocomplete), graph edges (relationships) and time-series
 * documents. The OpenSearch adapters and the embedded adapters satisfy the same contract suites.
 */
import type { SearchFieldType } from '@catalog/model';
import type { StructuredValueType } from './structured-property-fields.js';

export type SearchScalar = string | number | boolean;

/** One entity's search document: the searchable fields of all its current aspects, by field name. */
export interface EntityDocument {
  readonly urn: string;
  readonly entityType: string;
  readonly fields: Readonly<Record<string, SearchScalar | readonly SearchScalar[]>>;
}

/** How one document field is indexed (derived from the registry's searchable-field annotations). */
export interface FieldMapping {
  readonly name: string;
  readonly type: SearchFieldType;
  /** Full-text weight; absent or 0 means the field is not searched by full-text queries. */
  readonly boost?: number;
  /** Prefix suggestions come from this field. */
  readonly autocomplete?: boolean;
  /**
   * (Added.) Set when this name is an alias of another field (e.g. `_entityName` → `name`): filters,
   * facets, sorts and `field:value` queries on the alias act on the target. Documents never carry an
   * alias, and adapters index nothing for it (an OpenSearch `alias` mapping is fine).
   */
  readonly aliasOf?: string;
  /**
   * (Added.) The annotation's addToFilters: the field is offered as a filter and facet. Adapters may
   * index such a field's exact values even when it is free text (the embedded index keys it, so its
   * filters and facets read an index instead of every matching document).
   */
  readonly filterable?: boolean;
}

/** The shape of one entity type's index. */
export interface EntityIndexSpec {
  readonly entityType: string;
  readonly fields: readonly FieldMapping[];
}

export const CONDITIONS = [
  'CONTAIN',
  'END_WITH',
  'EQUAL',
  'IEQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL_TO',
  'START_WITH',
  'EXISTS',
  'IN',
] as const;
export type Condition = (typeof CONDITIONS)[number];

/** One condition on a field; several values are ORed. */
export interface Criterion {
  readonly field: string;
  readonly values: readonly string[];
  readonly condition: Condition;
  readonly negated?: boolean;
}

/** Disjunctive normal form, as the ecosystem sends it: `{or: [{and: [criterion...]}]}`. */
export interface Filter {
  readonly or: readonly { readonly and: readonly Criterion[] }[];
}

export type SortOrder = 'ASCENDING' | 'DESCENDING';

/** One sort key (the ecosystem's `sortCriteria` + `sortOrder`); `.keyword` on the field is dropped. */
export interface SortCriterion {
  readonly field: string;
  readonly order: SortOrder;
}

/**
 * (Added.) One value of a hit's keyset position (SearchHit.sortValues): a string for string fields, a
 * number for numeric and date fields (epoch millis), a boolean for boolean fields, null when the hit has
 * no value for the sort field.
 */
export type SearchSortValue = string | number | boolean | null;

/** (Added.) One of `max` disjoint parts of a match set (the ecosystem's `sliceId` / `sliceMax`). */
export interface SearchSlice {
  readonly id: number;
  readonly max: number;
}

/** The largest `slice.max` (OpenSearch's default `index.max_slices_per_scroll`). */
export const MAX_SLICES = 1024;

export interface SearchRequest {
  readonly entityTypes: readonly string[];
  /** Free text over the fields with a boost; `*` or empty matches all; `field:value` is an exact match. */
  readonly input: string;
  readonly filter?: Filter;
  readonly start: number;
  readonly count: number;
  /**
   * Fields to aggregate (facets); each gives value → count over the whole match set.
   *
   * Filters, facets and sorts may also name `structuredProperties.<qualifiedName>` (see
   * resolveStructuredProperties): the property's values as its definition types them, in every
   * requested entity type; facet values print as the ecosystem prints them (`60.0`, `2020-10-01`).
   * An unknown or soft-deleted property is a ValidationError. They take no part in full text.
   */
  readonly facets?: readonly string[];
  readonly maxAggValues?: number;
  /** Soft-deleted entities (removed = true) are left out unless this is set. */
  readonly includeRemoved?: boolean;
  /**
   * Hits are ordered by these keys, then (without searchAfter) by score descending, then by urn
   * ascending. Per key, as OpenSearch sorts:
   * - a multi-valued field sorts by its smallest value ASCENDING and by its largest DESCENDING;
   * - a hit without a value (or of an entity type whose index has no such field) sorts last in both
   *   orders;
   * - string fields (text ones too) compare their exact, case-sensitive value (the keyword form) in
   *   Unicode code point order; a value longer than 8191 characters is not kept in that form and
   *   counts as missing; numeric and date fields compare as numbers (dates as epoch millis); booleans
   *   false before true;
   * - an alias (e.g. `_entityName`) sorts each entity type by its own target field.
   * An unknown field, or one that is a string in one requested entity type and a number or boolean in
   * another, is a ValidationError naming it.
   */
  readonly sort?: readonly SortCriterion[];
  /**
   * (Added.) Keyset paging for scrolls of any depth. A keyset search orders hits by `sort` (if any),
   * then by urn alone: no score, so the order is total and stable under writes. Each hit then carries
   * its `sortValues`; passing the last hit's `sortValues` here continues strictly after it. `''` asks
   * for the first page. A plain urn string continues after that urn and is allowed only without `sort`
   * (the same as `[urn]`). Takes `start` 0; `total` still counts the whole match set.
   *
   * While others write, the scroll neither repeats nor skips an entity whose sort values stay the same
   * (entities created or deleted meanwhile appear, or not, by where they sort). An entity whose sort
   * values change between pages may be seen twice or not at all: there is no snapshot (as with
   * OpenSearch's search_after without a point in time). Ordered by urn alone, that cannot happen.
   */
  readonly searchAfter?: string | readonly SearchSortValue[];
  /**
   * (Added.) Only the part `id` of `max` of the match set: each entity is in exactly one part, chosen
   * by its urn alone (sliceOfUrn), so the parts are disjoint, their union is the whole match set, and
   * an entity stays in its part while it is written. `total` and facets count the part. Needs
   * `0 <= id < max` and `1 <= max <= MAX_SLICES`; `max` 1 is everything. Combines with every other
   * option (a scroll of one slice pages with searchAfter as any other).
   */
  readonly slice?: SearchSlice;
}

export interface MatchedField {
  readonly name: string;
  readonly value: string;
}

export interface SearchHit {
  readonly urn: string;
  readonly entityType: string;
  readonly score: number;
  readonly matchedFields: readonly MatchedField[];
  /**
   * (Added.) On keyset searches (searchAfter given): the hit's value for each sort key (see
   * SearchSortValue), then its urn. Passed back as searchAfter, it continues after this hit. The
   * values are plain JSON, so a caller can carry them in an opaque cursor (e.g. base64url JSON).
   */
  readonly sortValues?: readonly SearchSortValue[];
}

export interface Aggregation {
  readonly field: string;
  readonly values: readonly { readonly value: string; readonly count: number }[];
}

export interface SearchResponse {
  readonly total: number;
  readonly hits: readonly SearchHit[];
  readonly aggregations: readonly Aggregation[];
}

export interface BrowseRequest {
  readonly entityType: string;
  /** Slash-delimited; `/` or empty is the root. */
  readonly path: string;
  readonly filter?: Filter;
  readonly start: number;
  readonly limit: number;
}

/**
 * A browse path is the folder an entity is listed in, as in the ecosystem's browse DAO: a dataset with
 * browse path `/prod/hive/db` is listed at `/prod/hive/db` (under its name), and makes `prod`, `hive`,
 * `db` groups at `/`, `/prod`, `/prod/hive`.
 */
export interface BrowseResponse {
  /**
   * Child segments under `path` that have entities deeper down, with the number of distinct entities
   * below each; ordered by name. Not paged.
   */
  readonly groups: readonly { readonly name: string; readonly count: number }[];
  /**
   * Entities whose browse path equals `path`, paged by start/limit, ordered by urn; `name` is the
   * document's `name`, else the name its URN gives it.
   */
  readonly entities: readonly { readonly urn: string; readonly name: string }[];
  /** Entities listed at `path` (before paging). */
  readonly totalEntities: number;
  /** Distinct entities at or below `path` (listed here or inside a group). */
  readonly totalNumEntities: number;
}

export interface AutocompleteRequest {
  readonly entityType: string;
  readonly query: string;
  /** One field to suggest from; defaults to the autocomplete fields of the entity. */
  readonly field?: string;
  readonly filter?: Filter;
  readonly limit: number;
}

export interface AutocompleteResponse {
  readonly suggestions: readonly string[];
  readonly entities: readonly string[];
}

/**
 * (Added.) One structured property as search needs it: the definitions view the indexer keeps beside
 * the documents (from the structuredProperty entities' propertyDefinition and status aspects). It names
 * and types the property's document field (see structuredPropertyFieldName) and decides which filters
 * and facets on `structuredProperties.<qualifiedName>` are allowed.
 */
export interface StructuredPropertySearchDefinition {
  readonly urn: string;
  readonly qualifiedName: string;
  /** The logical type of its valueType urn (`urn:li:dataType:datahub.number` → `number`). */
  readonly valueType: StructuredValueType;
  /** The definition's version; absent for an unversioned property. */
  readonly version?: string;
  /**
   * When `version` became the definition's version (ms since the epoch, the store's audit time of the
   * first definition write that carried it). Only values assigned at or after it are indexed: values
   * of older versions stay stored but leave search, filters and facets. Absent without a version.
   */
  readonly versionSince?: number;
  /** Soft-deleted (status.removed): its values stay indexed, but filters and facets on it are refused. */
  readonly removed: boolean;
}

/** (Added.) One holder of a structured property name (SearchIndex.structuredPropertyNameHolders). */
export interface StructuredPropertyNameHolder {
  readonly urn: string;
  readonly qualifiedName: string;
  /** The qualified name in its field form (normalizedPropertyName). */
  readonly normalizedName: string;
  /** In the view and live, in the view but soft-deleted, or hard-deleted with mappings maybe left. */
  readonly state: 'active' | 'removed' | 'retired';
}

/** (Added.) A retired (hard-deleted) structured property and the field mappings it leaves behind. */
export interface LeftoverStructuredProperty {
  readonly urn: string;
  readonly qualifiedName: string;
  readonly normalizedName: string;
  /** When it was retired (ms since the epoch). */
  readonly retiredAt: number;
  /**
   * Entity type → document field → documents of that entity index holding a value in it: the fields of
   * its name (`structuredProperties.<name>`, `structuredProperties._versioned.<name>.*`) that index
   * still maps and that no definition of the view claims. Empty once nothing is left.
   */
  readonly mappedFields: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** (Added.) Options of cleanupStructuredPropertyMappings. */
export interface StructuredPropertyMappingCleanupOptions {
  /**
   * Retired property urns whose fields stay mapped whatever the documents hold, their records kept
   * (listed in `kept`): e.g. those the store still holds values of that the indexer has yet to remove.
   */
  readonly keep?: readonly string[];
}

/** (Added.) What cleanupStructuredPropertyMappings did. */
export interface StructuredPropertyMappingCleanup {
  /** Entity types whose index lost mappings (sorted). */
  readonly cleanedEntityTypes: readonly string[];
  /** Entity type → the document fields no longer mapped there (sorted). */
  readonly removedFields: Readonly<Record<string, readonly string[]>>;
  /** Retired property urns forgotten: none of their fields is mapped anywhere any more. */
  readonly forgotten: readonly string[];
  /** The retired properties still leaving mappings (documents still hold their values), and those kept. */
  readonly kept: readonly LeftoverStructuredProperty[];
}

export interface SearchIndex {
  /** Creates the entity type's index with its mappings, or updates mappings compatibly (idempotent). */
  ensureIndex(spec: EntityIndexSpec): Promise<void>;
  /** Drops the entity type's index and its documents. */
  deleteIndex(entityType: string): Promise<void>;
  /** Bulk upsert (replace whole documents); idempotent. */
  upsert(documents: readonly EntityDocument[]): Promise<void>;
  /** Bulk delete; deleting an absent document is not an error. */
  delete(refs: readonly { readonly entityType: string; readonly urn: string }[]): Promise<void>;
  getDocument(entityType: string, urn: string): Promise<EntityDocument | null>;
  search(request: SearchRequest): Promise<SearchResponse>;
  browse(request: BrowseRequest): Promise<BrowseResponse>;
  autocomplete(request: AutocompleteRequest): Promise<AutocompleteResponse>;
  /**
   * (Added.) Stores structured property definitions in the definitions view (replacing those of the
   * same urn) and gives every entity index an explicit, typed mapping of their document fields, so
   * that their values are never mapped dynamically. Call before upserting documents with those fields.
   */
  putStructuredProperties(definitions: readonly StructuredPropertySearchDefinition[]): Promise<void>;
  /**
   * (Added.) Retires definitions (hard delete): they leave the view (getStructuredProperties no longer
   * returns them, filters and facets on their names are unknown properties), but a retired record stays
   * (urn, names, when, the document fields it had mapped) as long as their field mappings do: the
   * entity indices keep those until cleanupStructuredPropertyMappings removes them. A retired or absent
   * urn is no error; putting a retired urn again makes it active (and drops its retired record).
   */
  deleteStructuredProperties(urns: readonly string[]): Promise<void>;
  /** (Added.) The view's definitions of these urns; unknown urns are absent from the map. */
  getStructuredProperties(
    urns: readonly string[],
  ): Promise<ReadonlyMap<string, StructuredPropertySearchDefinition>>;
  /**
   * (Added.) Who holds these normalized names (normalizedPropertyName: `.` → `_`): every definition of
   * the view (`active`, or `removed` when soft-deleted) and every retired property whose mappings may
   * remain (`retired`). The write path refuses a new property whose name one of them holds under
   * another urn; a retired holder is forgotten by the cleanup once none of its mappings remain.
   */
  structuredPropertyNameHolders(
    normalizedNames: readonly string[],
  ): Promise<readonly StructuredPropertyNameHolder[]>;
  /**
   * (Added.) Every retired property with the field mappings it still leaves in each entity index and
   * how many documents there hold a value in each: what an operator waits on before running the
   * cleanup (values are removed asynchronously, by the indexer rebuilding the documents). Ordered by urn.
   */
  leftoverStructuredProperties(): Promise<readonly LeftoverStructuredProperty[]>;
  /**
   * (Added; the system-update job's step.) Per entity index, removes every structured property field
   * mapping that no definition of the view (active or soft-deleted) claims (retired properties' fields,
   * fields of versions no longer current) and that no document of that index holds a value in; a
   * mapping stays while even one value remains. Then forgets the retired properties none of whose
   * fields remain mapped anywhere. Running it again removes nothing more. Adapters say how writes that
   * arrive meanwhile are treated.
   */
  cleanupStructuredPropertyMappings(
    options?: StructuredPropertyMappingCleanupOptions,
  ): Promise<StructuredPropertyMappingCleanup>;
  /** Makes every completed write visible to reads (tests and read-your-writes waits). */
  /**
   * Resolves when the search engine answers a trivial request, rejects when it cannot be reached (or once
   * closed). Cheap: readiness probes call it.
   */
  ping(): Promise<void>;
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** An edge from an aspect's relationship annotation. */
export interface Edge {
  readonly source: string;
  readonly relationship: string;
  readonly target: string;
  /** The aspect that declared it: edges are replaced per (source, aspect). */
  readonly aspect: string;
  readonly createdAt?: number;
  readonly createdActor?: string;
}

/** The edges one aspect of one source declares now (empty: none any more). */
export interface EdgeReplacement {
  readonly source: string;
  readonly aspect: string;
  readonly edges: readonly Edge[];
}

export interface RelatedRequest {
  readonly urn: string;
  readonly direction: 'INCOMING' | 'OUTGOING';
  readonly types: readonly string[];
  readonly start: number;
  readonly count: number;
}

export interface RelatedResponse {
  readonly total: number;
  readonly relationships: readonly {
    readonly type: string;
    readonly entity: string;
    readonly created?: { time: number; actor: string };
  }[];
}

/** (Added.) One side of an edge in an edge scroll: its urn among `urns`, its entity type among `entityTypes`. */
export interface EdgeEndpointFilter {
  readonly urns?: readonly string[];
  readonly entityTypes?: readonly string[];
}

/** (Added.) Edges whose source and target pass these filters (an absent side: any). */
export interface EdgeMatch {
  readonly source?: EdgeEndpointFilter;
  readonly target?: EdgeEndpointFilter;
}

/** (Added.) An edge as an edge scroll lists it, once however many aspects declared it; also its position. */
export interface EdgeKey {
  readonly source: string;
  readonly relationship: string;
  readonly target: string;
}

/**
 * (Added.) A page of edges ordered by (source, relationship, target) as byte strings: those of `types`
 * (none: all) matching any of `match` (none: every edge), strictly after `after`.
 */
export interface EdgeScrollRequest {
  readonly types: readonly string[];
  readonly match: readonly EdgeMatch[];
  readonly after?: EdgeKey;
  readonly count: number;
}

export interface GraphIndex {
  ensure(): Promise<void>;
  /** Replaces every edge that `aspect` of `source` declared with `edges` (empty removes them). */
  replaceEdges(source: string, aspect: string, edges: readonly Edge[]): Promise<void>;
  /**
   * (Added, optional.) `replaceEdges` for many (source, aspect) pairs in one round trip, as if called in
   * order; the indexer uses it when present.
   */
  replaceEdgesMany?(items: readonly EdgeReplacement[]): Promise<void>;
  /** Removes every edge from or to the entity (entity deletion). */
  removeEntity(urn: string): Promise<void>;
  related(request: RelatedRequest): Promise<RelatedResponse>;
  /** (Added.) A page of edges, see EdgeScrollRequest; fewer than `count` only at the end. */
  scrollEdges(request: EdgeScrollRequest): Promise<readonly EdgeKey[]>;
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** (Added.) One batch of entity projection writes: the documents and edge sets a batch of changes leads to. */
export interface ProjectionWrites {
  /** Edge sets replaced, in order (as GraphIndex.replaceEdgesMany). */
  readonly edges: readonly EdgeReplacement[];
  /** Whole documents upserted (as SearchIndex.upsert). */
  readonly upserts: readonly EntityDocument[];
  /** Documents deleted (as SearchIndex.delete). */
  readonly deletes: readonly { readonly entityType: string; readonly urn: string }[];
}

/**
 * (Added, optional per adapter.) Writes a projection batch to the search and graph indices of one engine
 * together: on OpenSearch one bulk request (in chunks when large) rather than one per index. The same
 * outcome as replaceEdgesMany, then upsert, then delete; like them it is not atomic, and an error means
 * the batch is to be applied again (every write in it is idempotent).
 */
export interface ProjectionWriter {
  write(writes: ProjectionWrites): Promise<void>;
}

/** A time-series aspect value as indexed: one document per (urn, timestamp, partition/messageId). */
export interface TimeseriesDocument {
  readonly entityType: string;
  readonly aspect: string;
  readonly urn: string;
  readonly timestampMillis: number;
  /** Idempotency id: the same event indexed twice is one document. */
  readonly id: string;
  /** The aspect value as received. */
  readonly value: Readonly<Record<string, unknown>>;
  readonly systemMetadata?: Readonly<Record<string, unknown>>;
}

/** Where a time-series scan resumes: strictly after this document in the index's order. */
export interface TimeseriesPosition {
  readonly timestampMillis: number;
  readonly id: string;
}

export interface TimeseriesQuery {
  readonly entityType: string;
  readonly aspect: string;
  /** One entity's documents; absent, every entity's (a scan of the aspect). */
  readonly urn?: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly limit: number;
  readonly filter?: Filter;
  /** Keyset paging: resume after this document. */
  readonly after?: TimeseriesPosition;
}

/** One entity's documents of one aspect, by timestampMillis: the range is inclusive, an absent bound open. */
export interface TimeseriesDeletion {
  readonly entityType: string;
  readonly aspect: string;
  readonly urn: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  /** (Added.) Only the documents this ingestion run wrote (their systemMetadata.runId); absent: any. */
  readonly runId?: string;
}

/** (Added.) One (entityType, aspect, urn) holding documents of a run, and how many. */
export interface TimeseriesRunGroup {
  readonly entityType: string;
  readonly aspect: string;
  readonly urn: string;
  readonly count: number;
}

export interface TimeseriesIndex {
  ensure(entityType: string, aspect: string): Promise<void>;
  upsert(documents: readonly TimeseriesDocument[]): Promise<void>;
  /** Newest first; equal timestamps in ascending id order, so `after` pages neither repeat nor skip. */
  query(query: TimeseriesQuery): Promise<readonly TimeseriesDocument[]>;
  /**
   * Deletes the documents `deletion` names (no bound: all of the urn's documents of the aspect), also
   * those upserted just before, and returns how many it deleted. Idempotent: deleting what is gone (or
   * an aspect never written) deletes 0 and succeeds. Once it returns, `query` no longer finds them.
   */
  delete(deletion: TimeseriesDeletion): Promise<number>;
  /**
   * (Added.) How many documents `delete(range)` would delete now: the urn's documents of the aspect
   * whose timestampMillis is in the inclusive range (no bound: all), also those upserted just before.
   * An aspect never written counts 0.
   */
  count(range: TimeseriesDeletion): Promise<number>;
  /**
   * (Added.) The documents the ingestion run wrote (systemMetadata.runId, indexed as the document's run
   * id), of every entity type and aspect, grouped by (entityType, aspect, urn) with their counts, in
   * that order; also those upserted just before. A run that wrote none: [].
   */
  runGroups(runId: string): Promise<readonly TimeseriesRunGroup[]>;
  /** (Added.) How many documents the run wrote that are still indexed (every entity type and aspect). */
  countRun(runId: string): Promise<number>;
  /**
   * (Added.) Deletes every document the run wrote (every entity type and aspect), also those upserted
   * just before, and returns how many. Idempotent, as delete is.
   */
  deleteRun(runId: string): Promise<number>;
  /**
   * (Added.) An upgrade step for adapters whose documents indexed before the run id was kept lack it
   * (OpenSearch): indexes the run id of each such document from its stored system metadata, as upsert
   * does now (a document without one stays without), over every time-series index, and returns how many
   * documents it updated. Idempotent. Absent where the index fills it on open (SQLite).
   */
  backfillRunIds?(): Promise<number>;
  refresh(): Promise<void>;
  close(): Promise<void>;
}
