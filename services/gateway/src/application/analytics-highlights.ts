import type { RequestContext } from '@catalog/auth';
import type { AuditIndex, SearchIndex } from '@catalog/search';
import { entityRegistry } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { ACTIVITY_EVENT_TYPES } from './analytics-charts.js';

/** One card of the analytics page (the ecosystem's Highlight). */
export interface Highlight {
  readonly title: string;
  readonly value: number;
  readonly body: string;
}

/** The entity types with a metadata card, in the ecosystem's order, and their titles. */
const ENTITY_TITLES: readonly [entity: string, title: string][] = [
  ['dataset', 'Datasets'],
  ['dashboard', 'Dashboards'],
  ['chart', 'Charts'],
  ['dataFlow', 'Pipelines'],
  ['dataJob', 'Tasks'],
  ['domain', 'Domains'],
];
const FACETS = ['hasOwners', 'hasTags', 'hasGlossaryTerms', 'hasDescription', 'hasDomain'] as const;

const DAY_MS = 86_400_000;

/**
 * The analytics page's highlight cards (GraphQL getHighlights), from the catalog's own data:
 * - Weekly and Monthly Active Users: the distinct users who logged in during the last week (month),
 *   with the change against the week (month) before, from the audit index's login events (the
 *   ecosystem counts the browsers of its web front's usage events; logins are what this service sees
 *   of people using the UI);
 * - per entity type that has entities, how many there are and what share has owners, tags, glossary
 *   terms, a description and a domain, from the search index's totals and facet counts.
 * For whoever may read analytics (VIEW_ANALYTICS).
 */
export class AnalyticsHighlights {
  constructor(
    private readonly search: SearchIndex,
    private readonly audit: AuditIndex,
    private readonly policy: AccessPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  async highlights(ctx: RequestContext): Promise<Highlight[]> {
    await this.policy.readAnalytics(ctx);
    const end = this.now();
    const weekStart = end - 7 * DAY_MS;
    const monthStart = monthsBefore(end, 1);
    const [weekly, lastWeek, monthly, lastMonth] = await Promise.all([
      this.activeUsers(weekStart, end),
      this.activeUsers(weekStart - 7 * DAY_MS, weekStart),
      this.activeUsers(monthStart, end),
      this.activeUsers(monthsBefore(end, 2), monthStart),
    ]);
    const cards: Highlight[] = [
      activeUsersCard('Weekly Active Users', weekly, lastWeek, 'from last week'),
      activeUsersCard('Monthly Active Users', monthly, lastMonth, 'from last month'),
    ];
    for (const [entity, title] of ENTITY_TITLES) {
      const card = await this.entityCard(entity, title);
      if (card !== undefined) cards.push(card);
    }
    return cards;
  }

  /** Distinct users with a login event in [start, end), counted by the audit index. */
  private async activeUsers(start: number, end: number): Promise<number> {
    const counts = await this.audit.count({
      startTime: start,
      endTime: end,
      eventTypes: ACTIVITY_EVENT_TYPES,
      distinct: 'actorUrn',
    });
    return counts[0]?.count ?? 0;
  }

  private async entityCard(entity: string, title: string): Promise<Highlight | undefined> {
    const facets = FACETS.filter((f) => hasValuesFields(entity).has(f));
    const response = await this.search.search({
      entityTypes: [entity],
      input: '*',
      start: 0,
      count: 0,
      facets,
    });
    const total = response.total;
    if (total === 0) return undefined;
    const share = (facet: string) => {
      const values = response.aggregations.find((a) => a.field === facet)?.values ?? [];
      const withIt = values.find((v) => v.value === 'true')?.count ?? 0;
      return `${((100 * withIt) / total).toFixed(2)}%`;
    };
    const parts = [
      `${share('hasOwners')} have owners`,
      `${share('hasTags')} have tags`,
      `${share('hasGlossaryTerms')} have glossary terms`,
      `${share('hasDescription')} have description`,
      ...(entity === 'domain' ? [] : [`${share('hasDomain')} have domain assigned`]),
    ];
    return { title, value: total, body: `${parts.join(', ')}!` };
  }
}

/** The `has<Values>` fields an entity type's search documents carry. */
function hasValuesFields(entity: string): ReadonlySet<string> {
  const fields = new Set<string>();
  for (const aspect of entityRegistry.getEntity(entity)?.aspects.values() ?? [])
    for (const field of aspect.searchable) if (field.hasValuesFieldName) fields.add(field.hasValuesFieldName);
  return fields;
}

function monthsBefore(time: number, months: number): number {
  const date = new Date(time);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.getTime();
}

/** The ecosystem's active-user card: the count, and the change against the period before when it had users. */
function activeUsersCard(title: string, current: number, previous: number, since: string): Highlight {
  if (previous === 0) return { title, value: current, body: '' };
  const change = ((current - previous) / previous) * 100;
  return {
    title,
    value: current,
    body: `${change.toFixed(2)}% ${change > 0 ? 'increase' : 'decrease'} ${since}`,
  };
}
