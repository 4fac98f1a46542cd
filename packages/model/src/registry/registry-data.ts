import type { AspectKind, RelationshipAnnotation, SearchableField } from '../types.js';

/**
 * The registry as data: what `pnpm registry:generate` extracts from the ecosystem's published Avro
 * schemas (the `acryl-datahub` wheel) and commits as `src/generated/registry-data.ts`. Names are the
 * wire names (`com.linkedin.*`); every named type is defined once, at its first use in `aspects` order,
 * and referenced by its full name after that, so the aspects parse in order into one avsc registry.
 */
export interface RegistryData {
  readonly source: { readonly package: string; readonly version: string; readonly sha256: string };
  readonly aspects: readonly RegistryAspectData[];
  readonly entities: readonly RegistryEntityData[];
}

export interface RegistryAspectData {
  readonly name: string;
  readonly recordName: string;
  readonly kind: AspectKind;
  /**
   * The `schemaVersion` of its `@Aspect` annotation, when it has one (the ecosystem's default is 1): the
   * server records it in the system metadata of what it writes.
   */
  readonly schemaVersion?: number;
  /** The avro record schema, annotations removed; URN fields carry `logicalType: "urn"`. */
  readonly schema: AvroJson;
  readonly searchable: readonly SearchableField[];
  readonly relationships: readonly RelationshipAnnotation[];
}

export interface RegistryEntityData {
  readonly name: string;
  readonly keyAspect: string;
  /** The ecosystem's category: `core`, `internal`, or absent. */
  readonly category?: string;
  /** Every aspect of the entity except the key aspect, in the ecosystem's order. */
  readonly aspects: readonly string[];
  /** The legacy snapshot record name, when `MetadataChangeEvent` has one for this entity. */
  readonly snapshotName?: string;
}

/** An avro schema as plain JSON. */
export type AvroJson = string | readonly AvroJson[] | { readonly [key: string]: unknown };
