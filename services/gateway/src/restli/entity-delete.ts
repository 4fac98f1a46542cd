import type { Request, Response } from 'express';
import {
  checkProposal,
  checkUrnForWrite,
  entityRegistry,
  isDomainError,
  parseUrn,
  PreconditionError,
  timeseriesRangeHeaders,
  ValidationError,
  type CheckedProposal,
  type EntitySpec,
  type TimeseriesRange,
} from '@catalog/model';
import type { GraphIndex, SearchIndex, SearchSortValue, TimeseriesIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { ProposalOutcome } from '@catalog/runtime';
import type { RequestOrigin } from '@catalog/auth';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { RouteGuards } from '../auth/route-guards.js';
import { ActionBody } from './action-body.js';
import { WAIT_FOR_INDEX_HEADER } from './ingest-proposal.js';
import { referenceSearchFields, referencesIn, withoutReferences } from './reference-removal.js';

export interface EntityDeleteDeps {
  readonly store: AspectStore;
  readonly graph: GraphIndex;
  /** Finds referrers the graph no longer links (see searchedSources). */
  readonly search: SearchIndex;
  readonly timeseries: TimeseriesIndex;
  readonly submitter: ProposalSubmitter;
  readonly guard: RouteGuards;
  readonly actorOf: (res: Response) => string;
  readonly originOf: (res: Response) => RequestOrigin;
  /** Refuses (403) writes the caller may not make. */
  readonly authorize: (res: Response, proposals: readonly CheckedProposal[]) => Promise<void>;
  /** Waits until the outcomes' change logs are indexed (X-Wait-For-Index: true). */
  readonly waitForIndex?: (outcomes: readonly ProposalOutcome[]) => Promise<void>;
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

function wantsIndexWait(req: Request): boolean {
  const value = req.get(WAIT_FOR_INDEX_HEADER);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ValidationError(`Header X-Wait-For-Index must be true or false, got ${JSON.stringify(value)}`);
}

/** A boolean parameter; Rest.li clients send booleans, some send "true"/"false". */
function optionalBoolean(body: ActionBody, name: string, fallback: boolean): boolean {
  const value = body.raw(name);
  if (value === undefined || value === null) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ValidationError(`${name} must be a boolean`);
}

/** Submits proposals synchronously; the first refused one is thrown as its domain error. */
async function submitAll(
  res: Response,
  deps: EntityDeleteDeps,
  proposals: readonly CheckedProposal[],
): Promise<readonly ProposalOutcome[]> {
  if (proposals.length === 0) return [];
  const outcomes =
    (await deps.submitter.submit(proposals, {
      sync: true,
      actor: deps.actorOf(res),
      origin: deps.originOf(res),
    })) ?? [];
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
 * POST /entities?action=delete {urn, aspectName?, startTimeMillis?, endTimeMillis?} (facts 5.1).
 * Without aspectName, a hard delete through the log: the key aspect's DELETE removes every stored
 * aspect and version (persistence refuses it for an active structured property), then every
 * time-series aspect's values in the range (none: all) go through time-series DELETEs. The counts are
 * taken just before: `rows` the stored versions, `timeseriesRows` the time-series documents. With
 * aspectName (a time-series aspect of the entity type), only that aspect's values in the range.
 */
export async function deleteEntityAction(req: Request, res: Response, deps: EntityDeleteDeps): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.requiredString('urn');
  // A delete is a write: the same urn checks, even when nothing is stored under the urn.
  checkUrnForWrite(urn);
  const entity = entityOf(urn);
  const aspectName = body.optionalString('aspectName');
  const startTimeMillis = body.optionalInt('startTimeMillis', { min: 0 });
  const endTimeMillis = body.optionalInt('endTimeMillis', { min: 0 });
  if (startTimeMillis !== undefined && endTimeMillis !== undefined && startTimeMillis > endTimeMillis)
    throw new ValidationError(
      `startTimeMillis (${startTimeMillis}) must not be after endTimeMillis (${endTimeMillis})`,
    );
  const range: TimeseriesRange = {
    ...(startTimeMillis === undefined ? {} : { startTimeMillis }),
    ...(endTimeMillis === undefined ? {} : { endTimeMillis }),
  };
  const aspect = aspectName === undefined ? undefined : entity.aspects.get(aspectName);
  if (aspectName !== undefined && aspect?.kind !== 'timeseries')
    throw new ValidationError(
      aspect === undefined
        ? `Not supported for non-timeseries aspect ${aspectName}: ${entity.name} has no such aspect.`
        : `Not supported for non-timeseries aspect ${aspectName}.`,
    );
  const waitIndex = wantsIndexWait(req);
  await deps.guard.deleteEntity(res, urn);

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
      await deps.authorize(res, [key]);
      // Alone first: a refused entity delete (an active structured property) deletes nothing else.
      outcomes.push(...(await submitAll(res, deps, [key])));
    }
  }
  await deps.authorize(res, timeseriesDeletes);
  outcomes.push(...(await submitAll(res, deps, timeseriesDeletes)));
  if (waitIndex && deps.waitForIndex) await deps.waitForIndex(outcomes);
  res.json({ value: aspect === undefined ? { urn, rows, timeseriesRows } : { urn, timeseriesRows } });
}

/** One aspect of another entity that refers to the urn, as deleteReferences lists it. */
interface RelatedAspect {
  readonly relationship: string;
  readonly entity: string;
  readonly aspect: string;
}

/**
 * POST /entities?action=deleteReferences {urn, dryRun?} (facts 5.2): the entities with incoming edges
 * to the urn (the graph index) or whose search documents hold it in a relationship-backed field (the
 * search index: after a hard delete of the urn the indexer removes its edges both ways, and the CLI
 * calls this after `action=delete`), soft-deleted ones included, and in their stored aspects the
 * relationship paths that hold it; unless
 * dryRun, each such aspect is rewritten without the urn (the array element holding it removed, a
 * single-valued field dropped; an aspect that would no longer be valid is deleted), a conditional
 * upsert on the version read, re-read and retried when another write got in first.
 */
export async function deleteReferencesAction(
  req: Request,
  res: Response,
  deps: EntityDeleteDeps,
): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.requiredString('urn');
  entityOf(urn);
  const dryRun = optionalBoolean(body, 'dryRun', false);
  const waitIndex = wantsIndexWait(req);
  await deps.guard.deleteEntity(res, urn);

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
      outcomes.push(...(await removeReference(res, deps, source, aspect, urn)));
  }
  if (waitIndex && deps.waitForIndex) await deps.waitForIndex(outcomes);
  res.json({ value: { total: related.length, relatedAspects: related.slice(0, MAX_RELATED_ASPECTS) } });
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
  res: Response,
  deps: EntityDeleteDeps,
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
      return await submitAll(res, deps, [proposal]);
    } catch (error) {
      if (error instanceof PreconditionError && attempt < REMOVAL_ATTEMPTS) continue;
      throw error;
    }
  }
}
