import avro from 'avsc';
import type { Type } from 'avsc';
import type { AspectDefinition, AvroSchema } from './avro-schema.js';
import { CHART_ASPECTS } from './chart/chart-aspects.js';
import { COMMON_ASPECTS } from './common/common-aspects.js';
import { SHARED_TYPES } from './common/shared-types.js';
import { CONTAINER_DOMAIN_ASPECTS } from './container/container-domain-aspects.js';
import { DASHBOARD_ASPECTS } from './dashboard/dashboard-aspects.js';
import { DATAJOB_ASPECTS } from './datajob/datajob-aspects.js';
import { DATASET_ASPECTS } from './dataset/dataset-aspects.js';
import { GLOSSARY_ASPECTS } from './glossary/glossary-aspects.js';
import { IDENTITY_ASPECTS } from './identity/identity-aspects.js';
import { KEY_ASPECTS } from './metadata/key-aspects.js';
import { PLATFORM_ASPECTS } from './platform/platform-aspects.js';
import { SCHEMA_ASPECTS } from './schema/schema-aspects.js';
import { STRUCTURED_ASPECTS } from './structured/structured-aspects.js';
import { TAG_ASPECTS } from './tag/tag-aspects.js';
import { UrnType } from './urn-type.js';

type ForSchemaInput = Parameters<typeof avro.Type.forSchema>[0];
type ForSchemaOptions = NonNullable<Parameters<typeof avro.Type.forSchema>[1]>;

/** Every aspect definition, in parse order: a later schema may refer by name to an earlier named type. */
export const ASPECT_DEFINITIONS: readonly AspectDefinition[] = [
  ...COMMON_ASPECTS,
  ...KEY_ASPECTS,
  ...DATASET_ASPECTS,
  ...SCHEMA_ASPECTS,
  ...CHART_ASPECTS,
  ...DASHBOARD_ASPECTS,
  ...TAG_ASPECTS,
  ...IDENTITY_ASPECTS,
  ...GLOSSARY_ASPECTS,
  ...DATAJOB_ASPECTS,
  ...STRUCTURED_ASPECTS,
  ...PLATFORM_ASPECTS,
  ...CONTAINER_DOMAIN_ASPECTS,
];

/**
 * The one avsc registry of named types (records and enums by fully qualified name), shared by every
 * aspect so that `com.linkedin.common.AuditStamp` and its kin are defined exactly once.
 */
const registry: Record<string, Type> = {};

function parse(schema: AvroSchema): Type {
  if (typeof schema === 'object' && !Array.isArray(schema) && 'name' in schema) {
    const existing = registry[schema.name];
    // An aspect that is also a shared type (globalTags inside schema fields) is parsed once.
    if (existing) return existing;
  }
  const options: Partial<ForSchemaOptions> = {
    registry,
    logicalTypes: { urn: UrnType },
    // Types are frozen after parsing; record methods are not needed, values stay plain JSON.
    omitRecordMethods: true,
  };
  return avro.Type.forSchema(schema as unknown as ForSchemaInput, options);
}

for (const shared of SHARED_TYPES) parse(shared);

const aspectTypes = new Map<string, Type>();
for (const definition of ASPECT_DEFINITIONS) {
  if (aspectTypes.has(definition.name)) throw new Error(`Duplicate aspect definition ${definition.name}`);
  aspectTypes.set(definition.name, parse(definition.schema));
}

/** The parsed avsc record type of an aspect, by aspect name. */
export function aspectAvroType(aspectName: string): Type | undefined {
  return aspectTypes.get(aspectName);
}

/** A named avsc type (record or enum) by fully qualified name, e.g. `com.linkedin.common.AuditStamp`. */
export function namedAvroType(fullName: string): Type | undefined {
  return registry[fullName];
}
