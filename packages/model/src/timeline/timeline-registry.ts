import type { ChangeCategory } from './change-event.js';

type CategoryAspects = Readonly<Partial<Record<ChangeCategory, readonly string[]>>>;

const AGENT_FAMILY: CategoryAspects = {
  OWNERSHIP: ['ownership'],
  DOCUMENTATION: ['institutionalMemory'],
  TAG: ['globalTags'],
  GLOSSARY_TERM: ['glossaryTerms'],
};

/**
 * Which aspects' changes make up each category of an entity type's timeline (the ecosystem's timeline
 * registry): only these entity types have a timeline.
 */
const TIMELINE_ASPECTS: Readonly<Record<string, CategoryAspects>> = {
  dataset: {
    TAG: ['schemaMetadata', 'editableSchemaMetadata', 'globalTags'],
    OWNERSHIP: ['ownership'],
    DOCUMENTATION: [
      'institutionalMemory',
      'editableDatasetProperties',
      'datasetProperties',
      'editableSchemaMetadata',
      'schemaMetadata',
    ],
    GLOSSARY_TERM: ['glossaryTerms', 'editableSchemaMetadata'],
    TECHNICAL_SCHEMA: ['schemaMetadata'],
    DOMAIN: ['domains'],
    STRUCTURED_PROPERTY: ['structuredProperties'],
    APPLICATION: ['applications'],
    VERSIONING: ['versionProperties'],
  },
  glossaryTerm: {
    OWNERSHIP: ['ownership'],
    DOCUMENTATION: ['glossaryTermInfo'],
    GLOSSARY_TERM: ['glossaryRelatedTerms'],
    DOMAIN: ['domains'],
    STRUCTURED_PROPERTY: ['structuredProperties'],
    APPLICATION: ['applications'],
    VERSIONING: ['versionProperties'],
  },
  domain: {
    OWNERSHIP: ['ownership'],
    DOCUMENTATION: ['institutionalMemory', 'domainProperties'],
    STRUCTURED_PROPERTY: ['structuredProperties'],
  },
  dataProduct: {
    OWNERSHIP: ['ownership'],
    DOCUMENTATION: ['dataProductProperties'],
    TAG: ['globalTags'],
    GLOSSARY_TERM: ['glossaryTerms'],
    DOMAIN: ['domains'],
    STRUCTURED_PROPERTY: ['structuredProperties'],
    APPLICATION: ['applications'],
    ASSET_MEMBERSHIP: ['dataProductProperties'],
  },
  document: {
    LIFECYCLE: ['documentInfo'],
    DOCUMENTATION: ['documentInfo'],
    PARENT: ['documentInfo'],
    RELATED_ENTITIES: ['documentInfo'],
  },
  aiAgent: AGENT_FAMILY,
  api: AGENT_FAMILY,
  agentSkill: AGENT_FAMILY,
};

/** Whether the entity type has a timeline. */
export function hasTimeline(entityType: string): boolean {
  return Object.hasOwn(TIMELINE_ASPECTS, entityType);
}

/** The aspects whose versions a timeline of these categories reads, for an entity type with one. */
export function timelineAspects(entityType: string, categories: Iterable<ChangeCategory>): Set<string> {
  const registry = TIMELINE_ASPECTS[entityType] ?? {};
  const aspects = new Set<string>();
  for (const category of categories) for (const aspect of registry[category] ?? []) aspects.add(aspect);
  return aspects;
}

/** The categories of the timeline an aspect's changes are reported in, of those asked. */
export function timelineCategoriesOf(
  entityType: string,
  aspect: string,
  categories: Iterable<ChangeCategory>,
): Set<ChangeCategory> {
  const registry = TIMELINE_ASPECTS[entityType] ?? {};
  const found = new Set<ChangeCategory>();
  for (const category of categories) if (registry[category]?.includes(aspect)) found.add(category);
  return found;
}
