import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { formatUrn, ValidationError } from '@catalog/model';
import {
  matchesFilter,
  parseSearchInput,
  termsMatchText,
  type Filter,
  type SearchIndex,
} from '@catalog/search';
import type { ProposalOutcome } from '@catalog/runtime';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { documentFieldValues, requireUrnOfType } from './entity-urns.js';
import { writeDecided, writeDecidedOutcomes } from './aspect-changes.js';
import { ingestionSourceInfoOf, type UpdateIngestionSourceInput } from './ingestion-source-info.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const ENTITY = 'dataHubIngestionSource';
const INFO = 'dataHubIngestionSourceInfo';
const KEY = 'dataHubIngestionSourceKey';
const EXECUTION = 'dataHubExecutionRequest';
const EXECUTION_INPUT = 'dataHubExecutionRequestInput';
/** Every ingestion source operation (the ecosystem's canManageIngestion): recipes hold connection details. */
const MANAGE_INGESTION = ['MANAGE_INGESTION'] as const;

type Json = Readonly<Record<string, unknown>>;

/** A stored source: its urn and `dataHubIngestionSourceInfo`. */
export interface StoredSource {
  readonly urn: string;
  readonly info: Json;
}

/** How a listing is ordered: by a field of the source index. */
export interface SourceSort {
  readonly field: string;
  readonly sortOrder: 'ASCENDING' | 'DESCENDING';
}

/** A source's search document fields, as the source index names them (a `.keyword` suffix read alike). */
function sourceFieldValues(urn: string, info: Json): (field: string) => readonly unknown[] {
  const valuesOf = documentFieldValues(ENTITY, urn, new Map([[INFO, info as Record<string, unknown>]]));
  return (field) => valuesOf(field.replace(/\.keyword$/, ''));
}

/** Whether a stored source is in a listing: its name or type matches the query, its document the filter. */
export function ingestionSourceMatches(
  urn: string,
  info: Json,
  request: { readonly query?: string | null; readonly filter: Filter },
): boolean {
  const valuesOf = sourceFieldValues(urn, info);
  if (!matchesFilter(request.filter, valuesOf)) return false;
  const text = request.query?.trim() ?? '';
  if (text === '' || text === '*') return true;
  const query = parseSearchInput(text);
  switch (query.kind) {
    case 'all':
      return true;
    case 'text':
      return termsMatchText(query.terms, [...valuesOf('name'), ...valuesOf('type')].join(' '));
    case 'field': {
      const wanted = query.value.toLowerCase();
      return valuesOf(query.field).some((v) => {
        const value = String(v).toLowerCase();
        return query.prefix === true ? value.startsWith(wanted) : value === wanted;
      });
    }
  }
}

/**
 * The listing order: by the sort field (`name` sorts by type, then name, as the ecosystem does), else by
 * name; ties by urn.
 */
export function ingestionSourceOrder(
  sort: SourceSort | null | undefined,
): (a: StoredSource, b: StoredSource) => number {
  const fields =
    sort === null || sort === undefined ? ['name'] : sort.field === 'name' ? ['type', 'name'] : [sort.field];
  const sign = sort?.sortOrder === 'DESCENDING' ? -1 : 1;
  const keyOf = (s: StoredSource) => {
    const valuesOf = sourceFieldValues(s.urn, s.info);
    return fields.map((f) => String(valuesOf(f)[0] ?? '').toLowerCase());
  };
  return (a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    for (let i = 0; i < ka.length; i++) {
      const x = ka[i] ?? '';
      const y = kb[i] ?? '';
      if (x !== y) return x < y ? -sign : sign;
    }
    return a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0;
  };
}

/**
 * Ingestion sources: listing, reading, creating, updating and deleting them, and reading a recipe, all
 * for who holds MANAGE_INGESTION (recipes name hosts, users and secrets).
 */
export class IngestionSources {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    private readonly search: SearchIndex,
    private readonly runs: {
      /** The acryl-datahub release a run uses when its source names none. */
      readonly defaultCliVersion: string;
      readonly waitForIndex: (outcomes: readonly ProposalOutcome[]) => Promise<void>;
    },
  ) {}

  /** Whether the actor may read sources' recipes, however it reached the source (403 otherwise). */
  mayReadRecipes(ctx: RequestContext): Promise<void> {
    return requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
  }

  /** A page of the sources matching the query and filter, in the order asked. */
  async list(
    ctx: RequestContext,
    request: {
      readonly query?: string | null;
      readonly filter: Filter;
      readonly sort?: SourceSort | null;
      readonly start: number;
      readonly count: number;
    },
  ): Promise<{ readonly total: number; readonly sources: readonly StoredSource[] }> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    // Sources are few (an admin configures each by hand), so the listing reads them whole.
    const matching = (await this.stored.all(ENTITY, INFO))
      .filter((s) => ingestionSourceMatches(s.urn, s.info, request))
      .sort(ingestionSourceOrder(request.sort));
    return { total: matching.length, sources: matching.slice(request.start, request.start + request.count) };
  }

  /** One source, or undefined when none is stored at `urn`. */
  async get(ctx: RequestContext, urn: string): Promise<StoredSource | undefined> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    requireUrnOfType(urn, ENTITY);
    const info = await this.stored.aspect(urn, INFO);
    return info === undefined ? undefined : { urn, info };
  }

  /** Creates a source; returns its new urn. */
  async create(ctx: RequestContext, input: UpdateIngestionSourceInput): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    const info = ingestionSourceInfoOf(input);
    const urn = formatUrn(ENTITY, [randomUUID()]);
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
    return urn;
  }

  /**
   * Writes the source at `urn`: replaces an existing one's settings, keeping what the input cannot set,
   * or creates it (the ecosystem's updateIngestionSource upserts; `datahub ingest deploy` creates a
   * source by name through it).
   */
  async update(ctx: RequestContext, urn: string, input: UpdateIngestionSourceInput): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    requireUrnOfType(urn, ENTITY);
    const stored = await this.stored.aspect(urn, INFO);
    const info = ingestionSourceInfoOf(input, stored);
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
    return urn;
  }

  /**
   * A page of a source's execution requests, newest first: the runs the ecosystem's executors record,
   * and those the CLI records of its own runs (`datahub ingest` with its run-summary reporter), found
   * by the search index's `ingestionSource` field of their `dataHubExecutionRequestInput`.
   */
  async executions(
    ctx: RequestContext,
    sourceUrn: string,
    page: { readonly start: number; readonly count: number },
  ): Promise<{ readonly total: number; readonly urns: readonly string[] }> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    const response = await this.search.search({
      entityTypes: [EXECUTION],
      input: '*',
      filter: { or: [{ and: [{ field: 'ingestionSource', values: [sourceUrn], condition: 'EQUAL' }] }] },
      sort: [{ field: 'requestTimeMs', order: 'DESCENDING' }],
      start: page.start,
      count: page.count,
    });
    return { total: response.total, urns: response.hits.map((h) => h.urn) };
  }

  /** One execution request's urn when it exists, for who manages ingestion. */
  async execution(ctx: RequestContext, urn: string): Promise<string | undefined> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    requireUrnOfType(urn, EXECUTION);
    return (await this.stored.exists(urn)) ? urn : undefined;
  }

  /**
   * Requests a run of a source now (the ecosystem's createIngestionExecutionRequest): a new
   * `dataHubExecutionRequest` whose input an executor picks up, task RUN_INGEST from a MANUAL_INGESTION_SOURCE,
   * with the source's recipe (its `run_id` the request's urn, its `pipeline_name` the source's unless it
   * names one), CLI version (the default when the source names none), extra arguments and debug mode.
   * Answered once the request is indexed, so the source's executions list it.
   */
  async requestExecution(ctx: RequestContext, sourceUrn: string): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    requireUrnOfType(sourceUrn, ENTITY);
    const info = await this.stored.aspect(sourceUrn, INFO);
    if (info === undefined)
      throw new ValidationError(`Failed to find ingestion source with urn ${sourceUrn}`);
    const config = (info['config'] ?? {}) as Readonly<Record<string, unknown>>;
    if (typeof config['recipe'] !== 'string')
      throw new ValidationError(
        `Failed to find valid ingestion source with urn ${sourceUrn}. Missing recipe`,
      );
    const urn = formatUrn(EXECUTION, [randomUUID()]);
    const version =
      typeof config['version'] === 'string' && config['version'].trim() !== ''
        ? config['version']
        : undefined;
    const extra = (config['extraArgs'] ?? {}) as Readonly<Record<string, string>>;
    const args: Record<string, string> = {
      recipe: runRecipe(config['recipe'], urn, sourceUrn),
      version: version ?? this.runs.defaultCliVersion,
      ...extra,
      debug_mode: config['debugMode'] === true ? 'true' : 'false',
    };
    const input = {
      task: 'RUN_INGEST',
      source: { type: 'MANUAL_INGESTION_SOURCE', ingestionSource: sourceUrn },
      ...(typeof config['executorId'] === 'string' ? { executorId: config['executorId'] } : {}),
      requestedAt: Date.now(),
      actorUrn: ctx.authentication.actorUrn,
      args,
    };
    const outcomes = await writeDecidedOutcomes(this.proposals, ctx, [
      { urn, entityType: EXECUTION, aspect: EXECUTION_INPUT, value: input },
    ]);
    await this.runs.waitForIndex(outcomes);
    return urn;
  }

  async delete(ctx: RequestContext, urn: string): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_INGESTION);
    requireUrnOfType(urn, ENTITY);
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
    return urn;
  }
}

/** The recipe a run executes: `run_id` the execution request, `pipeline_name` the source's unless set. */
function runRecipe(recipe: string, runId: string, sourceUrn: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(recipe);
  } catch {
    throw new ValidationError('Failed to create execution request: Invalid recipe json provided.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ValidationError('Failed to create execution request: Invalid recipe json provided.');
  const json = parsed as Record<string, unknown>;
  const named =
    json['pipeline_name'] !== undefined && json['pipeline_name'] !== null && json['pipeline_name'] !== '';
  return JSON.stringify({ ...json, run_id: runId, ...(named ? {} : { pipeline_name: sourceUrn }) });
}
