/** Search, scroll, aggregation, autocomplete and browse, in the ecosystem's GraphQL shapes. */
export const searchSchema = `
enum FilterOperator {
  CONTAIN EQUAL IEQUAL IN EXISTS GREATER_THAN GREATER_THAN_OR_EQUAL_TO LESS_THAN LESS_THAN_OR_EQUAL_TO
  START_WITH END_WITH DESCENDANTS_INCL ANCESTORS_INCL RELATED_INCL
}
enum SortOrder { ASCENDING DESCENDING }

input FacetFilterInput {
  field: String!
  value: String @deprecated(reason: "Use values")
  values: [String!]
  negated: Boolean
  condition: FilterOperator
}
input AndFilterInput { and: [FacetFilterInput!] }

input GroupingCriterion { baseEntityType: EntityType groupingEntityType: EntityType! }
input GroupingSpec { groupingCriteria: [GroupingCriterion!] }

input SearchFlags {
  skipCache: Boolean
  maxAggValues: Int
  fulltext: Boolean
  skipHighlighting: Boolean
  skipAggregates: Boolean
  getSuggestions: Boolean
  groupingSpec: GroupingSpec
  includeSoftDeleted: Boolean
  includeRestricted: Boolean
  customHighlightingFields: [String!]
  includeStructuredPropertyFacets: Boolean
  filterNonLatestVersions: Boolean
  includeExplain: Boolean
  searchType: String
  minScore: Float
}

input SortCriterion { field: String! sortOrder: SortOrder! }
input SearchSortInput { sortCriterion: SortCriterion sortCriteria: [SortCriterion!] }

input SearchInput {
  type: EntityType!
  query: String!
  start: Int
  count: Int
  filters: [FacetFilterInput!]
  orFilters: [AndFilterInput!]
  searchFlags: SearchFlags
  sortInput: SearchSortInput
}

input SearchAcrossEntitiesInput {
  types: [EntityType!]
  query: String!
  start: Int
  count: Int
  filters: [FacetFilterInput!]
  orFilters: [AndFilterInput!]
  viewUrn: String
  searchFlags: SearchFlags
  sortInput: SearchSortInput
}

input ScrollAcrossEntitiesInput {
  types: [EntityType!]
  query: String!
  scrollId: String
  keepAlive: String
  count: Int
  orFilters: [AndFilterInput!]
  viewUrn: String
  searchFlags: SearchFlags
  sortInput: SearchSortInput
}

input AggregateAcrossEntitiesInput {
  types: [EntityType!]
  query: String!
  facets: [String]
  orFilters: [AndFilterInput!]
  viewUrn: String
  searchFlags: SearchFlags
}

type MatchedField { name: String! value: String! entity: Entity }
type SearchInsight { text: String! icon: String }
type ExtraProperty { name: String! value: String! }
type SearchResult {
  entity: Entity!
  insights: [SearchInsight!]
  matchedFields: [MatchedField!]!
  extraProperties: [ExtraProperty!]
}
type AggregationMetadata { value: String! count: Long! entity: Entity displayName: String }
type FacetMetadata { field: String! displayName: String entity: Entity aggregations: [AggregationMetadata!]! }
type SearchSuggestion { text: String! score: Float frequency: Int }
type SearchResults {
  start: Int!
  count: Int!
  total: Int!
  searchResults: [SearchResult!]!
  facets: [FacetMetadata!]
  suggestions: [SearchSuggestion!]
}
type ScrollResults {
  nextScrollId: String
  count: Int!
  total: Int!
  searchResults: [SearchResult!]!
  facets: [FacetMetadata!]
}
type AggregateResults { facets: [FacetMetadata!] }

input AutoCompleteInput {
  type: EntityType
  query: String!
  field: String
  limit: Int
  filters: [FacetFilterInput!]
  orFilters: [AndFilterInput!]
}
input AutoCompleteMultipleInput {
  types: [EntityType!]
  query: String!
  field: String
  limit: Int
  filters: [FacetFilterInput!]
  orFilters: [AndFilterInput!]
  viewUrn: String
}
type AutoCompleteResults { query: String! suggestions: [String!]! entities: [Entity!]! }
type AutoCompleteResultForEntity { type: EntityType! suggestions: [String!]! entities: [Entity!]! }
type AutoCompleteMultipleResults { query: String! suggestions: [AutoCompleteResultForEntity!]! }

input BrowseInput {
  type: EntityType!
  path: [String!]
  start: Int
  count: Int
  filters: [FacetFilterInput!]
  orFilters: [AndFilterInput!]
}
type BrowseResultGroup { name: String! count: Long! }
type BrowseResultMetadata { path: [String!]! totalNumEntities: Long! }
type BrowseResults {
  entities: [Entity!]!
  groups: [BrowseResultGroup!]!
  start: Int!
  count: Int!
  total: Int!
  metadata: BrowseResultMetadata!
}

extend type Query {
  search(input: SearchInput!): SearchResults
  searchAcrossEntities(input: SearchAcrossEntitiesInput!): SearchResults
  scrollAcrossEntities(input: ScrollAcrossEntitiesInput!): ScrollResults
  aggregateAcrossEntities(input: AggregateAcrossEntitiesInput!): AggregateResults
  autoComplete(input: AutoCompleteInput!): AutoCompleteResults
  autoCompleteForMultiple(input: AutoCompleteMultipleInput!): AutoCompleteMultipleResults
  browse(input: BrowseInput!): BrowseResults
}
`;
