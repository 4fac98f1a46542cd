import type { Client, Types } from '@opensearch-project/opensearch';
import { compareCodePoints } from '../sort-values.js';
import { rebuildBehindAlias, type RebuildOutcome, type RebuildPlan } from './index-rebuild.js';
import { versionedIndexName } from './index-names.js';
import type { OpenSearchLogger } from './logger.js';
import {
  addedSubfields,
  lackingSubfieldsQuery,
  PENDING_SUBFIELDS_META,
  pendingSubfieldsOf,
  withoutPendingSubfields,
} from './added-subfields.js';
import { asObject, isObject, type JsonObject } from './narrow.js';

/** How long the backfill of new subfields waits for its update_by_query: one hour. */
const BACKFILL_TIMEOUT_MS = 60 * 60 * 1000;

export interface IndexDefinition {
  readonly settings: Types.Indices_Common.IndexSettings;
  readonly mappings: Types.Common_Mapping.TypeMapping;
}

/**
 * Indices reached through an alias with the canonical name: the concrete index is `<alias>_<hash>`, so a
 * reindex can build a new one and swap the alias atomically (rebuild). Ensuring is idempotent: an
 * existing index gets only the mapping additions it lacks.
 */
export class AliasedIndices {
  constructor(
    private readonly client: Client,
    private readonly logger: OpenSearchLogger,
  ) {}

  async ensure(alias: string, definition: IndexDefinition): Promise<void> {
    const concrete = await this.concreteIndices(alias);
    if (concrete.length > 0) {
      await this.addMissingMappings(concrete, definition.mappings);
      return;
    }
    const index = versionedIndexName(alias, definition);
    const created = await this.client.indices.create(
      {
        index,
        body: {
          settings: definition.settings,
          mappings: definition.mappings,
          aliases: { [alias]: { is_write_index: true } },
        },
      },
      { ignore: [400] },
    );
    if (created.statusCode === 400 && errorType(created.body) !== 'resource_already_exists_exception') {
      throw new Error(`creating index ${index} for ${alias} failed: ${JSON.stringify(created.body)}`);
    }
    if (created.statusCode === 400) {
      // Another process created the same concrete index first; make sure the alias is there too.
      await this.client.indices.putAlias({ index, name: alias, body: { is_write_index: true } });
      await this.addMissingMappings([index], definition.mappings);
    } else {
      this.logger.info({ index, alias }, 'created index');
    }
  }

  /** Whether the alias (or a plain index of that name) exists. */
  async exists(alias: string): Promise<boolean> {
    return (await this.concreteIndices(alias)).length > 0;
  }

  /** Drops the concrete indices behind the alias (and the alias with them); absent is not an error. */
  async delete(alias: string): Promise<void> {
    const concrete = await this.concreteIndices(alias);
    if (concrete.length === 0) return;
    await this.client.indices.delete({ index: concrete.join(',') }, { ignore: [404] });
    this.logger.info({ alias, indices: concrete }, 'deleted index');
  }

  /** The mapping of the (first) concrete index behind the alias, or null when there is none. */
  async mapping(alias: string): Promise<JsonObject | null> {
    const response = await this.client.indices.getMapping({ index: alias }, { ignore: [404] });
    if (response.statusCode === 404) return null;
    const body = asObject(response.body, 'get mapping');
    const first = Object.values(body)[0];
    return first === undefined ? null : asObject(asObject(first, 'index mapping')['mappings'], 'mappings');
  }

  /** The concrete indices the name resolves to: those behind the alias, or the index of that name. */
  async concreteIndices(alias: string): Promise<string[]> {
    const response = await this.client.indices.get({ index: alias }, { ignore: [404] });
    if (response.statusCode === 404) return [];
    return Object.keys(asObject(response.body, 'get index'));
  }

  /**
   * Rebuilds the concrete index behind an alias with new mappings and swaps the alias to it (see
   * rebuildBehindAlias: writes through the alias are refused while the copy is finished, not lost).
   */
  rebuild(plan: RebuildPlan): Promise<RebuildOutcome> {
    return rebuildBehindAlias(this.client, this.logger, plan);
  }

  /**
   * The concrete indices behind the aliases matching `pattern` that `accept` takes, each with the
   * (first accepted) alias it is behind.
   */
  async behindAliases(
    pattern: string,
    accept: (alias: string) => boolean,
  ): Promise<{ readonly index: string; readonly alias: string }[]> {
    const response = await this.client.indices.getAlias({ name: pattern }, { ignore: [404] });
    if (response.statusCode === 404) return [];
    const out: { index: string; alias: string }[] = [];
    for (const [index, entry] of Object.entries(asObject(response.body, 'get alias'))) {
      const aliases = Object.keys(asObject(asObject(entry, 'alias entry')['aliases'] ?? {}, 'aliases'));
      const alias = aliases.find(accept);
      if (alias !== undefined) out.push({ index, alias });
    }
    return out.sort((a, b) => compareCodePoints(a.index, b.index));
  }

  /**
   * Puts the mapping additions an existing index lacks. A subfield added to a field the index already
   * maps (a new analysis of it) is indexed only for documents written from then on: the index lists it
   * in its `_meta` (PENDING_SUBFIELDS_META), the documents without it are rewritten from their source
   * (backfillSubfields), then the list is dropped. A process stopped before the end leaves the list,
   * and the next ensure finishes the backfill.
   */
  private async addMissingMappings(indices: readonly string[], wanted: Types.Common_Mapping.TypeMapping) {
    for (const index of indices) {
      const response = await this.client.indices.getMapping({ index });
      const existing = asObject(
        asObject(asObject(response.body, 'get mapping')[index], index)['mappings'],
        'mappings',
      );
      const sameProperties = isSubset(wanted.properties ?? {}, existing['properties'] ?? {});
      const sameMeta = JSON.stringify(wanted._meta ?? null) === JSON.stringify(existing['_meta'] ?? null);
      const pending = [
        ...new Set([
          ...pendingSubfieldsOf(existing['_meta']),
          ...addedSubfields(wanted.properties ?? {}, existing['properties'] ?? {}),
        ]),
      ];
      if (sameProperties && sameMeta && pending.length === 0) continue;
      const meta = wanted._meta ?? withoutPendingSubfields(existing['_meta']);
      const update = (withMeta: JsonObject) =>
        this.client.indices.putMapping({
          index,
          body: {
            properties: wanted.properties ?? {},
            _meta: withMeta,
            ...(wanted.dynamic_templates ? { dynamic_templates: wanted.dynamic_templates } : {}),
          },
        });
      if (pending.length > 0) {
        await update({ ...meta, [PENDING_SUBFIELDS_META]: pending });
        await this.backfillSubfields(index, pending);
      }
      await update(meta);
      this.logger.info({ index }, 'updated index mapping');
    }
  }

  /** Rewrites, from their source, the documents of `index` that lack one of the subfields. */
  private async backfillSubfields(index: string, subfields: readonly string[]): Promise<void> {
    this.logger.info({ index, subfields }, 'indexing new subfields of the documents already in the index');
    const response = await this.client.updateByQuery(
      {
        index,
        conflicts: 'proceed',
        refresh: true,
        wait_for_completion: true,
        body: { query: lackingSubfieldsQuery(subfields) },
      },
      // It visits every document indexed before the subfields (no request timeout of its own).
      { requestTimeout: BACKFILL_TIMEOUT_MS },
    );
    const body = asObject(response.body, 'update_by_query response');
    const failures = body['failures'];
    if (body['timed_out'] === true || (Array.isArray(failures) && failures.length > 0)) {
      throw new Error(
        `OpenSearch update_by_query on ${index} indexing subfields ${subfields.join(', ')} failed: ` +
          JSON.stringify(body['timed_out'] === true ? { timed_out: true } : failures).slice(0, 1000),
      );
    }
    this.logger.info({ index, subfields, updated: body['updated'] }, 'new subfields indexed');
  }
}

/** Whether everything `wanted` says is also in `actual` (the server adds defaults of its own). */
function isSubset(wanted: unknown, actual: unknown): boolean {
  if (isObject(wanted)) {
    if (!isObject(actual)) return false;
    return Object.entries(wanted).every(([key, value]) => isSubset(value, actual[key]));
  }
  if (Array.isArray(wanted)) {
    return (
      Array.isArray(actual) &&
      wanted.length === actual.length &&
      wanted.every((v, i) => isSubset(v, actual[i]))
    );
  }
  // The server echoes some scalars as strings (`"dynamic": "true"`).
  return wanted === actual || String(wanted) === String(actual);
}

function errorType(body: unknown): string | undefined {
  if (!isObject(body) || !isObject(body['error'])) return undefined;
  const type = body['error']['type'];
  return typeof type === 'string' ? type : undefined;
}
