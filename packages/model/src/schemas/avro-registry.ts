import avro from 'avsc';
import type { Type } from 'avsc';
import { REGISTRY_DATA } from '../generated/registry-data.js';
import { CATALOG_REGISTRY_DATA } from '../registry/catalog-registry-data.js';
import { UrnType } from './urn-type.js';

type ForSchemaInput = Parameters<typeof avro.Type.forSchema>[0];

/**
 * The one avsc registry of named types (records and enums by fully qualified wire name), shared by
 * every aspect, so that `com.linkedin.common.AuditStamp` and its kin are defined exactly once. The
 * generated data defines each named type at its first use, so the aspects parse in their order.
 */
const registry: Record<string, Type> = {};
const aspectTypes = new Map<string, Type>();

for (const aspect of [...REGISTRY_DATA.aspects, ...CATALOG_REGISTRY_DATA.aspects]) {
  const type = avro.Type.forSchema(aspect.schema as unknown as ForSchemaInput, {
    registry,
    logicalTypes: { urn: UrnType },
    // Values stay plain JSON: no record classes are needed.
    omitRecordMethods: true,
  });
  aspectTypes.set(aspect.name, type);
}

/** The parsed avsc record type of an aspect, by aspect name. */
export function aspectAvroType(aspectName: string): Type | undefined {
  return aspectTypes.get(aspectName);
}

/** A named avsc type (record or enum) by fully qualified name, e.g. `com.linkedin.common.AuditStamp`. */
export function namedAvroType(fullName: string): Type | undefined {
  return registry[fullName];
}
