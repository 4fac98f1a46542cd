import { entityRegistry, isUrn, parseUrn } from '@catalog/model';
import type { StoredAspect } from '@catalog/store';
import { typeOfEntity } from '../graphql/entities/entity-types.js';
import { shorten } from './result-budget.js';

type Json = Readonly<Record<string, unknown>>;

/** Aspects whose `name`/`description` describe an entity, in the order they are preferred. */
const EDITABLE_FIRST = (a: StoredAspect) => (a.aspect.startsWith('editable') ? 0 : 1);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const arr = (v: unknown): Json[] =>
  Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === 'object') : [];

/** The registry entity of a urn, or undefined for a malformed one or one of no known entity type. */
export function entityNameOfUrn(urn: string): string | undefined {
  try {
    const entity = parseUrn(urn).entityType;
    return entityRegistry.getEntity(entity) === undefined ? undefined : entity;
  } catch {
    return undefined;
  }
}

function valueOf(aspects: readonly StoredAspect[], name: string): Json | undefined {
  return aspects.find((a) => a.aspect === name)?.value;
}

function nameOf(urn: string, aspects: readonly StoredAspect[]): string {
  for (const a of [...aspects].sort((x, y) => EDITABLE_FIRST(y) - EDITABLE_FIRST(x))) {
    const name = str(a.value['name']) ?? str(a.value['displayName']) ?? str(a.value['title']);
    if (name !== undefined && !a.aspect.endsWith('Key')) return name;
  }
  const entity = entityNameOfUrn(urn);
  const spec = entity === undefined ? undefined : entityRegistry.getEntity(entity);
  const key = spec === undefined ? undefined : valueOf(aspects, spec.keyAspect);
  return str(key?.['name']) ?? str(key?.['id']) ?? str(key?.['username']) ?? urn;
}

function descriptionOf(aspects: readonly StoredAspect[]): string | undefined {
  for (const a of [...aspects].sort((x, y) => EDITABLE_FIRST(x) - EDITABLE_FIRST(y))) {
    if (a.aspect === 'schemaMetadata' || a.aspect === 'editableSchemaMetadata') continue;
    const description = str(a.value['description']) ?? str(a.value['definition']);
    if (description !== undefined) return shorten(description);
  }
  return undefined;
}

const labels = (value: Json | undefined, list: string, key: string) =>
  arr(value?.[list]).flatMap((x) => str(x[key]) ?? []);

/**
 * What a model needs of an entity to answer "what is it, who owns it, how is it labelled": its name,
 * platform, description, labels and owners, structured properties, the counts behind deeper tools
 * (schema fields), and for a query its SQL. Built from the aspects the actor was allowed to read.
 */
export function entitySummary(urn: string, aspects: readonly StoredAspect[]): Record<string, unknown> {
  const entity = entityNameOfUrn(urn) ?? 'unknown';
  const platform = str(valueOf(aspects, 'dataPlatformInstance')?.['platform']);
  const keyPlatform = (() => {
    const spec = entityRegistry.getEntity(entity);
    const key = spec === undefined ? undefined : valueOf(aspects, spec.keyAspect);
    return str(key?.['platform']) ?? str(key?.['origin']);
  })();
  const tags = labels(valueOf(aspects, 'globalTags'), 'tags', 'tag');
  const terms = labels(valueOf(aspects, 'glossaryTerms'), 'terms', 'urn');
  const owners = arr(valueOf(aspects, 'ownership')?.['owners']).map((o) => ({
    owner: o['owner'],
    type: str(o['typeUrn']) ?? o['type'],
  }));
  const domains = valueOf(aspects, 'domains')?.['domains'];
  const container = str(valueOf(aspects, 'container')?.['container']);
  const subTypes = valueOf(aspects, 'subTypes')?.['typeNames'];
  const deprecation = valueOf(aspects, 'deprecation');
  const properties = aspects.find((a) => a.value['customProperties'] !== undefined)?.value[
    'customProperties'
  ];
  const structured = arr(valueOf(aspects, 'structuredProperties')?.['properties']).map((p) => ({
    property: p['propertyUrn'],
    values: arr(p['values']).map((v) => v['string'] ?? v['double'] ?? v),
  }));
  const schema = valueOf(aspects, 'schemaMetadata');
  const query = valueOf(aspects, 'queryProperties');
  const status = valueOf(aspects, 'status');
  const summary: Record<string, unknown> = {
    urn,
    type: typeOfEntity(entity),
    name: nameOf(urn, aspects),
    ...((platform ?? (keyPlatform && isUrn(keyPlatform) ? keyPlatform : undefined))
      ? { platform: platform ?? keyPlatform }
      : {}),
  };
  const description = descriptionOf(aspects);
  if (description !== undefined) summary['description'] = description;
  if (Array.isArray(subTypes) && subTypes.length > 0) summary['subTypes'] = subTypes;
  if (container !== undefined) summary['container'] = container;
  if (Array.isArray(domains) && domains.length > 0) summary['domain'] = domains[0];
  if (owners.length > 0) summary['owners'] = owners;
  if (tags.length > 0) summary['tags'] = tags;
  if (terms.length > 0) summary['glossaryTerms'] = terms;
  if (structured.length > 0) summary['structuredProperties'] = structured;
  if (properties !== null && typeof properties === 'object' && Object.keys(properties).length > 0)
    summary['customProperties'] = properties;
  if (deprecation?.['deprecated'] === true)
    summary['deprecation'] = { deprecated: true, note: str(deprecation['note']) ?? '' };
  if (status?.['removed'] === true) summary['softDeleted'] = true;
  if (schema !== undefined)
    summary['schemaFieldCount'] = Array.isArray(schema['fields']) ? schema['fields'].length : 0;
  if (query !== undefined) {
    const statement = (query['statement'] ?? {}) as Json;
    summary['statement'] = shorten(str(statement['value']) ?? '');
    summary['source'] = query['source'];
    summary['subjects'] = arr(valueOf(aspects, 'querySubjects')?.['subjects']).map((s) => s['entity']);
  }
  return summary;
}

/** Aspects a summary reads besides an entity type's own `*Properties`, `*Info` and key aspects. */
const SUMMARY_ASPECTS = new Set([
  'globalTags',
  'glossaryTerms',
  'ownership',
  'domains',
  'container',
  'subTypes',
  'deprecation',
  'structuredProperties',
  'schemaMetadata',
  'status',
  'dataPlatformInstance',
  'querySubjects',
]);

/**
 * The aspects of an entity type that entitySummary reads: a search page of wide datasets reads their
 * names, labels and schema, not every aspect they hold.
 */
export function summaryAspects(entity: string): string[] {
  const spec = entityRegistry.getEntity(entity);
  if (spec === undefined) return [];
  return [...spec.aspects.values()]
    .filter((a) => a.kind === 'versioned')
    .map((a) => a.name)
    .filter(
      (name) => SUMMARY_ASPECTS.has(name) || /(Properties|Info|Key)$/.test(name) || name === spec.keyAspect,
    );
}

/** A schema field as list_schema_fields returns it: editable documentation and labels merged in. */
export interface FieldSummary {
  readonly fieldPath: string;
  readonly type?: string;
  readonly nullable?: boolean;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly glossaryTerms?: readonly string[];
}

export function schemaFields(aspects: readonly StoredAspect[]): FieldSummary[] {
  const editable = new Map(
    arr(valueOf(aspects, 'editableSchemaMetadata')?.['editableSchemaFieldInfo']).map((f) => [
      str(f['fieldPath']) ?? '',
      f,
    ]),
  );
  return arr(valueOf(aspects, 'schemaMetadata')?.['fields']).map((f) => {
    const fieldPath = str(f['fieldPath']) ?? '';
    const edit = editable.get(fieldPath);
    const description = str(edit?.['description']) ?? str(f['description']);
    const tags = [
      ...labels(f['globalTags'] as Json | undefined, 'tags', 'tag'),
      ...labels(edit?.['globalTags'] as Json | undefined, 'tags', 'tag'),
    ];
    const terms = [
      ...labels(f['glossaryTerms'] as Json | undefined, 'terms', 'urn'),
      ...labels(edit?.['glossaryTerms'] as Json | undefined, 'terms', 'urn'),
    ];
    return {
      fieldPath,
      ...(str(f['nativeDataType']) === undefined ? {} : { type: str(f['nativeDataType'])! }),
      ...(typeof f['nullable'] === 'boolean' ? { nullable: f['nullable'] } : {}),
      ...(description === undefined ? {} : { description: shorten(description, 1_000) }),
      ...(tags.length === 0 ? {} : { tags: [...new Set(tags)] }),
      ...(terms.length === 0 ? {} : { glossaryTerms: [...new Set(terms)] }),
    };
  });
}
