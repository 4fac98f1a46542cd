import type { GraphQLContext } from '../context.js';
import { list, num, str, unionMember } from '../entities/aspect-views.js';
import type { AspectValues } from '../../application/actor-entity-loader.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';
import { typeNameOfEntity, typeOfEntity } from '../entities/entity-types.js';

/**
 * Reads of structured properties: the definition and settings of a property entity, the data types and
 * entity types it names, and the values an entity carries. Every entity these reads touch is read through
 * the request's entity loader, so the definitions behind one entity's values (or a page of search
 * results) are read in one batched store call, not one per value.
 */
type Json = Readonly<Record<string, unknown>>;
type FieldResolver = (ref: EntityRef, args: Record<string, unknown>, ctx: GraphQLContext) => unknown;

export const STRUCTURED_PROPERTY = 'structuredProperty';
export const DEFINITION_ASPECT = 'propertyDefinition';
export const SETTINGS_ASPECT = 'structuredPropertySettings';
export const ASSIGNMENT_ASPECT = 'structuredProperties';

const DEFAULT_VALUE_TYPE = 'urn:li:dataType:datahub.string';
const DEFAULT_ENTITY_TYPE = 'urn:li:entityType:datahub.dataset';
/** The ecosystem's namespace of data type and entity type ids (`datahub.string`, `datahub.dataset`). */
const NAMESPACE = 'datahub.';

/** A stored primitive value (`{string: x}` or `{double: n}`) as a PropertyValue of the union. */
export function propertyValue(value: unknown) {
  const member = unionMember(value);
  const raw = member === undefined ? value : member[1];
  return member?.[0] === 'double' || (member === undefined && typeof raw === 'number')
    ? { __typename: 'NumberValue', numberValue: Number(raw) }
    : { __typename: 'StringValue', stringValue: String(raw ?? '') };
}

/** True when the entity's status says it is soft-deleted. */
export function isSoftDeleted(aspects: AspectValues): boolean {
  return (aspects.get('status')?.value as Json | undefined)?.['removed'] === true;
}

const ref = (urn: string, entity: string): EntityRef => ({ urn, entity });

function resolvedStamp(value: unknown) {
  if (typeof value !== 'object' || value === null) return null;
  const stamp = value as Json;
  return { time: num(stamp['time']) ?? 0, actor: refOf(stamp['actor']) ?? null };
}

function urns(value: unknown, entity: string): EntityRef[] {
  return Array.isArray(value)
    ? value.filter((u): u is string => typeof u === 'string').map((u) => ref(u, entity))
    : [];
}

/**
 * The definition as the ecosystem maps it. A property whose definition is gone (hard-deleted while values
 * that name it are still being removed) gets the ecosystem's placeholder definition, so a read of those
 * values does not fail; its `exists` is false.
 */
export function definitionView(definition: Json | undefined, settings: Json | undefined) {
  const filterStatus = settings?.['showInSearchFilters'] === true ? 'ENABLED' : 'DISABLED';
  if (definition === undefined)
    return {
      qualifiedName: '',
      displayName: null,
      description: null,
      cardinality: 'SINGLE',
      allowedValues: null,
      valueType: ref(DEFAULT_VALUE_TYPE, 'dataType'),
      typeQualifier: null,
      entityTypes: [ref(DEFAULT_ENTITY_TYPE, 'entityType')],
      immutable: true,
      created: null,
      lastModified: null,
      filterStatus,
    };
  const allowedValues = definition['allowedValues'];
  const typeQualifier = definition['typeQualifier'] as Json | null | undefined;
  return {
    qualifiedName: str(definition['qualifiedName']) ?? '',
    displayName: str(definition['displayName']),
    description: str(definition['description']),
    cardinality: str(definition['cardinality']) ?? 'SINGLE',
    allowedValues: Array.isArray(allowedValues)
      ? list(allowedValues).map((v) => ({
          value: propertyValue(v['value']),
          description: str(v['description']),
        }))
      : null,
    valueType: ref(str(definition['valueType']) ?? DEFAULT_VALUE_TYPE, 'dataType'),
    typeQualifier:
      typeof typeQualifier === 'object' && typeQualifier !== null
        ? {
            allowedTypes:
              typeQualifier['allowedTypes'] === undefined
                ? null
                : urns(typeQualifier['allowedTypes'], 'entityType'),
          }
        : null,
    entityTypes: urns(definition['entityTypes'], 'entityType'),
    immutable: definition['immutable'] === true,
    created: resolvedStamp(definition['created']),
    lastModified: resolvedStamp(definition['lastModified']),
    filterStatus,
  };
}

export function settingsView(settings: Json | undefined) {
  if (settings === undefined) return null;
  return {
    isHidden: settings['isHidden'] === true,
    showInSearchFilters: settings['showInSearchFilters'] === true,
    showInAssetSummary: settings['showInAssetSummary'] === true,
    hideInAssetSummaryWhenEmpty: settings['hideInAssetSummaryWhenEmpty'] === true,
    showAsAssetBadge: settings['showAsAssetBadge'] === true,
    showInColumnsTable: settings['showInColumnsTable'] === true,
  };
}

/**
 * The values an entity carries (its `structuredProperties` aspect) in the read form. Values of
 * soft-deleted properties are left out (spec 3.2); the properties' entities are read in one batch.
 */
export async function assignedProperties(ctx: GraphQLContext, owner: EntityRef, value: Json | undefined) {
  if (value === undefined) return null;
  const entries = list(value['properties']).flatMap((assignment) => {
    const property = refOf(assignment['propertyUrn']);
    return property ? [{ assignment, property }] : [];
  });
  const properties = await Promise.all(entries.map((e) => ctx.entities.load(e.property.urn)));
  return {
    properties: entries
      .filter((_, i) => !isSoftDeleted(properties[i]!))
      .map(({ assignment, property }) => {
        const raw = assignment['values'];
        const values = (Array.isArray(raw) ? (raw as unknown[]) : []).map(propertyValue);
        return {
          structuredProperty: property,
          values,
          // Values that are URNs of entities the schema can show (urn-typed properties).
          valueEntities: values
            .flatMap((v) => ('stringValue' in v ? [refOf(v.stringValue)] : []))
            .filter((r): r is EntityRef => r !== undefined && typeNameOfEntity(r.entity) !== undefined),
          associatedUrn: owner.urn,
        };
      }),
  };
}

const STD_DATA_TYPES = new Set(['STRING', 'NUMBER', 'URN', 'RICH_TEXT', 'DATE']);

/** The id of a URN: `urn:li:dataType:datahub.rich_text` → `datahub.rich_text`. */
function idOf(urn: string): string {
  return urn.slice(urn.indexOf(':', 'urn:li:'.length) + 1);
}

/** The id after the ecosystem's namespace: `datahub.rich_text` → `rich_text`. */
function localId(urn: string): string {
  const id = idOf(urn);
  return id.startsWith(NAMESPACE) ? id.slice(NAMESPACE.length) : id;
}

const DATA_TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'String',
  number: 'Number',
  urn: 'Urn',
  rich_text: 'Rich Text',
  date: 'Date',
};

/**
 * A data type's info: the stored one, else what the ecosystem bootstraps for its standard types
 * (qualified name `datahub.<type>`), so definitions read the same without that bootstrap.
 */
function dataTypeInfo(ref: EntityRef, stored: Json | undefined) {
  const id = localId(ref.urn);
  const upper = id.toUpperCase();
  return {
    type: STD_DATA_TYPES.has(upper) ? upper : 'OTHER',
    qualifiedName: str(stored?.['qualifiedName']) ?? idOf(ref.urn),
    displayName: str(stored?.['displayName']) ?? DATA_TYPE_NAMES[id] ?? id,
    description: str(stored?.['description']),
  };
}

/** An entity type's info: the stored one, else the ecosystem's bootstrap (display name = entity name). */
function entityTypeInfo(ref: EntityRef, stored: Json | undefined) {
  const entity = localId(ref.urn);
  return {
    type: typeOfEntity(entity),
    qualifiedName: str(stored?.['qualifiedName']) ?? idOf(ref.urn),
    displayName: str(stored?.['displayName']) ?? entity,
    description: str(stored?.['description']),
  };
}

const aspectOf = async (ctx: GraphQLContext, urn: string, name: string) =>
  (await ctx.entities.load(urn)).get(name)?.value as Json | undefined;

/** Field resolvers of the entity types this slice reads, by GraphQL type. */
export const STRUCTURED_PROPERTY_TYPE_RESOLVERS: Readonly<Record<string, Record<string, FieldResolver>>> = {
  StructuredPropertyEntity: {
    definition: async (ref, _a, ctx) => {
      const aspects = await ctx.entities.load(ref.urn);
      return definitionView(
        aspects.get(DEFINITION_ASPECT)?.value as Json | undefined,
        aspects.get(SETTINGS_ASPECT)?.value as Json | undefined,
      );
    },
    settings: async (ref, _a, ctx) => settingsView(await aspectOf(ctx, ref.urn, SETTINGS_ASPECT)),
  },
  DataTypeEntity: {
    info: async (ref, _a, ctx) => dataTypeInfo(ref, await aspectOf(ctx, ref.urn, 'dataTypeInfo')),
  },
  EntityTypeEntity: {
    info: async (ref, _a, ctx) => entityTypeInfo(ref, await aspectOf(ctx, ref.urn, 'entityTypeInfo')),
  },
};

/** `structuredProperties` of every entity type. */
export const structuredPropertiesField: FieldResolver = async (ref, _a, ctx) =>
  assignedProperties(ctx, ref, await aspectOf(ctx, ref.urn, ASSIGNMENT_ASPECT));

/** `__typename` of a PropertyValue: the views above set it. */
export const PROPERTY_VALUE_RESOLVER = {
  PropertyValue: { __resolveType: (value: { __typename: string }) => value.__typename },
};
