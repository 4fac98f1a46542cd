/**
 * What each tool is for and how it chains with the others, written for the model that calls them.
 * Parameter names are mcp-server-datahub's, so prompts written for it carry over.
 */
export const FILTER_HELP = `FILTER (optional, SQL-like): field = value, field != value, field IN (a, b), field > 10,
field IS NULL, field IS NOT NULL, combined with AND, OR, NOT and parentheses. Quote values with spaces.
Fields: entity_type (dataset, dashboard, chart, dataJob, dataFlow, container, domain, glossaryTerm, tag,
corp_user, corp_group, dataProduct, query, ...), entity_subtype (Table, View, ...), platform (snowflake or
urn:li:dataPlatform:snowflake), env (PROD, DEV, ...), domain, container, tag, glossary_term, owner (full urns,
e.g. urn:li:tag:pii), deprecated (true/false), status (NOT_SOFT_DELETED default, ALL, ONLY_SOFT_DELETED),
structuredProperties.<qualifiedName>. Example: entity_type = dataset AND (platform = snowflake OR tag = urn:li:tag:pii)`;

export const TOOL_DESCRIPTIONS = {
  search: `Find metadata entities (datasets, dashboards, charts, pipelines, glossary terms, tags, users, domains, ...)
by keywords and filters. Start here when you know a name or topic but not a urn. Each result is a short
summary with its urn; pass urns to get_entities for details, list_schema_fields for columns, get_lineage for
what feeds or uses it. query: keywords ("orders", "customer email"), "*" for everything. num_results up to
50; page with offset (the result says nextOffset when there is more). Set num_results=0 to see only the
facets: which platforms, tags, terms, domains and owners occur, with counts, to choose a filter.`,

  get_entities: `Read the full summary of one or more entities by urn (from search, lineage or a user's question):
name, platform, description, owners, tags, glossary terms, domain, container, structured and custom
properties, deprecation, the number of schema fields, and for a query entity its SQL. Pass one urn or a list
(up to 25). An entity you may not read comes back as an error entry, not its contents. For a dataset's
columns use list_schema_fields.`,

  list_schema_fields: `List a dataset's columns: field path, native type, nullability, description, tags and glossary
terms. With keywords (a string or list), columns matching any keyword in name, description or labels come
first and matchingCount says how many matched; use this to find "the email column" in a wide table instead of
paging through all of it. Page with offset and limit; remainingCount says how many are left.`,

  get_lineage: `Follow lineage from an entity: upstream=true for where its data comes from, false for what
depends on it (impact analysis). max_hops: 1 (direct neighbours, the default), 2, or 3 and more for the whole
graph. Give column to follow one column of a dataset (column-level lineage; results carry the paths of
column urns). query narrows the entities found by keywords; filter by the fields below. Results give each
entity's summary and its degree (hops away); facets count what was found by platform, type and more. Page
with offset. To see how two known entities connect, use get_lineage_paths_between instead.`,

  get_lineage_paths_between: `Explain how data flows from one entity (or column, with source_column) to another
(target_urn, target_column): every shortest lineage path between them, as lists of urns from source to target
with the jobs and queries in between. direction: "downstream" (target depends on source) or "upstream";
leave it out to try downstream first, then upstream. Use get_entities on the urns of a path (a query urn
gives its SQL) to explain each step.`,

  get_dataset_queries: `List the SQL queries recorded against a dataset (or one of its columns, with column), newest
first: their statement, source (MANUAL: written by people; SYSTEM: observed from query logs) and the datasets
they touch. Use it to show how a table is used or joined. Page with start and count.`,

  add_tags: `Add existing tags (tag_urns) to entities (entity_urns), or to columns: column_paths is aligned with
entity_urns, one field path (or null for the entity itself) per entity. Find tag urns with search
(filter "entity_type = tag"). Needs the privilege to edit tags on each entity.`,
  remove_tags: `Remove tags (tag_urns) from entities (entity_urns), or from their columns (column_paths aligned with
entity_urns). Needs the privilege to edit tags on each entity.`,
  add_terms: `Add existing glossary terms (term_urns) to entities (entity_urns) or their columns (column_paths aligned
with entity_urns). Find term urns with search (filter "entity_type = glossaryTerm"). Needs the privilege to
edit glossary terms on each entity.`,
  remove_terms: `Remove glossary terms (term_urns) from entities (entity_urns) or their columns (column_paths aligned
with entity_urns, one field path or null per entity). Needs the privilege to edit glossary terms.`,
  add_owners: `Make users or groups (owner_urns: urn:li:corpuser:..., urn:li:corpGroup:...) owners of entities
(entity_urns). ownership_type: an ownership type urn (urn:li:ownershipType:...) or a name such as
TECHNICAL_OWNER, BUSINESS_OWNER, DATA_STEWARD. Needs the privilege to edit owners.`,
  remove_owners: `Remove owners (owner_urns) from entities (entity_urns): every ownership of each owner, or only that of
ownership_type when given.`,
  set_domains: `Put entities (entity_urns) into a domain (domain_urn; an entity has at most one). Find domains with
search (filter "entity_type = domain").`,
  remove_domains: `Take entities (entity_urns) out of their domain, leaving them in none. To move them to another
domain, use set_domains instead (it replaces the current one).`,
  update_description: `Change the documentation of an entity (entity_urn) or of one of its columns (column_path).
operation: "replace" (the default) sets description, "append" adds it after the current text, "remove"
clears it. Read the current text first with get_entities or list_schema_fields.`,
  add_structured_properties: `Set structured property values on entities: property_values maps a property urn
(urn:li:structuredProperty:...) to its list of values (strings; numbers for number properties), entity_urns
lists the entities. get_entities on the property urn shows its type and allowed values.`,
  remove_structured_properties: `Remove structured properties (property_urns) and all their values from entities
(entity_urns). get_entities shows which properties an entity has.`,
} as const;
