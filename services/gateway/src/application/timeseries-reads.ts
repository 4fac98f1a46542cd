import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, isRestrictedAspect, ValidationError } from '@catalog/model';
import { SYSTEM_ACTOR } from '@catalog/runtime';
import type {
  TimeseriesDocument,
  TimeseriesIndex,
  TimeseriesPosition,
  TimeseriesQuery,
} from '@catalog/search';
import type { StoredAspect } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import {
  checkStatsRequest,
  TimeseriesStats,
  type AggregationSpec,
  type GenericTable,
  type GroupingBucket,
} from './timeseries-stats.js';
import type { Filter } from '@catalog/search';

/** Values one stats request may aggregate: beyond, the caller narrows its filter. */
const MAX_STATS_VALUES = 200_000;
const STATS_PAGE = 2000;

/** Time-series values and where a scan resumes (domain data, re-exported for the interfaces). */
export type { TimeseriesDocument, TimeseriesPosition } from '@catalog/search';

/** One page of a time-series scan across the entities of a type. */
export interface TimeseriesScrollRequest {
  readonly entityType: string;
  readonly aspect: string;
  readonly count: number;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly after?: TimeseriesPosition;
}

export interface TimeseriesPage {
  /** The values of entities the actor may read, newest first. */
  readonly documents: readonly TimeseriesDocument[];
  /** Where the next page resumes, when this one was full. */
  readonly next?: TimeseriesPosition;
}

/**
 * Reads of time-series aspect values. Decides the time-series read privileges (AccessPolicy
 * readTimeseries / scrollTimeseries), and on a scan each entity's values as a single read of it would
 * be: values of entities the actor may not read are left out of the page.
 */
export class TimeseriesReads {
  constructor(
    private readonly timeseries: TimeseriesIndex,
    private readonly policy: AccessPolicy,
  ) {}

  /**
   * One entity's newest value of a time-series aspect at or before `version` (epoch ms; 0: the newest),
   * shaped as a stored aspect (version 0, created at its timestamp), or null.
   */
  async latestValue(
    ctx: RequestContext,
    urn: string,
    entityType: string,
    aspect: string,
    version: number,
  ): Promise<StoredAspect | null> {
    await this.policy.readTimeseries(ctx, urn, aspect);
    requireUnrestricted(ctx, aspect);
    return newestTimeseriesValue(this.timeseries, { urn, entityType, aspect, version });
  }

  /**
   * One entity's values of a time-series aspect, newest first (the Rest.li getTimeseriesAspectValues):
   * `query` names the entity, the aspect and the range.
   */
  async values(
    ctx: RequestContext,
    query: TimeseriesQuery & { readonly urn: string },
  ): Promise<readonly TimeseriesDocument[]> {
    await this.policy.readTimeseries(ctx, query.urn, query.aspect);
    requireUnrestricted(ctx, query.aspect);
    return this.timeseries.query(query);
  }

  /**
   * Aggregated statistics of one aspect's values (the Rest.li getTimeseriesStats): rows grouped by the
   * buckets, a column per metric (timeseries-stats.ts). Decided as a scan of the aspect; the values of
   * entities the actor may not read take no part.
   */
  async stats(
    ctx: RequestContext,
    request: {
      readonly entityType: string;
      readonly aspect: string;
      readonly metrics: readonly AggregationSpec[];
      readonly buckets: readonly GroupingBucket[];
      readonly filter?: Filter;
    },
  ): Promise<GenericTable> {
    await this.policy.scrollTimeseries(ctx, request.entityType, request.aspect);
    requireUnrestricted(ctx, request.aspect);
    checkStatsRequest(request.aspect, request.metrics, request.buckets);
    const stats = new TimeseriesStats(request.aspect, request.metrics, request.buckets);
    let after: TimeseriesPosition | undefined;
    let scanned = 0;
    do {
      const page = await this.timeseries.query({
        entityType: request.entityType,
        aspect: request.aspect,
        limit: STATS_PAGE,
        ...(request.filter === undefined ? {} : { filter: request.filter }),
        ...(after === undefined ? {} : { after }),
      });
      const readable = new Set(await this.policy.readable(ctx, [...new Set(page.map((d) => d.urn))]));
      for (const document of page) if (readable.has(document.urn)) stats.add(document);
      scanned += page.length;
      if (scanned > MAX_STATS_VALUES)
        throw new ValidationError(
          `The filter matches more than ${MAX_STATS_VALUES} values of ${request.aspect}; narrow it (e.g. by urn or time)`,
        );
      const last = page[page.length - 1];
      after =
        last !== undefined && page.length === STATS_PAGE
          ? { timestampMillis: last.timestampMillis, id: last.id }
          : undefined;
    } while (after !== undefined);
    return stats.table();
  }

  /** A page of every entity's values of one aspect, newest first. */
  async scroll(ctx: RequestContext, request: TimeseriesScrollRequest): Promise<TimeseriesPage> {
    await this.policy.scrollTimeseries(ctx, request.entityType, request.aspect);
    requireUnrestricted(ctx, request.aspect);
    if (request.count === 0) return { documents: [] };
    const documents = await this.timeseries.query({
      entityType: request.entityType,
      aspect: request.aspect,
      limit: request.count,
      ...(request.startTimeMillis === undefined ? {} : { startTimeMillis: request.startTimeMillis }),
      ...(request.endTimeMillis === undefined ? {} : { endTimeMillis: request.endTimeMillis }),
      ...(request.after === undefined ? {} : { after: request.after }),
    });
    const readable = new Set(await this.policy.readable(ctx, [...new Set(documents.map((d) => d.urn))]));
    const last = documents[documents.length - 1];
    return {
      documents: documents.filter((d) => readable.has(d.urn)),
      ...(last !== undefined && documents.length === request.count
        ? { next: { timestampMillis: last.timestampMillis, id: last.id } }
        : {}),
    };
  }
}

/**
 * The newest value of one entity's time-series aspect at or before `version` (0: the newest), as a
 * stored aspect; no privilege asked (for the use cases that decided their own, such as a delete).
 */
export async function newestTimeseriesValue(
  timeseries: TimeseriesIndex,
  asked: { urn: string; entityType: string; aspect: string; version: number },
): Promise<StoredAspect | null> {
  const [newest] = await timeseries.query({
    entityType: asked.entityType,
    aspect: asked.aspect,
    urn: asked.urn,
    limit: 1,
    ...(asked.version > 0 ? { endTimeMillis: asked.version } : {}),
  });
  if (newest === undefined) return null;
  return {
    urn: asked.urn,
    aspect: asked.aspect,
    version: 0,
    value: newest.value,
    systemMetadata: (newest.systemMetadata ?? null) as StoredAspect['systemMetadata'],
    created: { time: newest.timestampMillis, actor: SYSTEM_ACTOR },
  };
}

function requireUnrestricted(ctx: RequestContext, aspect: string): void {
  if (!ctx.authentication.isSystem && isRestrictedAspect(aspect))
    throw new ForbiddenError(`${aspect} holds secret material and is not returned`);
}
