import { createHash } from 'node:crypto';

/** Index names as the ecosystem spells them (IndexConventionImpl), with INDEX_PREFIX as `<prefix>_`. */
export class IndexNames {
  constructor(private readonly prefix: string) {}

  /** `<prefix_><entity type lowercased>index_v2`: the alias every entity read and write goes through. */
  entity(entityType: string): string {
    return this.prefixed(`${entityType.toLowerCase()}index_v2`);
  }

  /** `<prefix_><entity>_<aspect>aspect_v1`, lowercased. */
  timeseries(entityType: string, aspect: string): string {
    return this.prefixed(`${entityType}_${aspect}aspect_v1`.toLowerCase());
  }

  graph(): string {
    return this.prefixed('graph_service_v1');
  }

  /** `<prefix_>structured_property_definitions_v1`: the structured property definitions view. */
  structuredPropertyDefinitions(): string {
    return this.prefixed('structured_property_definitions_v1');
  }

  /** Whether a name is an entity alias of this prefix (`entity()` of some entity type, not another prefix's). */
  isEntityAlias(name: string): boolean {
    const head = this.prefix === '' ? '' : `${this.prefix}_`;
    return name.startsWith(head) && /^[a-z0-9]+index_v2$/.test(name.slice(head.length));
  }

  private prefixed(name: string): string {
    return this.prefix === '' ? name : `${this.prefix}_${name}`;
  }
}

/**
 * The concrete index behind an alias: named after a hash of its creation body, so two processes that
 * ensure the same index at once create the same one, and a reindex to a new mapping gets a new name.
 */
export function versionedIndexName(alias: string, creationBody: unknown): string {
  return `${alias}_${shortHash(JSON.stringify(creationBody))}`;
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** OpenSearch document ids may be at most 512 bytes: longer URNs are replaced by their SHA-256. */
export function documentId(key: string): string {
  return Buffer.byteLength(key, 'utf8') <= 512
    ? key
    : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** A stable id for a tuple of strings (edges): unambiguous joining, then SHA-256. */
export function tupleId(parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
