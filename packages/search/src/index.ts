export { sequentialProjectionWriter } from './sequential-projection-writer.js';
export {
  CONDITIONS,
  MAX_SLICES,
  type Aggregation,
  type AutocompleteRequest,
  type AutocompleteResponse,
  type BrowseRequest,
  type BrowseResponse,
  type Condition,
  type Criterion,
  type Edge,
  type EdgeEndpointFilter,
  type EdgeKey,
  type EdgeMatch,
  type EdgeReplacement,
  type EdgeScrollRequest,
  type EntityDocument,
  type EntityIndexSpec,
  type FieldMapping,
  type Filter,
  type GraphIndex,
  type LeftoverStructuredProperty,
  type MatchedField,
  type ProjectionWriter,
  type ProjectionWrites,
  type RelatedRequest,
  type RelatedResponse,
  type SearchHit,
  type SearchIndex,
  type SearchRequest,
  type SearchResponse,
  type SearchScalar,
  type SearchSlice,
  type SearchSortValue,
  type SortCriterion,
  type SortOrder,
  type StructuredPropertyMappingCleanup,
  type StructuredPropertyMappingCleanupOptions,
  type StructuredPropertyNameHolder,
  type StructuredPropertySearchDefinition,
  type TimeseriesDeletion,
  type TimeseriesRunGroup,
  type TimeseriesDocument,
  type TimeseriesIndex,
  type TimeseriesPosition,
  type TimeseriesQuery,
} from './port.js';
export {
  BROWSE_PATHS_FIELD,
  CUSTOM_PROPERTIES_FIELD,
  ENTITY_NAME_ALIAS,
  ENTITY_TYPE_FIELD,
  isTextualType,
  NUMERIC_TYPES,
  REMOVED_FIELD,
  URN_FIELD,
} from './document-fields.js';
export { fullTextBoost, indexSpecFor, resolveField } from './index-spec-for.js';
export { buildEntityDocument, type DocumentContext } from './build-entity-document.js';
export {
  dateToEpochMillis,
  entityTypesWithStructuredProperties,
  epochMillisToDate,
  isStructuredPropertyField,
  normalizedPropertyName,
  STRUCTURED_PROPERTIES_PREFIX,
  STRUCTURED_PROPERTY_URNS_FIELD,
  structuredFieldMapping,
  structuredPropertyFieldName,
  structuredValueTypeOf,
  type StructuredValueType,
} from './structured-property-fields.js';
export {
  structuredPropertyDocumentFields,
  type OversizedValue,
  type StructuredPropertyDocumentFields,
  type StructuredPropertyIndexing,
} from './structured-property-values.js';
export {
  resolveStructuredProperties,
  structuredPropertyNamesOf,
  withoutStructuredProperties,
  type DefinitionsByName,
  type StructuredResolution,
} from './resolve-structured-properties.js';
export { defaultBrowsePath, normalizeBrowsePath } from './default-browse-path.js';
export { edgesFor } from './edges-for.js';
export { timeseriesDocumentId, timeseriesRunIdOf } from './timeseries-document-id.js';
export { valuesAtPath } from './values-at-path.js';
export { normalizeFilter, stripKeywordSuffix } from './normalize-filter.js';
export { parseSearchInput, type SearchQuery } from './parse-search-input.js';
export {
  conditionsFor,
  filterMentions,
  MAX_FILTER_CRITERIA,
  MAX_FILTER_VALUES,
  MAX_PATTERN_VALUES,
  requireField,
  validateFilter,
} from './validate-filter.js';
export {
  DEFAULT_MAX_AGG_VALUES,
  MAX_PAGE_SIZE,
  MAX_SEARCH_INPUT_LENGTH,
  validateAutocompleteRequest,
  validateBrowseRequest,
  validateSearchRequest,
  type IndexSpecLookup,
  type NormalizedSearch,
} from './validate-search-request.js';
export type { KeysetPosition, NormalizedSort } from './validate-sort.js';
export { sliceOfUrn } from './slice-of-urn.js';
export { compareCodePoints, compareSortValues, sortKindOf, type SortKind } from './sort-values.js';
export { matchesFilter } from './matches-filter.js';
export { anyTermMatchesText, fullTextOf, termsMatchText, tokenize } from './text-tokens.js';
export { openEmbeddedSearch, type EmbeddedSearch } from './embedded/open-embedded-search.js';
export type { WarmOptions } from './embedded/search-warmer.js';
export type { EmbeddedSearchOptions } from './embedded/sqlite-handle.js';
export { SqliteSearchIndex } from './embedded/sqlite-search-index.js';
export { SqliteGraphIndex } from './embedded/sqlite-graph-index.js';
export { SqliteTimeseriesIndex } from './embedded/sqlite-timeseries-index.js';
export {
  AUDIT_EVENT_TYPES,
  isAuditEventType,
  isLoginEventType,
  LOGIN_EVENT_TYPES,
  type AuditEventType,
} from './audit/audit-event-types.js';
export {
  AUDIT_TOTAL_CAP,
  type AuditCount,
  type AuditCountField,
  type AuditCountQuery,
  type AuditCursor,
  type AuditEvent,
  type AuditIndex,
  type AuditInterval,
  type AuditPage,
  type AuditQuery,
} from './audit/audit-index.js';
export {
  AUDIT_MAX_FILTER_VALUES,
  AUDIT_MAX_PAGE_SIZE,
  auditDayOf,
  auditDayStart,
  auditEventMatches,
  compareAuditOrder,
  cursorOf,
  DAY_MS,
  dayExpired,
  dayOverlaps,
  DEFAULT_AUDIT_RETENTION_DAYS,
  normalizeAuditQuery,
  validateAuditEvent,
  type AuditFilters,
  type NormalizedAuditQuery,
} from './audit/audit-partitions.js';
export {
  AuditCounter,
  auditIntervalStart,
  normalizeAuditCountQuery,
  type NormalizedAuditCountQuery,
} from './audit/audit-counts.js';
export {
  openSqliteAuditIndex,
  SqliteAuditIndex,
  type OpenSqliteAuditIndexOptions,
  type SqliteAuditIndexOptions,
} from './embedded/sqlite-audit-index.js';
// The OpenSearch adapters are imported from '@catalog/search/opensearch', so that a process using the
// embedded indices never loads the OpenSearch client.
