import type { GraphQLContext } from '../context.js';
import { auditStamp, customProperties, list, num, str } from './aspect-views.js';
import { keyOf, refOf, type EntityRef } from './entity-ref.js';

/**
 * The machine-learning entities' own fields (ml models, model groups, features, primary keys and feature
 * tables, and the training runs of process instances): names and platforms from their keys, properties
 * from their properties aspects.
 */
type Json = Readonly<Record<string, unknown>>;
type Resolver = (ref: EntityRef, args: Record<string, unknown>, ctx: GraphQLContext) => unknown;

const aspect = (ctx: GraphQLContext, ref: EntityRef, name: string): Promise<Json | undefined> =>
  ctx.entities.aspect<Json>(ref.urn, name);

const strings = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;

const refs = (value: unknown): EntityRef[] | null =>
  Array.isArray(value) ? value.flatMap((u) => refOf(u) ?? []) : null;

const versionTag = (value: unknown) => {
  const tag = str((value as Json | undefined)?.['versionTag']);
  return value === undefined || value === null ? null : { versionTag: tag };
};

/** `created` of an ML aspect: a `TimeStamp` ({time, actor?}) shown as an AuditStamp. */
const stampOrNull = (value: unknown) => (value === undefined || value === null ? null : auditStamp(value));

const params = (value: unknown) =>
  list(value).map((p) => ({
    name: str(p['name']),
    description: str(p['description']),
    value: str(p['value']),
    createdAt: num(p['createdAt']),
  }));

const name = (ref: EntityRef) => str(keyOf(ref)['name']) ?? ref.urn;
const platform = (ref: EntityRef) => refOf(keyOf(ref)['platform']) ?? null;

/** A resolver reading one aspect and showing it through `view` (null when the entity has none). */
function fromAspect(aspectName: string, view: (value: Json, ref: EntityRef) => unknown): Resolver {
  return async (ref, _a, ctx) => {
    const value = await aspect(ctx, ref, aspectName);
    return value === undefined ? null : view(value, ref);
  };
}

const description = (aspectName: string) => fromAspect(aspectName, (v) => str(v['description']));

export const ML_RESOLVERS: Record<string, Record<string, Resolver>> = {
  DataProcessInstance: {
    mlTrainingRunProperties: fromAspect('mlTrainingRunProperties', (v) => ({
      id: str(v['id']),
      outputUrls: strings(v['outputUrls']),
      hyperParams: params(v['hyperParams']),
      trainingMetrics: params(v['trainingMetrics']),
    })),
  },
  MLModel: {
    name: (ref) => name(ref),
    platform: (ref) => platform(ref),
    origin: (ref) => keyOf(ref)['origin'],
    description: description('mlModelProperties'),
    properties: fromAspect('mlModelProperties', (v, ref) => ({
      name: str(v['name']) ?? name(ref),
      description: str(v['description']),
      date: num(v['date']),
      created: stampOrNull(v['created']),
      lastModified: stampOrNull(v['lastModified']),
      externalUrl: str(v['externalUrl']),
      version: versionTag(v['version'])?.versionTag ?? null,
      type: str(v['type']),
      tags: strings(v['tags']),
      mlFeatures: strings(v['mlFeatures']),
      trainingMetrics: params(v['trainingMetrics']),
      hyperParams: params(v['hyperParams']),
      groups: refs(v['groups']),
      customProperties: customProperties(v['customProperties'], ref),
    })),
  },
  MLModelGroup: {
    name: (ref) => name(ref),
    platform: (ref) => platform(ref),
    origin: (ref) => keyOf(ref)['origin'],
    description: description('mlModelGroupProperties'),
    properties: fromAspect('mlModelGroupProperties', (v, ref) => ({
      name: str(v['name']) ?? name(ref),
      description: str(v['description']),
      createdAt: num(v['createdAt']) ?? num((v['created'] as Json | undefined)?.['time']),
      created: stampOrNull(v['created']),
      lastModified: stampOrNull(v['lastModified']),
      externalUrl: str(v['externalUrl']),
      version: versionTag(v['version']),
      customProperties: customProperties(v['customProperties'], ref),
    })),
  },
  MLFeature: {
    name: (ref) => name(ref),
    featureNamespace: (ref) => str(keyOf(ref)['featureNamespace']) ?? '',
    description: description('mlFeatureProperties'),
    properties: fromAspect('mlFeatureProperties', (v, ref) => ({
      description: str(v['description']),
      version: versionTag(v['version']),
      sources: refs(v['sources']),
      customProperties: customProperties(v['customProperties'], ref),
    })),
  },
  MLPrimaryKey: {
    name: (ref) => name(ref),
    featureNamespace: (ref) => str(keyOf(ref)['featureNamespace']) ?? '',
    description: description('mlPrimaryKeyProperties'),
    properties: fromAspect('mlPrimaryKeyProperties', (v, ref) => ({
      description: str(v['description']),
      version: versionTag(v['version']),
      sources: refs(v['sources']),
      customProperties: customProperties(v['customProperties'], ref),
    })),
  },
  MLFeatureTable: {
    name: (ref) => name(ref),
    platform: (ref) => platform(ref),
    description: description('mlFeatureTableProperties'),
    properties: fromAspect('mlFeatureTableProperties', (v, ref) => ({
      description: str(v['description']),
      mlFeatures: refs(v['mlFeatures']),
      mlPrimaryKeys: refs(v['mlPrimaryKeys']),
      customProperties: customProperties(v['customProperties'], ref),
    })),
  },
};
