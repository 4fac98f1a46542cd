import type { Client } from '@opensearch-project/opensearch';
import type {
  LeftoverStructuredProperty,
  StructuredPropertyMappingCleanup,
  StructuredPropertyMappingCleanupOptions,
} from '../port.js';
import {
  claimedFields,
  cleanupOutcome,
  keptFieldsOf,
  leftoversOf,
  removableFields,
  type UnclaimedStructuredFields,
} from '../structured-property-leftovers.js';
import type { AliasedIndices } from './aliased-index.js';
import type { IndexNames } from './index-names.js';
import type { OpenSearchLogger } from './logger.js';
import { mappedStructuredFields, withoutStructuredFields } from './mapped-structured-fields.js';
import { asObject, isObject, type JsonObject } from './narrow.js';
import { aggregationsOf } from './read-context.js';
import type { OpenSearchStructuredProperties } from './structured-property-definitions.js';

export interface MappingCleanupParts {
  readonly client: Client;
  readonly names: IndexNames;
  readonly indices: AliasedIndices;
  readonly definitions: OpenSearchStructuredProperties;
  readonly logger: OpenSearchLogger;
}

/** One entity index as the cleanup sees it: where it is, and its unclaimed structured fields. */
interface EntityIndexFields {
  readonly alias: string;
  readonly index: string;
  readonly unclaimed: UnclaimedStructuredFields;
}

/**
 * Leftover structured property mappings on OpenSearch, read from the real mappings of this prefix's
 * entity indices (GET _mapping), counted with an `exists` query per field, and removed by rebuilding
 * an index behind its alias without them (AliasedIndices.rebuild).
 *
 * Writes during a cleanup: an index being rebuilt takes writes through its alias while its documents
 * are first copied; then it is write-blocked while the documents created, changed or deleted during
 * that copy are carried over, and the alias swapped: writes in that window are refused (a 403 bulk
 * failure) and succeed when the caller retries them (the indexer's batches are redelivered), in the new
 * index. Under the block the removal is checked again: a field a definition claims by then, or one a
 * document holds a value in, abandons that index's rebuild (it is left as it was; run the cleanup
 * again). Definitions put during the rebuild are mapped in the new index once it is in place.
 */
export class OpenSearchStructuredPropertyCleanup {
  constructor(private readonly parts: MappingCleanupParts) {}

  async leftovers(): Promise<LeftoverStructuredProperty[]> {
    const [retired, indices] = await Promise.all([
      this.parts.definitions.retired(),
      this.entityIndexFields(),
    ]);
    return leftoversOf(
      retired,
      indices.map((i) => i.unclaimed),
    );
  }

  async cleanup(
    options: StructuredPropertyMappingCleanupOptions = {},
  ): Promise<StructuredPropertyMappingCleanup> {
    const keep = new Set(options.keep ?? []);
    const [retired, indices] = await Promise.all([
      this.parts.definitions.retired(),
      this.entityIndexFields(),
    ]);
    const kept = keptFieldsOf(
      retired,
      keep,
      indices.map((i) => i.unclaimed),
    );
    const removedFields: Record<string, string[]> = {};
    for (const { alias, index, unclaimed } of indices) {
      const removable = removableFields(unclaimed, kept);
      if (removable.length === 0) continue;
      const outcome = await this.parts.indices.rebuild({
        alias,
        index,
        mappings: (current) => withoutStructuredFields(current, removable),
        confirm: (blocked) => this.stillRemovable(blocked, removable),
      });
      if (outcome.rebuilt) removedFields[unclaimed.entityType] = removable;
    }
    if (Object.keys(removedFields).length > 0) await this.parts.definitions.mapAll();
    const outcome = cleanupOutcome(removedFields, await this.leftovers(), keep);
    await this.parts.definitions.forget(outcome.forgotten);
    this.parts.logger.info(
      { removedFields, forgotten: outcome.forgotten, kept: outcome.kept.map((k) => k.urn) },
      'structured property mappings cleaned up',
    );
    return outcome;
  }

  /** Under the write block: no definition claims the fields since, and no document holds a value. */
  private async stillRemovable(index: string, fields: readonly string[]): Promise<boolean> {
    const claimed = claimedFields(await this.parts.definitions.all());
    const counts = await this.valueCounts(index, fields);
    const busy = fields.filter((f) => claimed.has(f) || (counts.get(f) ?? 0) > 0);
    if (busy.length === 0) return true;
    this.parts.logger.warn(
      { index, fields: busy },
      'structured property fields claimed or written during the cleanup: their index is left as it was',
    );
    return false;
  }

  /**
   * This prefix's entity indices (an alias with more than one concrete index, never made here, is left
   * out with a warning), each with the structured fields it maps that no definition of the view claims,
   * and the documents holding a value in each.
   */
  private async entityIndexFields(): Promise<EntityIndexFields[]> {
    const { client, names, indices, definitions, logger } = this.parts;
    const [behind, view] = await Promise.all([
      indices.behindAliases(names.entity('*'), (alias) => names.isEntityAlias(alias)),
      definitions.all(),
    ]);
    const claimed = claimedFields(view);
    const perAlias = new Map<string, string[]>();
    for (const { index, alias } of behind) perAlias.set(alias, [...(perAlias.get(alias) ?? []), index]);
    const single = behind.filter(({ alias, index }) => {
      const all = perAlias.get(alias) ?? [];
      if (all.length > 1 && all[0] === index)
        logger.warn({ alias, indices: all }, 'alias with several indices: its mappings are left alone');
      return all.length === 1;
    });
    if (single.length === 0) return [];
    const response = await client.indices.getMapping({ index: single.map((s) => s.index).join(',') });
    const body = asObject(response.body, 'get mapping');
    const out: EntityIndexFields[] = [];
    for (const { index, alias } of single) {
      const mappings = asObject(asObject(body[index], `mapping of ${index}`)['mappings'], 'mappings');
      const entityType = entityTypeOf(mappings);
      if (entityType === undefined) {
        logger.warn({ index, alias }, 'entity index without a catalog spec in its mapping: left alone');
        continue;
      }
      const fields = mappedStructuredFields(mappings).filter((f) => !claimed.has(f));
      if (fields.length === 0) continue;
      out.push({ alias, index, unclaimed: { entityType, counts: await this.valueCounts(index, fields) } });
    }
    return out;
  }

  /** The documents of an index holding a value in each field (one request: a filters aggregation). */
  private async valueCounts(index: string, fields: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (fields.length === 0) return counts;
    const filters = Object.fromEntries(fields.map((field, i) => [`f${i}`, { exists: { field } }]));
    const response = await this.parts.client.search({
      index,
      body: { size: 0, track_total_hits: false, aggs: { held: { filters: { filters } } } },
    });
    const buckets = asObject(
      asObject(aggregationsOf(response.body)['held'], 'held aggregation')['buckets'],
      'held buckets',
    );
    fields.forEach((field, i) => {
      const bucket = buckets[`f${i}`];
      counts.set(
        field,
        isObject(bucket) && typeof bucket['doc_count'] === 'number' ? bucket['doc_count'] : 0,
      );
    });
    return counts;
  }
}

/** The entity type an index was made for, from the spec in its mapping's _meta. */
function entityTypeOf(mappings: JsonObject): string | undefined {
  const meta = mappings['_meta'];
  if (!isObject(meta) || !isObject(meta['catalog']) || !isObject(meta['catalog']['spec'])) return undefined;
  const entityType = meta['catalog']['spec']['entityType'];
  return typeof entityType === 'string' ? entityType : undefined;
}
