import { corpUserStatusField } from '../users/user-admin.js';
import { entityRegistry, stringifyJson, ValidationError, withDoubles } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import {
  auditStamp,
  browsePathV2,
  customProperties,
  deprecation,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  list,
  num,
  ownership,
  platformSchema,
  schemaField,
  str,
} from './aspect-views.js';
import {
  PROPERTY_VALUE_RESOLVER,
  STRUCTURED_PROPERTY_TYPE_RESOLVERS,
  structuredPropertiesField,
} from '../structured-properties/structured-properties-views.js';
import { keyOf, refOf, requireRef, type EntityRef } from './entity-ref.js';
import { NON_ENTITY_TYPES, TYPED_GETTERS } from './entity-schema.js';
import { ML_RESOLVERS } from './ml-resolvers.js';
import { READ_FIELD_RESOLVERS } from './read-field-resolvers.js';
import { TIMESERIES_FIELD_RESOLVERS } from './timeseries-field-resolvers.js';
import { RESOLVABLE_TYPES, typeNameOfEntity, typeOfEntity } from './entity-types.js';

type Json = Readonly<Record<string, unknown>>;
type Resolver = (ref: EntityRef, args: Record<string, unknown>, ctx: GraphQLContext) => unknown;

const aspect = (ctx: GraphQLContext, ref: EntityRef, name: string): Promise<Json | undefined> =>
  ctx.entities.aspect<Json>(ref.urn, name);

function page(args: Record<string, unknown>): { start: number; count: number } {
  const input = (args['input'] ?? {}) as { start?: number | null; count?: number | null };
  const start = input.start ?? 0;
  const count = input.count ?? 100;
  if (start < 0 || count < 0 || count > 10_000)
    throw new ValidationError('start must be 0 or more and count from 0 to 10000');
  return { start, count };
}

/** The fields every entity type has. */
const COMMON: Record<string, Resolver> = {
  urn: (ref) => ref.urn,
  type: (ref) => typeOfEntity(ref.entity),
  exists: async (ref, _args, ctx) => ctx.entities.exists(ref.urn),
  relationships: async (ref, args, ctx) => {
    const input = args['input'] as { types: string[]; direction: 'INCOMING' | 'OUTGOING' };
    const { start, count } = page(args);
    const related = await ctx.services.app.lineage.related(ctx.auth, {
      urn: ref.urn,
      direction: input.direction,
      types: input.types,
      start,
      count,
    });
    return {
      start,
      count: related.relationships.length,
      total: related.total,
      relationships: related.relationships.map((r) => ({
        type: r.type,
        direction: input.direction,
        entity: refOf(r.entity) ?? null,
        created: r.created ?? null,
      })),
    };
  },
  lineage: async (ref, args, ctx) => {
    const input = args['input'] as { direction: 'UPSTREAM' | 'DOWNSTREAM' };
    const { start, count } = page(args);
    const found = await ctx.services.app.lineage.neighbours(ctx.auth, ref.urn, input.direction, {
      start,
      count,
    });
    return {
      start,
      count: found.relationships.length,
      total: found.total,
      filtered: 0,
      relationships: found.relationships.map((r) => ({
        type: r.type,
        entity: refOf(r.entity) ?? null,
        degree: 1,
        createdOn: r.created?.time ?? null,
        createdActor: refOf(r.created?.actor) ?? null,
        updatedOn: r.created?.time ?? null,
        updatedActor: refOf(r.created?.actor) ?? null,
        isManual: false,
        paths: [{ path: r.path.map((u) => refOf(u) ?? null) }],
      })),
    };
  },
  aspects: async (ref, args, ctx) => {
    const names = (args['input'] as { aspectNames?: string[] | null } | undefined)?.aspectNames;
    const entity = entityRegistry.requireEntity(ref.entity);
    for (const name of names ?? [])
      if (!entity.aspects.has(name))
        throw new ValidationError(`Unknown aspect ${name} for entity ${ref.entity}`);
    // The loader gives what the actor may see: no aspects of an entity it may not read, and restricted
    // ones (credentials, secret values) to the system actor only.
    const stored = await ctx.entities.load(ref.urn);
    return [...stored.values()]
      .filter((a) => names === undefined || names === null || names.includes(a.aspect))
      .map((a) => ({ aspectName: a.aspect, payload: stringifyJson(withDoubles(a.aspect, a.value)) }));
  },
  status: async (ref, _a, ctx) => {
    const value = await aspect(ctx, ref, 'status');
    return value === undefined ? null : { removed: value['removed'] === true, stored: value };
  },
  ownership: async (ref, _a, ctx) => ownership(await aspect(ctx, ref, 'ownership'), ref),
  tags: async (ref, _a, ctx) => globalTags(await aspect(ctx, ref, 'globalTags'), ref),
  globalTags: async (ref, _a, ctx) => globalTags(await aspect(ctx, ref, 'globalTags'), ref),
  glossaryTerms: async (ref, _a, ctx) => glossaryTerms(await aspect(ctx, ref, 'glossaryTerms'), ref),
  domain: async (ref, _a, ctx) => {
    const value = await aspect(ctx, ref, 'domains');
    const first = Array.isArray(value?.['domains']) ? refOf(value['domains'][0]) : undefined;
    return first ? { domain: first, associatedUrn: ref.urn } : null;
  },
  deprecation: async (ref, _a, ctx) => deprecation(await aspect(ctx, ref, 'deprecation')),
  institutionalMemory: async (ref, _a, ctx) =>
    institutionalMemory(await aspect(ctx, ref, 'institutionalMemory'), ref),
  subTypes: async (ref, _a, ctx) => {
    const value = await aspect(ctx, ref, 'subTypes');
    return value === undefined ? null : { typeNames: value['typeNames'] ?? [] };
  },
  container: async (ref, _a, ctx) => refOf((await aspect(ctx, ref, 'container'))?.['container']) ?? null,
  browsePathV2: async (ref, _a, ctx) => browsePathV2(await aspect(ctx, ref, 'browsePathsV2')),
  dataPlatformInstance: async (ref, _a, ctx) => {
    const value = await aspect(ctx, ref, 'dataPlatformInstance');
    if (value === undefined) return null;
    const platform = str(value['platform']);
    const instance = str(value['instance']);
    if (instance !== null) return refOf(instance) ?? null;
    // Without an instance the ecosystem still shows the platform, under an instance urn of its own.
    return {
      urn: `urn:li:dataPlatformInstance:(${platform ?? ''},)`,
      entity: 'dataPlatformInstance',
      known: { platform },
    };
  },
  structuredProperties: structuredPropertiesField,
};

/** `{name, description, externalUrl, customProperties}` of an info aspect, with the name's fallback. */
/** A list of urns as entity references (foreign key fields). */
const urnsOf = (value: unknown) => (Array.isArray(value) ? value.map((u) => refOf(u) ?? null) : []);

function infoProperties(value: Json | undefined, ref: EntityRef, fallbackName: string) {
  if (value === undefined) return null;
  return {
    name: str(value['name']) ?? str(value['title']) ?? fallbackName,
    description: str(value['description']),
    externalUrl: str(value['externalUrl']),
    customProperties: customProperties(value['customProperties'], ref),
  };
}

const platformRef = (name: unknown): EntityRef | null =>
  typeof name === 'string' ? { urn: `urn:li:dataPlatform:${name}`, entity: 'dataPlatform' } : null;

function chartLike(value: Json | undefined, ref: EntityRef, fallbackName: string) {
  if (value === undefined) return null;
  const changes = (value['lastModified'] ?? {}) as Json;
  return {
    ...infoProperties(value, ref, fallbackName),
    chartUrl: str(value['chartUrl']),
    dashboardUrl: str(value['dashboardUrl']),
    access: str(value['access']),
    // chartInfo's chart type; dashboards have none (DashboardProperties has no such field).
    type: str(value['type']),
    lastRefreshed: num(value['lastRefreshed']),
    created: auditStamp(changes['created']),
    lastModified: auditStamp(changes['lastModified']),
  };
}

const SPECIFIC: Record<string, Record<string, Resolver>> = {
  VersionSet: {
    latestVersion: async (ref, _a, ctx) => {
      const latest = refOf((await aspect(ctx, ref, 'versionSetProperties'))?.['latest']);
      return latest === undefined ? null : existing(ctx, latest);
    },
  },
  Dataset: {
    name: (ref) => str(keyOf(ref)['name']) ?? ref.urn,
    platform: (ref) => refOf(keyOf(ref)['platform']),
    origin: (ref) => keyOf(ref)['origin'],
    description: async (ref, _a, ctx) => str((await aspect(ctx, ref, 'datasetProperties'))?.['description']),
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'datasetProperties');
      if (value === undefined) return null;
      const key = keyOf(ref);
      return {
        ...infoProperties(value, ref, str(key['name']) ?? ref.urn),
        qualifiedName: str(value['qualifiedName']),
        origin: key['origin'],
        created: num((value['created'] as Json | undefined)?.['time']),
        lastModified: auditStamp(value['lastModified']),
      };
    },
    editableProperties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'editableDatasetProperties');
      return value === undefined
        ? null
        : { description: str(value['description']), name: str(value['name']) };
    },
    schemaMetadata: async (ref, args, ctx) => {
      const version = typeof args['version'] === 'number' ? args['version'] : 0;
      const aspectVersion = await ctx.entities.stored(ref.urn, 'schemaMetadata', version);
      if (aspectVersion === undefined) return null;
      const stored = aspectVersion.value;
      return {
        datasetUrn: str(stored['dataset']),
        aspectVersion: aspectVersion.version,
        // When the schema was created: its own `created` stamp, else (absent, or the SDK's default stamp
        // of time 0) when this version of it was written.
        createdAt: num((stored['created'] as Json | undefined)?.['time']) || aspectVersion.created.time,
        cluster: str(stored['cluster']),
        name: str(stored['schemaName']) ?? '',
        platformUrn: str(stored['platform']) ?? '',
        version: num(stored['version']) ?? 0,
        hash: str(stored['hash']) ?? '',
        fields: list(stored['fields']).map((f) => schemaField(f, ref)),
        primaryKeys: Array.isArray(stored['primaryKeys']) ? stored['primaryKeys'] : null,
        platformSchema: platformSchema(stored['platformSchema']),
        foreignKeys: Array.isArray(stored['foreignKeys'])
          ? list(stored['foreignKeys']).map((k) => ({
              name: str(k['name']),
              foreignDataset: refOf(k['foreignDataset']) ?? null,
              foreignFields: urnsOf(k['foreignFields']),
              sourceFields: urnsOf(k['sourceFields']),
            }))
          : null,
      };
    },
    editableSchemaMetadata: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'editableSchemaMetadata');
      if (value === undefined) return null;
      return {
        editableSchemaFieldInfo: list(value['editableSchemaFieldInfo']).map((f) => ({
          fieldPath: str(f['fieldPath']) ?? '',
          description: str(f['description']),
          globalTags: globalTags(f['globalTags'] as Json | undefined, ref),
          // The deprecated name of globalTags, still selected by the ecosystem's clients.
          tags: globalTags(f['globalTags'] as Json | undefined, ref),
          glossaryTerms: glossaryTerms(f['glossaryTerms'] as Json | undefined, ref),
        })),
      };
    },
  },
  Chart: {
    tool: (ref) => keyOf(ref)['dashboardTool'],
    chartId: (ref) => keyOf(ref)['chartId'],
    platform: (ref) => platformRef(keyOf(ref)['dashboardTool']),
    properties: async (ref, _a, ctx) =>
      chartLike(await aspect(ctx, ref, 'chartInfo'), ref, str(keyOf(ref)['chartId']) ?? ref.urn),
    editableProperties: async (ref, _a, ctx) => editable(await aspect(ctx, ref, 'editableChartProperties')),
    query: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'chartQuery');
      return value === undefined
        ? null
        : { rawQuery: str(value['rawQuery']) ?? '', type: str(value['type']) ?? 'SQL' };
    },
  },
  Dashboard: {
    tool: (ref) => keyOf(ref)['dashboardTool'],
    dashboardId: (ref) => keyOf(ref)['dashboardId'],
    platform: (ref) => platformRef(keyOf(ref)['dashboardTool']),
    properties: async (ref, _a, ctx) =>
      chartLike(await aspect(ctx, ref, 'dashboardInfo'), ref, str(keyOf(ref)['dashboardId']) ?? ref.urn),
    editableProperties: async (ref, _a, ctx) =>
      editable(await aspect(ctx, ref, 'editableDashboardProperties')),
  },
  DataFlow: {
    orchestrator: (ref) => keyOf(ref)['orchestrator'],
    flowId: (ref) => keyOf(ref)['flowId'],
    cluster: (ref) => keyOf(ref)['cluster'],
    platform: (ref) => platformRef(keyOf(ref)['orchestrator']),
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'dataFlowInfo');
      const base = infoProperties(value, ref, str(keyOf(ref)['flowId']) ?? ref.urn);
      return base === null ? null : { ...base, project: str(value?.['project']) };
    },
    editableProperties: async (ref, _a, ctx) =>
      editable(await aspect(ctx, ref, 'editableDataFlowProperties')),
  },
  DataJob: {
    jobId: (ref) => keyOf(ref)['jobId'],
    dataFlow: (ref) => refOf(keyOf(ref)['flow']) ?? null,
    platform: (ref) => {
      const flow = refOf(keyOf(ref)['flow']);
      return flow ? platformRef(keyOf(flow)['orchestrator']) : null;
    },
    properties: async (ref, _a, ctx) =>
      infoProperties(await aspect(ctx, ref, 'dataJobInfo'), ref, str(keyOf(ref)['jobId']) ?? ref.urn),
    editableProperties: async (ref, _a, ctx) => editable(await aspect(ctx, ref, 'editableDataJobProperties')),
    inputOutput: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'dataJobInputOutput');
      if (value === undefined) return null;
      const refs = (field: string) =>
        (Array.isArray(value[field]) ? (value[field] as unknown[]) : []).flatMap((u) => refOf(u) ?? []);
      return {
        inputDatasets: refs('inputDatasets'),
        outputDatasets: refs('outputDatasets'),
        inputDatajobs: refs('inputDatajobs'),
      };
    },
  },
  CorpUser: {
    username: (ref) => keyOf(ref)['username'],
    status: corpUserStatusField,
    // Native users are those with credentials: their presence is shown, never their value.
    isNativeUser: async (ref, _a, ctx) => ctx.entities.stores(ref.urn, 'corpUserCredentials'),
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'corpUserInfo');
      const properties = userProperties(value);
      return properties === null
        ? null
        : { ...properties, customProperties: customProperties(value?.['customProperties'], ref) };
    },
    info: async (ref, _a, ctx) => userInfo(await aspect(ctx, ref, 'corpUserInfo'), ref),
    editableProperties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'corpUserEditableInfo');
      return value === undefined ? null : { ...value };
    },
  },
  CorpGroup: {
    name: (ref) => keyOf(ref)['name'],
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'corpGroupInfo');
      return value === undefined
        ? null
        : {
            displayName: str(value['displayName']),
            description: str(value['description']),
            email: str(value['email']),
            slack: str(value['slack']),
          };
    },
    editableProperties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'corpGroupEditableInfo');
      return value === undefined
        ? null
        : { description: str(value['description']), slack: str(value['slack']), email: str(value['email']) };
    },
  },
  Tag: {
    name: async (ref, _a, ctx) =>
      str((await aspect(ctx, ref, 'tagProperties'))?.['name']) ?? str(keyOf(ref)['name']) ?? ref.urn,
    description: async (ref, _a, ctx) => str((await aspect(ctx, ref, 'tagProperties'))?.['description']),
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'tagProperties');
      return value === undefined
        ? null
        : {
            name: str(value['name']) ?? str(keyOf(ref)['name']) ?? ref.urn,
            description: str(value['description']),
            colorHex: str(value['colorHex']),
          };
    },
  },
  GlossaryTerm: {
    name: (ref) => keyOf(ref)['name'],
    hierarchicalName: (ref) => keyOf(ref)['name'],
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'glossaryTermInfo');
      if (value === undefined) return null;
      return {
        name: str(value['name']) ?? str(keyOf(ref)['name']) ?? ref.urn,
        description: str(value['definition']),
        definition: str(value['definition']) ?? '',
        termSource: str(value['termSource']) ?? 'INTERNAL',
        sourceRef: str(value['sourceRef']),
        sourceUrl: str(value['sourceUrl']),
        customProperties: customProperties(value['customProperties'], ref),
        rawSchema: str(value['rawSchema']),
      };
    },
  },
  GlossaryNode: {
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'glossaryNodeInfo');
      return value === undefined
        ? null
        : {
            name: str(value['name']) ?? str(keyOf(ref)['name']) ?? ref.urn,
            description: str(value['definition']),
            customProperties: customProperties(value['customProperties'], ref),
          };
    },
  },
  Container: {
    // A container without a platform instance is on the ecosystem's unknown platform.
    platform: async (ref, _a, ctx) =>
      refOf((await aspect(ctx, ref, 'dataPlatformInstance'))?.['platform']) ?? platformRef('unknown'),
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'containerProperties');
      const base = infoProperties(value, ref, ref.urn);
      return base === null ? null : { ...base, qualifiedName: str(value?.['qualifiedName']) };
    },
    editableProperties: async (ref, _a, ctx) =>
      editable(await aspect(ctx, ref, 'editableContainerProperties')),
  },
  Domain: {
    id: (ref) => keyOf(ref)['id'],
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'domainProperties');
      return value === undefined
        ? null
        : {
            name: str(value['name']) ?? str(keyOf(ref)['id']) ?? ref.urn,
            description: str(value['description']),
          };
    },
  },
  DataPlatform: {
    name: (ref) => keyOf(ref)['platformName'],
    displayName: async (ref, _a, ctx) => str((await aspect(ctx, ref, 'dataPlatformInfo'))?.['displayName']),
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'dataPlatformInfo');
      return value === undefined
        ? null
        : {
            // Required by the aspect's schema; OTHERS is the ecosystem's category for any other.
            type: str(value['type']) ?? 'OTHERS',
            displayName: str(value['displayName']),
            datasetNameDelimiter: str(value['datasetNameDelimiter']) ?? '.',
            logoUrl: str(value['logoUrl']),
          };
    },
  },
  DataPlatformInstance: {
    platform: (ref) => refOf(ref.known?.['platform'] ?? keyOf(ref)['platform']),
    instanceId: (ref) => str(keyOf(ref)['instance']) ?? '',
  },
  SchemaFieldEntity: {
    fieldPath: (ref) => keyOf(ref)['fieldPath'],
    parent: (ref) => refOf(keyOf(ref)['parent']),
  },
  MLModel: {
    name: (ref) => keyOf(ref)['name'],
    platform: (ref) => refOf(keyOf(ref)['platform']),
    origin: (ref) => keyOf(ref)['origin'],
    properties: async (ref, _a, ctx) =>
      infoProperties(await aspect(ctx, ref, 'mlModelProperties'), ref, str(keyOf(ref)['name']) ?? ref.urn),
  },
  ...ML_RESOLVERS,
  ...STRUCTURED_PROPERTY_TYPE_RESOLVERS,
};

function editable(value: Json | undefined) {
  return value === undefined ? null : { description: str(value['description']) };
}

function userProperties(value: Json | undefined) {
  if (value === undefined) return null;
  return {
    active: value['active'] === true,
    displayName: str(value['displayName']),
    email: str(value['email']),
    title: str(value['title']),
    firstName: str(value['firstName']),
    lastName: str(value['lastName']),
    fullName: str(value['fullName']),
  };
}

function userInfo(value: Json | undefined, ref: EntityRef) {
  const properties = userProperties(value);
  if (value === undefined || properties === null) return null;
  return {
    ...properties,
    manager: refOf(value['managerUrn']) ?? null,
    departmentId: num(value['departmentId']),
    departmentName: str(value['departmentName']),
    countryCode: str(value['countryCode']),
    customProperties: customProperties(value['customProperties'], ref),
  };
}

/**
 * An entity that exists (has any aspect stored) and that the schema has a type for, or null (secrets,
 * invites and the like have none). One the actor may not read still resolves, with its urn and type only
 * (its fields read no aspect), as the ecosystem's restricted entities do.
 */
async function existing(ctx: GraphQLContext, ref: EntityRef): Promise<EntityRef | null> {
  if (resolveEntityType(ref) === undefined) return null;
  return (await ctx.entities.exists(ref.urn)) ? ref : null;
}

/** The Entity type of a ref: none for entities the schema has no type for, or no Entity type. */
function resolveEntityType(ref: EntityRef): string | undefined {
  const name = typeNameOfEntity(ref.entity);
  return name === undefined || NON_ENTITY_TYPES[name] !== undefined ? undefined : name;
}

/** The resolvers of the entity part of the schema. */
export function entityResolvers(): Record<string, Record<string, unknown>> {
  const resolvers: Record<string, Record<string, unknown>> = {
    Entity: { __resolveType: resolveEntityType },
    EntityWithRelationships: { __resolveType: resolveEntityType },
    OwnerType: { __resolveType: resolveEntityType },
    ...PROPERTY_VALUE_RESOLVER,
  };
  for (const { typeName } of RESOLVABLE_TYPES) {
    const all: Record<string, unknown> = {
      ...COMMON,
      ...(SPECIFIC[typeName] ?? {}),
      ...(READ_FIELD_RESOLVERS[typeName] ?? {}),
      ...(TIMESERIES_FIELD_RESOLVERS[typeName] ?? {}),
    };
    const nonEntity = NON_ENTITY_TYPES[typeName];
    // A type that is no entity in the ecosystem has only some common fields (its slice adds the rest).
    resolvers[typeName] =
      nonEntity === undefined
        ? all
        : Object.fromEntries(Object.entries(all).filter(([f]) => new RegExp(`\\b${f}:`).test(nonEntity)));
  }
  const query: Record<string, Resolver> = {
    entity: async (_root, args, ctx) => existing(ctx, requireRef(String(args['urn']))),
    entities: async (_root, args, ctx) =>
      Promise.all((args['urns'] as string[]).map((urn) => existing(ctx, requireRef(urn)))),
    entityExists: async (_root, args, ctx) => ctx.entities.exists(requireRef(String(args['urn'])).urn),
  };
  for (const [getter, entity] of Object.entries(TYPED_GETTERS)) {
    query[getter] = async (_root, args) => {
      const ref = requireRef(String(args['urn']));
      if (ref.entity !== entity)
        throw new ValidationError(`${getter} takes a ${entity} urn, got ${JSON.stringify(ref.urn)}`);
      // As the ecosystem's typed getters: an absent entity still resolves, its `exists` false.
      return ref;
    };
  }
  resolvers['Query'] = query;
  return resolvers;
}
