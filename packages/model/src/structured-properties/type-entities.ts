import { entityRegistry, type EntityRegistry } from '../registry/entity-registry.js';
import type { LogicalValueType } from './types.js';

/** The namespace of the ecosystem's own data types and entity types (`urn:li:dataType:datahub.string`). */
const NAMESPACE = 'datahub';
const DATA_TYPE_PREFIX = `urn:li:dataType:${NAMESPACE}.`;
const ENTITY_TYPE_PREFIX = `urn:li:entityType:${NAMESPACE}.`;

/**
 * The data types a structured property's valueType names, with the `dataTypeInfo` the ecosystem's
 * bootstrap writes for each (metadata-service/war/src/main/resources/boot/data_types.json).
 */
export const DATA_TYPES: readonly {
  readonly type: LogicalValueType;
  readonly info: {
    readonly qualifiedName: string;
    readonly displayName: string;
    readonly description: string;
  };
}[] = [
  {
    type: 'string',
    info: { qualifiedName: 'datahub.string', displayName: 'String', description: 'A string of characters.' },
  },
  {
    type: 'number',
    info: {
      qualifiedName: 'datahub.number',
      displayName: 'Number',
      description: 'An integer or decimal number.',
    },
  },
  {
    type: 'urn',
    info: {
      qualifiedName: 'datahub.urn',
      displayName: 'Urn',
      description: 'An unique identifier for a DataHub entity.',
    },
  },
  {
    type: 'rich_text',
    info: {
      qualifiedName: 'datahub.rich_text',
      displayName: 'Rich Text',
      description: 'An attributed string of characters.',
    },
  },
  {
    type: 'date',
    info: {
      qualifiedName: 'datahub.date',
      displayName: 'Date',
      description: 'A specific day, without time.',
    },
  },
];

/** `urn:li:dataType:datahub.<type>`. */
export function dataTypeUrn(type: LogicalValueType): string {
  return `${DATA_TYPE_PREFIX}${type}`;
}

/** Every valid valueType urn, in the bootstrap's order. */
export const DATA_TYPE_URNS: readonly string[] = DATA_TYPES.map((t) => dataTypeUrn(t.type));

/** The logical type a valueType urn names; undefined for anything but the five data-type urns. */
export function logicalTypeOf(valueType: string): LogicalValueType | undefined {
  if (!valueType.startsWith(DATA_TYPE_PREFIX)) return undefined;
  const id = valueType.slice(DATA_TYPE_PREFIX.length);
  return DATA_TYPES.find((t) => t.type === id)?.type;
}

/** `urn:li:entityType:datahub.<entityName>`. */
export function entityTypeUrn(entityName: string): string {
  return `${ENTITY_TYPE_PREFIX}${entityName}`;
}

/**
 * The registry entity an entity-type urn names (`urn:li:entityType:datahub.dataset` → `dataset`);
 * undefined when it is not an entity-type urn of the datahub namespace or names no registry entity.
 */
export function entityNameOfTypeUrn(
  urn: string,
  registry: EntityRegistry = entityRegistry,
): string | undefined {
  if (!urn.startsWith(ENTITY_TYPE_PREFIX)) return undefined;
  const name = urn.slice(ENTITY_TYPE_PREFIX.length);
  return registry.getEntity(name)?.name;
}

/**
 * The id of a type urn as the ecosystem reads it (StructuredPropertyUtils.getValueTypeId): the part
 * after `datahub.` when the id has that prefix, lower-cased. Used to compare entity names the way the
 * ecosystem does (case-insensitively).
 */
export function typeIdOf(typeUrn: string): string {
  const colon = typeUrn.indexOf(':', 'urn:li:'.length);
  let id = colon < 0 ? typeUrn : typeUrn.slice(colon + 1);
  if (id.startsWith(`${NAMESPACE}.`)) id = id.slice(NAMESPACE.length + 1).split('.')[0] ?? '';
  return id.toLowerCase();
}

/** One entity of the bootstrap: its type entity (dataType or entityType), urn, info aspect and value. */
export interface TypeEntity {
  readonly entityType: 'dataType' | 'entityType';
  readonly urn: string;
  readonly aspectName: 'dataTypeInfo' | 'entityTypeInfo';
  readonly value: Readonly<Record<string, unknown>>;
}

/**
 * The type entities the ecosystem bootstraps: a `dataType` entity with `dataTypeInfo` per data type
 * (IngestDataTypesStep, from data_types.json), and an `entityType` entity with `entityTypeInfo`
 * `{qualifiedName: datahub.<name>, displayName: <name>}` per registry entity (IngestEntityTypesStep).
 */
export function typeEntities(registry: EntityRegistry = entityRegistry): readonly TypeEntity[] {
  const dataTypes: TypeEntity[] = DATA_TYPES.map((t) => ({
    entityType: 'dataType',
    urn: dataTypeUrn(t.type),
    aspectName: 'dataTypeInfo',
    value: { ...t.info },
  }));
  const entityTypes: TypeEntity[] = registry.entities().map((e) => ({
    entityType: 'entityType',
    urn: entityTypeUrn(e.name),
    aspectName: 'entityTypeInfo',
    value: { qualifiedName: `${NAMESPACE}.${e.name}`, displayName: e.name },
  }));
  return [...dataTypes, ...entityTypes];
}
