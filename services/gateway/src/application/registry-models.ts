import type { RequestContext } from '@catalog/auth';
import {
  entityRegistry,
  NotFoundError,
  ValidationError,
  type AspectSpec,
  type EntitySpec,
  type RelationshipAnnotation,
  type SearchableField,
} from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';

type Json = Record<string, unknown>;

/** A page as the ecosystem's PaginatedResponse: the elements, sorted by name, and where they sit. */
export interface RegistryPage {
  readonly elements: readonly Json[];
  readonly start: number;
  readonly count: number;
  readonly total: number;
}

/**
 * The entity registry's models (`/openapi/v1/registry/models`, the ecosystem's EntityRegistryController):
 * entity and aspect specifications, as its DTOs shape them, answered from the catalog's registry.
 * Needs MANAGE_SYSTEM_OPERATIONS.
 */
export class RegistryModels {
  constructor(private readonly policy: AccessPolicy) {}

  async entitySpecs(ctx: RequestContext, start: number, count: number): Promise<RegistryPage> {
    await this.policy.readEntityRegistry(ctx);
    return page(
      [...entityRegistry.entities()].sort((a, b) => compare(a.name, b.name)).map(entitySpecDto),
      start,
      count,
    );
  }

  /** One entity's name and aspect specifications; 404 for an entity the registry does not have. */
  async entitySpec(ctx: RequestContext, entityName: string): Promise<Json> {
    await this.policy.readEntityRegistry(ctx);
    const entity = entityOf(entityName);
    return { name: entity.name, aspectSpecs: [...entity.aspects.values()].map(aspectSpecDto) };
  }

  /** One entity's aspect specifications by aspect name. */
  async entityAspectSpecs(ctx: RequestContext, entityName: string): Promise<Json> {
    await this.policy.readEntityRegistry(ctx);
    const entity = entityOf(entityName);
    return Object.fromEntries([...entity.aspects.values()].map((a) => [a.name, aspectSpecDto(a)]));
  }

  async aspectSpecs(ctx: RequestContext, start: number, count: number): Promise<RegistryPage> {
    await this.policy.readEntityRegistry(ctx);
    return page(
      [...allAspects().entries()].sort(([a], [b]) => compare(a, b)).map(([, spec]) => aspectSpecDto(spec)),
      start,
      count,
    );
  }

  /**
   * The event specifications: the registry declares no events (nor does the ecosystem's core registry,
   * whose `events:` list is empty), so the page is empty.
   */
  async eventSpecs(ctx: RequestContext, start: number, count: number): Promise<RegistryPage> {
    await this.policy.readEntityRegistry(ctx);
    return page([], start, count);
  }

  /** One aspect's specification; 404 for an aspect no entity has. */
  async aspectSpec(ctx: RequestContext, aspectName: string): Promise<Json> {
    await this.policy.readEntityRegistry(ctx);
    const spec = allAspects().get(aspectName);
    if (spec === undefined) throw new NotFoundError(`Aspect ${aspectName} is not in the entity registry`);
    return aspectSpecDto(spec);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function entityOf(name: string): EntitySpec {
  const entity = entityRegistry.getEntity(name);
  if (entity === undefined)
    throw new NotFoundError(`Failed to find entity with name ${name} in EntityRegistry`);
  return entity;
}

/** Every aspect of every entity, by name (an aspect several entities share is one specification). */
function allAspects(): Map<string, AspectSpec> {
  const out = new Map<string, AspectSpec>();
  for (const entity of entityRegistry.entities())
    for (const aspect of entity.aspects.values()) if (!out.has(aspect.name)) out.set(aspect.name, aspect);
  return out;
}

/** The ecosystem's PaginatedResponse.fromMap: a start past the last element is refused. */
function page(sorted: readonly Json[], start: number, count: number): RegistryPage {
  if (sorted.length === 0) return { elements: [], start: 0, count: 0, total: 0 };
  if (start > sorted.length - 1)
    throw new ValidationError(`Start offset ${start} exceeds total ${sorted.length - 1}`);
  const elements = sorted.slice(start, start + count);
  return { elements, start, count: elements.length, total: sorted.length };
}

function entitySpecDto(entity: EntitySpec): Json {
  const aspects = [...entity.aspects.values()];
  const searchable = aspects.flatMap((a) => a.searchable);
  const relationships = aspects.flatMap((a) => a.relationships);
  const fieldTypes: Record<string, string[]> = {};
  for (const field of searchable) {
    const types = (fieldTypes[field.fieldName] ??= []);
    if (!types.includes(field.type)) types.push(field.type);
  }
  const key = entity.aspects.get(entity.keyAspect);
  return {
    name: entity.name,
    entityAnnotation: {
      name: entity.name,
      keyAspect: entity.keyAspect,
      viewUnrestricted: false,
    },
    keyAspectName: entity.keyAspect,
    ...(key === undefined ? {} : { keyAspectSpec: aspectSpecDto(key) }),
    aspectSpecs: aspects.map(aspectSpecDto),
    aspectSpecMap: Object.fromEntries(aspects.map((a) => [a.name, aspectSpecDto(a)])),
    searchableFieldSpecs: searchable.map(searchableFieldSpec),
    searchableFieldTypes: fieldTypes,
    searchScoreFieldSpecs: [],
    relationshipFieldSpecs: relationships.map(relationshipFieldSpec),
    searchableRefFieldSpecs: [],
    ...(entity.snapshotName === undefined
      ? {}
      : {
          snapshotSchemaName: entity.snapshotName,
          aspectTyperefSchemaName: entity.snapshotName
            .replace(/Snapshot$/, 'Aspect')
            .replace('.snapshot.', '.aspect.'),
        }),
  };
}

function aspectSpecDto(aspect: AspectSpec): Json {
  const searchable = Object.fromEntries(
    aspect.searchable.map((f) => [pathOf(f.path), searchableFieldSpec(f)]),
  );
  const relationships = Object.fromEntries(
    aspect.relationships.map((r) => [pathOf(r.path), relationshipFieldSpec(r)]),
  );
  return {
    aspectAnnotation: {
      name: aspect.name,
      timeseries: aspect.kind === 'timeseries',
      autoRender: false,
      schemaVersion: 1,
    },
    // Empty maps are left out, as the ecosystem's DTO leaves them out.
    ...(Object.keys(searchable).length === 0 ? {} : { searchableFieldSpec: searchable }),
    ...(Object.keys(relationships).length === 0 ? {} : { relationshipFieldSpec: relationships }),
  };
}

/** A field spec's path as the ecosystem's PathSpec prints it: `/` then the components. */
function pathOf(path: string): string {
  return `/${path.split('/').filter(Boolean).join('/')}`;
}

function components(path: string): string[] {
  return pathOf(path).split('/').filter(Boolean);
}

function searchableFieldSpec(field: SearchableField): Json {
  return {
    pathComponents: components(field.path),
    fieldType: 'SearchableFieldSpec',
    annotations: {
      searchableAnnotation: {
        fieldName: field.fieldName,
        fieldType: field.type,
        queryByDefault: field.queryByDefault ?? false,
        enableAutocomplete: field.enableAutocomplete ?? false,
        addToFilters: field.addToFilters ?? false,
        ...(field.filterName === undefined ? {} : { filterNameOverride: field.filterName }),
        ...(field.boost === undefined ? {} : { boostScore: field.boost }),
        ...(field.hasValuesFieldName === undefined ? {} : { hasValuesFieldName: field.hasValuesFieldName }),
        ...(field.numValuesFieldName === undefined ? {} : { numValuesFieldName: field.numValuesFieldName }),
        ...(field.fieldNameAliases === undefined ? {} : { fieldNameAliases: [...field.fieldNameAliases] }),
      },
    },
    properties: {},
  };
}

function relationshipFieldSpec(relationship: RelationshipAnnotation): Json {
  return {
    pathComponents: components(relationship.path),
    fieldType: 'RelationshipFieldSpec',
    annotations: {
      relationshipAnnotation: {
        name: relationship.name,
        validDestinationTypes: [...relationship.entityTypes],
        isLineage: relationship.isLineage ?? false,
        isUpstream: relationship.isUpstream ?? true,
      },
    },
    properties: {},
  };
}
