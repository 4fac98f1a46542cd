import type { RequestContext } from '@catalog/auth';
import {
  CHANGE_CATEGORIES,
  computeTimeline,
  entityRegistry,
  ForbiddenError,
  hasTimeline,
  isRestrictedAspect,
  parseUrn,
  ValidationError,
  type AspectVersion,
  type ChangeCategory,
  type ChangeTransaction,
} from '@catalog/model';
import type { SearchIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import { hideSoftDeletedPropertyValues } from './soft-deleted-property-values.js';

/** Change history and its vocabulary (domain data, re-exported for the interfaces). */
export type { ChangeCategory, ChangeEvent, ChangeTransaction } from '@catalog/model';

/** The ecosystem's lookback when no start is given: a week before the end. */
const DEFAULT_LOOKBACK_MILLIS = 7 * 24 * 60 * 60 * 1000;
/** At most this many versions of a version set are merged (the ecosystem's walk limit). */
const MAX_VERSION_WALK = 50;
/** Of each version of a set, only the newest this many transactions are merged. */
const MAX_VERSION_TRANSACTIONS = 100;

export interface TimelineQuery {
  readonly urn: string;
  /** The categories to report; empty means every one. */
  readonly categories: readonly ChangeCategory[];
  /** Epoch ms; -1 (or absent) means a week before the end. */
  readonly startTime?: number;
  /** Epoch ms; 0 (or absent) means now. */
  readonly endTime?: number;
  /** Include each transaction's JSON patch. */
  readonly raw?: boolean;
  /** Merge the timelines of every version in the entity's version set (no time range then). */
  readonly includeVersionSet?: boolean;
  /** Keep only the newest this many transactions (of each version with includeVersionSet: 100 unless given). */
  readonly maxTransactions?: number;
  /** What the caller reads from the timeline, as a refusal names it (default: change history). */
  readonly purpose?: string;
}

export interface TimelineAnswer {
  /** Oldest first. */
  readonly transactions: readonly ChangeTransaction[];
  /** Versions of the set left out: unreadable to the actor, or beyond the walk limit. */
  readonly skippedVersionCount: number;
}

/**
 * An entity's timeline: the semantic changes between consecutive stored versions of its aspects, with
 * the semantic versions they lead to, computed by the one timeline diff (`computeTimeline`) from the
 * aspect store's version history. The actor must be allowed to read the entity (and, on REST, to get
 * timelines: AccessPolicy.readTimeline); restricted aspects are never read, and soft-deleted structured
 * properties' values are left out before diffing, as every read leaves them out.
 */
export class EntityTimeline {
  constructor(
    private readonly store: AspectStore,
    private readonly search: SearchIndex,
    private readonly policy: AccessPolicy,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The timeline of `query.urn`; with includeVersionSet, merged with those of the other versions of
   * its set that the actor may read. A REST caller (`partial: false`) is refused when any version is
   * unreadable; a GraphQL caller gets them left out and counted.
   */
  async timeline(ctx: RequestContext, query: TimelineQuery, partial = false): Promise<TimelineAnswer> {
    const urn = parseUrn(query.urn);
    await this.policy.readTimeline(ctx, urn.raw, query.purpose);
    if (!hasTimeline(urn.entityType))
      throw new ValidationError(`Entity Type ${urn.entityType} not supported`);
    const categories = new Set(query.categories.length === 0 ? CHANGE_CATEGORIES : query.categories);
    if (query.includeVersionSet !== true) {
      const endTime = query.endTime === undefined || query.endTime === 0 ? this.clock() : query.endTime;
      const startTime =
        query.startTime === undefined || query.startTime === -1
          ? endTime - DEFAULT_LOOKBACK_MILLIS
          : query.startTime;
      const transactions = await this.entityTimeline(urn.raw, urn.entityType, categories, {
        startTime,
        endTime,
        raw: query.raw === true,
      });
      return { transactions: newest(transactions, query.maxTransactions), skippedVersionCount: 0 };
    }
    const { urns, truncated } = await this.versionSetMembers(urn.raw, urn.entityType);
    const readable = await this.policy.readable(ctx, urns);
    if (!partial && readable.length < urns.length)
      throw new ForbiddenError(
        `${ctx.authentication.actorUrn} is unauthorized to view one or more versions for entity ${urn.raw}`,
      );
    const merged: ChangeTransaction[] = [];
    for (const member of readable) {
      const transactions = await this.entityTimeline(member, urn.entityType, categories, {
        startTime: 0,
        endTime: this.clock(),
        raw: query.raw === true,
      });
      merged.push(...newest(transactions, query.maxTransactions ?? MAX_VERSION_TRANSACTIONS));
    }
    merged.sort((a, b) => a.timestamp - b.timestamp || (a.actor < b.actor ? -1 : a.actor > b.actor ? 1 : 0));
    return { transactions: merged, skippedVersionCount: truncated + urns.length - readable.length };
  }

  private async entityTimeline(
    urn: string,
    entityType: string,
    categories: ReadonlySet<ChangeCategory>,
    range: { readonly startTime: number; readonly endTime: number; readonly raw: boolean },
  ): Promise<ChangeTransaction[]> {
    const versions = await this.versionHistory(urn, entityType);
    return computeTimeline({ entityUrn: urn, entityType, categories, versions, ...range });
  }

  /**
   * Every stored version of the entity's versioned aspects, restricted ones never read, with the values
   * of soft-deleted structured properties left out.
   */
  private async versionHistory(urn: string, entityType: string): Promise<AspectVersion[]> {
    const latest = await this.store.getLatest(urn);
    const names = latest
      .map((a) => a.aspect)
      .filter(
        (name) =>
          !isRestrictedAspect(name) && entityRegistry.getAspect(entityType, name)?.kind !== 'timeseries',
      );
    const stored: StoredAspect[] = (
      await Promise.all(names.map((name) => this.store.listVersions(urn, name)))
    ).flat();
    const [visible] = await hideSoftDeletedPropertyValues(this.store, [stored]);
    return (visible ?? stored).map((a) => ({
      aspect: a.aspect,
      version: a.version,
      value: a.value,
      createdOn: a.created.time,
      createdBy: a.created.actor,
    }));
  }

  /**
   * The entities of the version set `urn` belongs to (itself included), as the search index finds them
   * by their versionSet field, and how many more there are beyond the walk limit; just `urn` when it
   * is not versioned.
   */
  private async versionSetMembers(
    urn: string,
    entityType: string,
  ): Promise<{ readonly urns: readonly string[]; readonly truncated: number }> {
    const properties = await this.store.get(urn, 'versionProperties');
    const versionSet = properties?.value['versionSet'];
    if (typeof versionSet !== 'string') return { urns: [urn], truncated: 0 };
    const found = await this.search.search({
      entityTypes: [entityType],
      input: '*',
      filter: { or: [{ and: [{ field: 'versionSet', values: [versionSet], condition: 'EQUAL' }] }] },
      start: 0,
      count: MAX_VERSION_WALK,
    });
    const urns = found.hits.map((h) => h.urn);
    if (!urns.includes(urn)) urns.push(urn);
    return { urns, truncated: Math.max(0, found.total - urns.length) };
  }
}

function newest(transactions: readonly ChangeTransaction[], max: number | undefined): ChangeTransaction[] {
  return max !== undefined && max > 0 && transactions.length > max
    ? transactions.slice(transactions.length - max)
    : [...transactions];
}
