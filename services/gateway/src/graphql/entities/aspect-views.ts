import { formatUrn } from '@catalog/model';
import { refOf, type EntityRef } from './entity-ref.js';

/**
 * Aspect values as the GraphQL types show them: each view takes the stored value (plain JSON, as
 * validated) and the entity it belongs to, and fills what the ecosystem's schema makes non-null.
 */
type Json = Readonly<Record<string, unknown>>;

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

function list(value: unknown): readonly Json[] {
  return Array.isArray(value) ? (value.filter((v) => typeof v === 'object' && v !== null) as Json[]) : [];
}

export function auditStamp(value: unknown): { time: number; actor: string | null } {
  const stamp = (value ?? {}) as Json;
  return { time: num(stamp['time']) ?? 0, actor: str(stamp['actor']) };
}

export function customProperties(value: unknown, owner: EntityRef) {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value as Json).map(([key, v]) => ({ key, value: str(v), associatedUrn: owner.urn }));
}

export function globalTags(value: Json | undefined, owner: EntityRef) {
  if (value === undefined) return null;
  return {
    tags: list(value['tags']).flatMap((t) => {
      const tag = refOf(t['tag']);
      return tag ? [{ tag, associatedUrn: owner.urn, context: str(t['context']) }] : [];
    }),
  };
}

export function glossaryTerms(value: Json | undefined, owner: EntityRef) {
  if (value === undefined) return null;
  return {
    terms: list(value['terms']).flatMap((t) => {
      const term = refOf(t['urn']);
      return term ? [{ term, actor: null, associatedUrn: owner.urn }] : [];
    }),
  };
}

export function ownership(value: Json | undefined, owner: EntityRef) {
  if (value === undefined) return null;
  return {
    owners: list(value['owners']).flatMap((o) => {
      const who = refOf(o['owner']);
      if (!who) return [];
      return [
        {
          owner: who,
          type: str(o['type']),
          ownershipType: refOf(o['typeUrn']) ?? null,
          associatedUrn: owner.urn,
        },
      ];
    }),
    lastModified: auditStamp(value['lastModified']),
  };
}

export function institutionalMemory(value: Json | undefined, owner: EntityRef) {
  if (value === undefined) return null;
  return {
    elements: list(value['elements']).map((e) => ({
      url: str(e['url']) ?? '',
      description: str(e['description']) ?? '',
      label: str(e['description']) ?? '',
      created: auditStamp(e['createStamp']),
      updated: e['updateStamp'] === undefined ? null : auditStamp(e['updateStamp']),
      settings: linkSettings(e['settings']),
      associatedUrn: owner.urn,
    })),
  };
}

function linkSettings(value: unknown) {
  if (typeof value !== 'object' || value === null) return null;
  return { showInAssetPreview: (value as Json)['showInAssetPreview'] === true };
}

export function browsePathV2(value: Json | undefined) {
  if (value === undefined) return null;
  return {
    path: list(value['path']).map((e) => ({ name: str(e['id']) ?? '', entity: refOf(e['urn']) ?? null })),
  };
}

export function deprecation(value: Json | undefined) {
  if (value === undefined) return null;
  return {
    deprecated: value['deprecated'] === true,
    decommissionTime: num(value['decommissionTime']),
    note: str(value['note']),
    actor: str(value['actor']),
    actorEntity: refOf(value['actor']) ?? null,
  };
}

/** `{ <union key>: value }` of a pegasus union: the member's name and value. */
export function unionMember(value: unknown): [string, unknown] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const [entry] = Object.entries(value as Json);
  return entry;
}

/** SchemaFieldDataType from the `type.type` union of a schema field (`com.linkedin.schema.StringType`). */
export function schemaFieldType(value: unknown): string {
  const member = unionMember((value as Json | undefined)?.['type']);
  const name = member?.[0].split('.').pop()?.replace(/Type$/, '').toUpperCase() ?? 'NULL';
  const known = [
    'BOOLEAN',
    'FIXED',
    'STRING',
    'BYTES',
    'NUMBER',
    'DATE',
    'TIME',
    'ENUM',
    'NULL',
    'MAP',
    'ARRAY',
  ];
  if (known.includes(name)) return name;
  return name === 'RECORD' ? 'STRUCT' : name === 'UNION' ? 'UNION' : 'NULL';
}

export function schemaField(field: Json, owner: EntityRef) {
  const fieldPath = str(field['fieldPath']) ?? '';
  return {
    fieldPath,
    nullable: field['nullable'] === true,
    recursive: field['recursive'] === true,
    type: schemaFieldType(field['type']),
    nativeDataType: str(field['nativeDataType']),
    description: str(field['description']),
    isPartOfKey: field['isPartOfKey'] === true,
    isPartitioningKey: typeof field['isPartitioningKey'] === 'boolean' ? field['isPartitioningKey'] : null,
    jsonPath: str(field['jsonPath']),
    label: str(field['label']),
    tags: globalTags(field['globalTags'] as Json | undefined, owner),
    glossaryTerms: glossaryTerms(field['glossaryTerms'] as Json | undefined, owner),
    // The field as an entity, which carries the field's structured properties (and other aspects).
    schemaFieldEntity: schemaFieldRef(owner, fieldPath),
  };
}

/**
 * A schema's platformSchema union as GraphQL's PlatformSchema: a key-value schema (Kafka) or a table schema
 * (every other member's one schema text: `rawSchema`, `tableSchema`, `documentSchema`, ...).
 */
export function platformSchema(value: unknown) {
  const member = unionMember(value);
  if (member === undefined) return null;
  const body = (member[1] ?? {}) as Json;
  if (member[0].endsWith('KafkaSchema'))
    return {
      __typename: 'KeyValueSchema',
      keySchema: str(body['keySchema']) ?? '',
      valueSchema: str(body['documentSchema']) ?? '',
    };
  const schema = Object.values(body).find((v) => typeof v === 'string');
  return { __typename: 'TableSchema', schema: typeof schema === 'string' ? schema : '' };
}

/** The schema field entity of a field of `parent`: `urn:li:schemaField:(<parent urn>,<field path>)`. */
export function schemaFieldRef(parent: EntityRef, fieldPath: string): EntityRef | null {
  try {
    return { urn: formatUrn('schemaField', [parent.urn, fieldPath]), entity: 'schemaField' };
  } catch {
    return null;
  }
}

export { list };
