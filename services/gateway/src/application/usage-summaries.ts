import type { RequestContext } from '@catalog/auth';
import { ForbiddenError } from '@catalog/model';
import type { TimeseriesDocument } from '@catalog/search';
import type { TimeseriesReads } from './timeseries-reads.js';

/** How far back the "last 30 days" summaries look. */
export const SUMMARY_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** How many users a summary names, the most active first. */
export const MAX_TOP_USERS = 5;
/** The most usage buckets a summary reads (a day each: far more than the window holds). */
const MAX_BUCKETS = 10_000;

export interface DatasetUsageSummary {
  readonly queryCountLast30Days: number | null;
  readonly uniqueUserCountLast30Days: number;
  readonly topUsersLast30Days: readonly string[];
}

export interface DashboardUsageSummary {
  readonly viewCount: number | null;
  readonly viewCountLast30Days: number | null;
  readonly uniqueUserCountLast30Days: number;
  readonly topUsersLast30Days: readonly string[];
}

type Json = Readonly<Record<string, unknown>>;

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const isBucket = (d: TimeseriesDocument) => typeof d.value['eventGranularity'] === 'object';

/** Users by their summed count, the largest first, then by urn. */
function usersOf(documents: readonly TimeseriesDocument[], countField: string) {
  const counts = new Map<string, number>();
  for (const d of documents) {
    const entries = Array.isArray(d.value['userCounts']) ? (d.value['userCounts'] as Json[]) : [];
    for (const entry of entries) {
      const user = entry['user'];
      if (typeof user !== 'string') continue;
      counts.set(user, (counts.get(user) ?? 0) + (numberOf(entry[countField]) ?? 0));
    }
  }
  const ordered = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return { unique: counts.size, top: ordered.slice(0, MAX_TOP_USERS).map(([user]) => user) };
}

/** The sum over buckets of `field`, each bucket (timestamp) counted once with its newest value. */
function sumPerBucket(documents: readonly TimeseriesDocument[], field: string): number | null {
  const perBucket = new Map<number, number>();
  for (const d of documents) {
    const value = numberOf(d.value[field]);
    if (value !== undefined && !perBucket.has(d.timestampMillis)) perBucket.set(d.timestampMillis, value);
  }
  return perBucket.size === 0 ? null : [...perBucket.values()].reduce((a, b) => a + b, 0);
}

/**
 * The last 30 days of an entity's usage, from its usage-statistics time series (as the ecosystem's
 * `statsSummary`): summed per-bucket counts and the most active users. The actor needs the read of
 * the usage aspect; without it there is no summary (null), as in the ecosystem.
 */
export class UsageSummaries {
  constructor(
    private readonly timeseries: Pick<TimeseriesReads, 'values'>,
    private readonly now: () => number = Date.now,
  ) {}

  async dataset(ctx: RequestContext, urn: string): Promise<DatasetUsageSummary | null> {
    const recent = await this.window(ctx, urn, 'dataset', 'datasetUsageStatistics');
    if (recent === null) return null;
    const users = usersOf(recent, 'count');
    return {
      queryCountLast30Days: sumPerBucket(recent, 'totalSqlQueries'),
      uniqueUserCountLast30Days: users.unique,
      topUsersLast30Days: users.top,
    };
  }

  async dashboard(ctx: RequestContext, urn: string): Promise<DashboardUsageSummary | null> {
    const aspect = 'dashboardUsageStatistics';
    const recent = await this.window(ctx, urn, 'dashboard', aspect);
    if (recent === null) return null;
    // The absolute statistics (no time bucket): the newest one's view count.
    const all = await this.timeseries.values(ctx, {
      urn,
      entityType: 'dashboard',
      aspect,
      limit: MAX_BUCKETS,
    });
    const absolute = all.find((d) => !isBucket(d));
    const users = usersOf(recent, 'usageCount');
    return {
      viewCount: absolute === undefined ? null : (numberOf(absolute.value['viewsCount']) ?? null),
      viewCountLast30Days: sumPerBucket(recent, 'viewsCount'),
      uniqueUserCountLast30Days: users.unique,
      topUsersLast30Days: users.top,
    };
  }

  /** The bucketed usage documents of the last 30 days, newest first; null when the actor may not read them. */
  private async window(
    ctx: RequestContext,
    urn: string,
    entityType: string,
    aspect: string,
  ): Promise<readonly TimeseriesDocument[] | null> {
    const now = this.now();
    try {
      const documents = await this.timeseries.values(ctx, {
        urn,
        entityType,
        aspect,
        startTimeMillis: now - SUMMARY_WINDOW_MS,
        endTimeMillis: now,
        limit: MAX_BUCKETS,
      });
      return documents.filter(isBucket);
    } catch (error) {
      if (error instanceof ForbiddenError) return null;
      throw error;
    }
  }
}
