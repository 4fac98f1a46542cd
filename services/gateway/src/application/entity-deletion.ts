import {
  checkProposal,
  entityRegistry,
  isDomainError,
  parseUrn,
  PreconditionError,
  timeseriesRangeHeaders,
  type CheckedProposal,
  type EntitySpec,
  type TimeseriesRange,
} from '@catalog/model';
import type { GraphIndex, SearchIndex, SearchSortValue, TimeseriesIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { ProposalOutcome } from '@catalog/runtime';
import type { RequestContext } from '@catalog/auth';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { AccessPolicy } from './access-policy.js';
import type { Proposals } from './proposals.js';
import { referenceSearchFields, referencesIn, withoutReferences } from './reference-removal.js';

export interface EntityDeletionDeps {
  readonly store: AspectStore;
  readonly graph: GraphIndex;
  /** Finds referrers the graph no longer links (see searchedSources). */
  readonly search: SearchIndex;
  readonly timeseries: TimeseriesIndex;
  readonly proposals: Proposals;
  readonly policy: AccessPolicy;
  /** Waits until the outcomes' change logs are indexed (X-Wait-For-Index: true). */
  readonly waitForIndex: (outcomes: readonly ProposalOutcome[]) => Promise<void>;
}

/** A hard delete of an entity, or of one time-series aspect's values of it. */
export interface EntityDeleteRequest {
  readonly urn: string;
  /** A time-series aspect of the entity: only its values in the range go. */
  readonly aspect?: string;
  readonly range: TimeseriesRange;
  /** Answer only once the change is indexed. */
  readonly waitIndex: boolean;
}

/** What a delete removed: the stored versions (without an aspect) and the time-series documents. */
export interface EntityDeleteResult {
  readonly urn: string;
  readonly rows?: number;
  readonly timeseriesRows: number;
}

/** The referrers deleteReferences found (a sample), and how many. */
export interface ReferencesResult {
  readonly total: number;
  readonly relatedAspects: readonly RelatedAspect[];
}

/** The sample of referencing aspects deleteReferences answers with, at most (as the ecosystem). */
export const MAX_RELATED_ASPECTS = 10;
/** Incoming edges read per round while collecting references. */
const RELATED_PAGE = 1000;
/** Search hits read per round while collecting references. */
const SEARCH_PAGE = 1000;
/** Attempts of one reference removal that lost a race with another write of the aspect. */
const REMOVAL_ATTEMPTS = 5;

function entityOf(urn: string): EntitySpec {
  return entityRegistry.requireEntity(parseUrn(urn).entityType);
}

/** Submits proposals synchronously; the first refused one is thrown as its domain error. */
async function submitAll(
  ctx: RequestContext,
  deps: EntityDeletionDeps,
  proposals: readonly CheckedProposal[],
): Promise<readonly ProposalOutcome[]> {
  if (proposals.length === 0) return [];
  const outcomes = (await deps.proposals.submitDecided(ctx, proposals, { sync: true })) ?? [];
  const failure = outcomes.find((o) => !o.ok);
  if (failure) throw errorOfOutcome(failure);
  return outcomes;
}

function timeseriesDelete(entity: EntitySpec, urn: string, aspect: string, range: TimeseriesRange) {
  const headers = timeseriesRangeHeaders(range);
  return checkProposal({
    entityType: entity.name,
    entityUrn: urn,
    changeType: 'DELETE',
    aspectName: aspect,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  });
}

/**
 * Hard-deletes an entity (Rest.li `POST /entities?action=delete`). Without aspectName, a hard delete through the log: the key aspect's DELETE removes every stored
 * aspect and version (persistence refuses it for an active structured property), then every
 * time-series aspect's values in the range (none: all) go through time-series DELETEs. The counts are
 * taken just before: `rows` the stored versions, `timeseriesRows` the time-series documents. With
 * aspectName (a time-series aspect of the entity type), only that aspect's values in the range.
 */
export async function deleteEntity(
  ctx: RequestContext,
  request: EntityDeleteRequest,
  deps: EntityDeletionDeps,
): Promise<EntityDeleteResult> {
  const { urn, range } = request;
  const entity = entityOf(urn);
  const aspect = request.aspect === undefined ? undefined : entity.aspects.get(request.aspect);
  await deps.policy.deleteEntity(ctx, urn);

  const timeseriesAspects = aspect
    ? [aspect.name]
    : [...entity.aspects.values()].filter((a) => a.kind === 'timeseries').map((a) => a.name);
  const counts = await Promise.all(
    timeseriesAspects.map(async (name) => ({
      name,
      count: await deps.timeseries.count({ entityType: entity.name, aspect: name, urn, ...range }),
    })),
  );
  const timeseriesRows = counts.reduce((sum, c) => sum + c.count, 0);
  const timeseriesDeletes = counts
    .filter((c) => c.count > 0)
    .map((c) => timeseriesDelete(entity, urn, c.name, range));

  const outcomes: ProposalOutcome[] = [];
  let rows = 0;
  if (aspect === undefined) {
    const stored = await deps.store.getLatest(urn);
    const versions = await Promise.all(stored.map((a) => deps.store.listVersions(urn, a.aspect)));
    rows = versions.reduce((sum, v) => sum + v.length, 0);
    if (stored.length > 0) {
      const key = checkProposal({
        entityType: entity.name,
        entityUrn: urn,
        changeType: 'DELETE',
        aspectName: entity.keyAspect,
      });
      await deps.proposals.authorize(ctx, [key]);
      // Alone first: a refused entity delete (an active structured property) deletes nothing else.
      outcomes.push(...(await submitAll(ctx, deps, [key])));
    }
  }
  await deps.proposals.authorize(ctx, timeseriesDeletes);
  outcomes.push(...(await submitAll(ctx, deps, timeseriesDeletes)));
  if (request.waitIndex) await deps.waitForIndex(outcomes);
  return aspect === undefined ? { urn, rows, timeseriesRows } : { urn, timeseriesRows };
}

/** One aspect of another entity that refers to the urn, as deleteReferences lists it. */
export interface RelatedAspect {
  readonly relationship: string;
  readonly entity: string;
  readonly aspect: string;
}

/**
 * Removes the references to an entity (Rest.li `POST /entities?action=deleteReferences`): the entities with incoming edges
 * to the urn (the graph index) or whose search documents hold it in a relationship-backed field (the
 * search index: after a hard delete of the urn the indexer removes its edges both ways, and the CLI
 * calls this after `action=delete`), soft-deleted ones included, and in their stored aspects the
 * relationship paths that hold it; unless
 * dryRun, each such aspect is rewritten without the urn (the array element holding it removed, a
 * single-valued field dropped; an aspect that would no longer be valid is deleted), a conditional
 * upsert on the version read, re-read and retried when another write got in first.
 */
export async function deleteReferences(
  ctx: RequestContext,
  request: { readonly urn: string; readonly dryRun: boolean; readonly waitIndex: boolean },
  deps: EntityDeletionDeps,
): Promise<ReferencesResult> {
  const { urn, dryRun } = request;
  entityOf(urn);
  await deps.policy.deleteEntity(ctx, urn);

  const [linked, searched] = await Promise.all([
    incomingSources(deps.graph, urn),
    searchedSources(deps.search, urn),
  ]);
  const sources = new Set([...linked, ...searched]);
  const found = sources.size === 0 ? new Map() : await deps.store.getLatestMany([...sources]);
  const related: RelatedAspect[] = [];
  const targets: { source: string; aspect: string }[] = [];
  for (const source of [...sources].sort()) {
    const entity = entityRegistry.getEntity(parseUrn(source).entityType);
    if (entity === undefined) continue;
    for (const stored of (found.get(source) ?? []) as readonly StoredAspect[]) {
      const spec = entity.aspects.get(stored.aspect);
      if (spec === undefined || spec.relationships.length === 0) continue;
      const held = referencesIn(spec, stored.value, urn);
      const names = [...new Set(held.map((h) => h.relationship))];
      for (const relationship of names) related.push({ relationship, entity: source, aspect: stored.aspect });
      if (held.length > 0) targets.push({ source, aspect: stored.aspect });
    }
  }
  const outcomes: ProposalOutcome[] = [];
  if (!dryRun) {
    for (const { source, aspect } of targets)
      outcomes.push(...(await removeReference(ctx, deps, source, aspect, urn)));
  }
  if (request.waitIndex) await deps.waitForIndex(outcomes);
  return { total: related.length, relatedAspects: related.slice(0, MAX_RELATED_ASPECTS) };
}

/** Every entity with an edge to the urn. */
async function incomingSources(graph: GraphIndex, urn: string): Promise<Set<string>> {
  const sources = new Set<string>();
  for (let start = 0; ; start += RELATED_PAGE) {
    const page = await graph.related({ urn, direction: 'INCOMING', types: [], start, count: RELATED_PAGE });
    for (const r of page.relationships) sources.add(r.entity);
    if (page.relationships.length < RELATED_PAGE || start + RELATED_PAGE >= page.total) return sources;
  }
}

/**
 * Every entity whose search document (soft-deleted ones too) holds the urn in a field a relationship
 * to the urn's entity type is indexed under (referenceSearchFields), one keyset scroll per entity type.
 */
async function searchedSources(search: SearchIndex, urn: string): Promise<Set<string>> {
  const byType = new Map<string, string[]>();
  for (const { entityType, field } of referenceSearchFields(
    parseUrn(urn).entityType,
    entityRegistry.entities(),
  ))
    byType.set(entityType, [...(byType.get(entityType) ?? []), field]);
  const found = await Promise.all(
    [...byType].map(async ([entityType, fields]) => {
      const urns: string[] = [];
      let after: string | readonly SearchSortValue[] = '';
      for (;;) {
        const page = await search.search({
          entityTypes: [entityType],
          input: '*',
          start: 0,
          count: SEARCH_PAGE,
          searchAfter: after,
          includeRemoved: true,
          filter: { or: fields.map((field) => ({ and: [{ field, values: [urn], condition: 'EQUAL' }] })) },
        });
        for (const hit of page.hits) urns.push(hit.urn);
        const last = page.hits[page.hits.length - 1];
        if (page.hits.length < SEARCH_PAGE || last === undefined) return urns;
        after = last.sortValues ?? [last.urn];
      }
    }),
  );
  return new Set(found.flat());
}

/** Rewrites one aspect of `source` without its references to `urn`; the outcomes of what it submitted. */
async function removeReference(
  ctx: RequestContext,
  deps: EntityDeletionDeps,
  source: string,
  aspectName: string,
  urn: string,
): Promise<readonly ProposalOutcome[]> {
  const entity = entityOf(source);
  const spec = entity.aspects.get(aspectName)!;
  for (let attempt = 1; ; attempt++) {
    const stored = await deps.store.get(source, aspectName);
    if (stored === null) return [];
    const held = referencesIn(spec, stored.value, urn);
    if (held.length === 0) return [];
    const value = withoutReferences(
      stored.value as Record<string, unknown>,
      [...new Set(held.map((h) => h.path))],
      urn,
    );
    const version = stored.systemMetadata?.version;
    let proposal: CheckedProposal;
    try {
      proposal = checkProposal({
        entityType: entity.name,
        entityUrn: source,
        changeType: 'UPSERT',
        aspectName,
        aspect: { contentType: 'application/json', value: JSON.stringify(value) },
        ...(version === undefined ? {} : { headers: { 'If-Version-Match': version } }),
      });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      // Without the reference the aspect is no longer valid (a required field held it): it goes.
      proposal = checkProposal({
        entityType: entity.name,
        entityUrn: source,
        changeType: 'DELETE',
        aspectName,
      });
    }
    try {
      return await submitAll(ctx, deps, [proposal]);
    } catch (error) {
      if (error instanceof PreconditionError && attempt < REMOVAL_ATTEMPTS) continue;
      throw error;
    }
  }
}

/** Hard deletes and reference removal, as the use cases the Rest.li delete actions call. */
export class EntityDeletion {
  constructor(private readonly deps: EntityDeletionDeps) {}

  delete(ctx: RequestContext, request: EntityDeleteRequest): Promise<EntityDeleteResult> {
    return deleteEntity(ctx, request, this.deps);
  }

  deleteReferences(
    ctx: RequestContext,
    request: { readonly urn: string; readonly dryRun: boolean; readonly waitIndex: boolean },
  ): Promise<ReferencesResult> {
    return deleteReferences(ctx, request, this.deps);
  }
}
