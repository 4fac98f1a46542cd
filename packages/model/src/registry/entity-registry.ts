import type { types } from 'avsc';
import { ValidationError } from '../errors.js';
import { REGISTRY_DATA } from '../generated/registry-data.js';
import { aspectAvroType } from '../schemas/avro-registry.js';
import type { AspectSpec, EntitySpec, Urn } from '../types.js';
import { formatUrn } from '../urn.js';
import { validateAspect } from '../validate.js';
import { CATALOG_REGISTRY_DATA } from './catalog-registry-data.js';
import type { RegistryEntityData } from './registry-data.js';
import { isRestrictedAspect } from './restricted-aspects.js';

/** A key aspect derived from a URN: the aspect name and its value. */
export interface KeyAspect {
  readonly name: string;
  readonly value: Record<string, unknown>;
}

/** Entities and aspects known to the catalog, and the mapping between URNs and key aspects. */
export class EntityRegistry {
  private readonly byName: ReadonlyMap<string, EntitySpec>;
  private readonly byRecordName: ReadonlyMap<string, AspectSpec>;
  private readonly all: readonly EntitySpec[];

  constructor(entities: readonly EntitySpec[], aspects: readonly AspectSpec[]) {
    this.all = entities;
    this.byName = new Map(entities.map((e) => [e.name, e]));
    this.byRecordName = new Map(aspects.map((a) => [a.recordName, a]));
  }

  getEntity(name: string): EntitySpec | undefined {
    return this.byName.get(name);
  }

  /** Like getEntity, but throws ValidationError `Unknown entity type: x`. */
  requireEntity(name: string): EntitySpec {
    const entity = this.byName.get(name);
    if (!entity) throw new ValidationError(`Unknown entity type: ${name}`);
    return entity;
  }

  getAspect(entityName: string, aspectName: string): AspectSpec | undefined {
    return this.byName.get(entityName)?.aspects.get(aspectName);
  }

  entities(): readonly EntitySpec[] {
    return this.all;
  }

  /** The aspect whose record has this fully qualified name (the union key of snapshot aspects). */
  aspectByRecordName(recordName: string): AspectSpec | undefined {
    return this.byRecordName.get(recordName);
  }

  /**
   * Derives the key aspect from a URN: the id parts, in order, are the key's fields. Throws
   * ValidationError when the entity is unknown or the parts do not fit (count, enum symbol, URN type).
   */
  keyAspectFromUrn(urn: Urn): KeyAspect {
    const entity = this.requireEntity(urn.entityType);
    const key = this.keySpec(entity);
    const fields = (key.schema as types.RecordType).fields;
    if (urn.parts.length !== fields.length) {
      throw new ValidationError(
        `Invalid ${entity.name} urn "${urn.raw}": expected ${fields.length} id part(s) ` +
          `(${fields.map((f) => f.name).join(', ')}), got ${urn.parts.length}`,
      );
    }
    const raw: Record<string, unknown> = {};
    fields.forEach((field, i) => {
      raw[field.name] = urn.parts[i];
    });
    const outcome = validateAspect(key, raw);
    if (!outcome.ok) {
      const detail = outcome.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
      throw new ValidationError(`Invalid ${entity.name} urn "${urn.raw}": ${detail}`);
    }
    return { name: key.name, value: outcome.value };
  }

  /** Formats the URN of an entity from its key aspect value; throws ValidationError when it does not fit. */
  urnFromKeyAspect(entityName: string, keyValue: Record<string, unknown>): string {
    const entity = this.requireEntity(entityName);
    const key = this.keySpec(entity);
    const outcome = validateAspect(key, keyValue);
    if (!outcome.ok) {
      const detail = outcome.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
      throw new ValidationError(`Invalid ${key.name} for ${entity.name}: ${detail}`);
    }
    const fields = (key.schema as types.RecordType).fields;
    const parts = fields.map((field) => {
      const part = outcome.value[field.name];
      if (typeof part !== 'string' || part === '') {
        throw new ValidationError(
          `Invalid ${key.name} for ${entity.name}: ${field.name} is required for the urn`,
        );
      }
      return part;
    });
    return formatUrn(entity.name, parts);
  }

  private keySpec(entity: EntitySpec): AspectSpec {
    const key = entity.aspects.get(entity.keyAspect);
    if (!key) throw new Error(`Entity ${entity.name} lacks its key aspect ${entity.keyAspect}`);
    return key;
  }
}

/** The ecosystem's entities, then the catalog's own (catalog-registry-data.ts). */
const ALL_ENTITIES: readonly RegistryEntityData[] = [
  ...REGISTRY_DATA.entities,
  ...CATALOG_REGISTRY_DATA.entities,
];

/** The schema version of an aspect whose annotation names none (the ecosystem's DEFAULT_SCHEMA_VERSION). */
const DEFAULT_SCHEMA_VERSION = 1;

function buildAspectSpecs(): Map<string, AspectSpec> {
  const keyNames = new Set(ALL_ENTITIES.map((e) => e.keyAspect));
  const specs = new Map<string, AspectSpec>();
  for (const data of [...REGISTRY_DATA.aspects, ...CATALOG_REGISTRY_DATA.aspects]) {
    const schema = aspectAvroType(data.name);
    if (!schema) throw new Error(`Aspect ${data.name} has no parsed schema`);
    specs.set(data.name, {
      name: data.name,
      recordName: data.recordName,
      kind: data.kind,
      schemaVersion: data.schemaVersion ?? DEFAULT_SCHEMA_VERSION,
      isKey: keyNames.has(data.name),
      restricted: isRestrictedAspect(data.name),
      searchable: data.searchable,
      relationships: data.relationships,
      schema,
    });
  }
  return specs;
}

function buildEntitySpec(data: RegistryEntityData, aspects: ReadonlyMap<string, AspectSpec>): EntitySpec {
  const own = new Map<string, AspectSpec>();
  for (const name of [data.keyAspect, ...data.aspects]) {
    const spec = aspects.get(name);
    if (!spec) throw new Error(`Entity ${data.name} names unknown aspect ${name}`);
    own.set(name, spec);
  }
  return {
    name: data.name,
    keyAspect: data.keyAspect,
    aspects: own,
    searchable: true,
    ...(data.category === undefined ? {} : { category: data.category }),
    ...(data.snapshotName === undefined ? {} : { snapshotName: data.snapshotName }),
  };
}

function buildRegistry(): EntityRegistry {
  const aspects = buildAspectSpecs();
  const entities = ALL_ENTITIES.map((data) => buildEntitySpec(data, aspects));
  return new EntityRegistry(entities, [...aspects.values()]);
}

/** The catalog's entity registry, built once from the generated registry data. */
export const entityRegistry: EntityRegistry = buildRegistry();
