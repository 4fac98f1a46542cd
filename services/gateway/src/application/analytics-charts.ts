import type { RequestContext } from '@catalog/auth';
import { DATA_PLATFORMS, parseUrn } from '@catalog/model';
import {
  isLoginEventType,
  type AuditCount,
  type AuditIndex,
  type AuditInterval,
  type Criterion,
  type SearchIndex,
} from '@catalog/search';
import { SYSTEM_ACTOR } from '@catalog/runtime';
import type { AccessPolicy } from './access-policy.js';
import type { StoredEntities } from './stored-entities.js';

type Json = Record<string, unknown>;

/** One point of a line: its interval's start as an ISO instant, and its count. */
export interface ChartPoint {
  readonly x: string;
  readonly y: number;
}
export interface ChartLine {
  readonly name: string;
  readonly data: readonly ChartPoint[];
}
export interface ChartBar {
  readonly name: string;
  readonly segments: readonly { readonly label: string; readonly value: number }[];
}
/** A table cell: its text, the entity it shows (linking to its page) or the search it links to. */
export interface ChartCell {
  readonly value: string;
  readonly entityUrn?: string;
  readonly searchQuery?: string;
}
export interface ChartRow {
  readonly values: readonly string[];
  readonly cells: readonly ChartCell[];
}
export type AnalyticsChart =
  | {
      readonly kind: 'TimeSeriesChart';
      readonly title: string;
      readonly lines: readonly ChartLine[];
      /** ms, as the ecosystem's DateRange strings. */
      readonly dateRange: { readonly start: number; readonly end: number };
      readonly interval: AuditInterval;
    }
  | { readonly kind: 'BarChart'; readonly title: string; readonly bars: readonly ChartBar[] }
  | {
      readonly kind: 'TableChart';
      readonly title: string;
      readonly columns: readonly string[];
      readonly rows: readonly ChartRow[];
    };
export interface AnalyticsChartGroup {
  readonly groupId: string;
  readonly title: string;
  readonly charts: readonly AnalyticsChart[];
}

/** What the metadata charts are narrowed to (the ecosystem's MetadataAnalyticsInput, entity types as registry names). */
export interface MetadataAnalyticsRequest {
  /** The entity types counted: one asked for, or every searchable one. */
  readonly entityTypes: readonly string[];
  /** Only entities of this domain; absent (or the ecosystem's `ALL`): every one. */
  readonly domain?: string | null;
  /** Only entities this full-text query matches; absent or empty: all. */
  readonly query?: string | null;
}

/** How an interface names an entity type in a chart (GraphQL: its EntityType value). */
export type EntityTypeLabel = (entityType: string) => string;

/**
 * The event types that show a person using the catalog: their logins (the ecosystem counts the
 * browsers of its web front's usage events; logins are what this service sees of people using it).
 * The highlight cards count the same.
 */
export const ACTIVITY_EVENT_TYPES: readonly string[] = ['LogInEvent'];
/** The root users, whose activity the ecosystem leaves out of its top users, and the system actor. */
const ROOT_ACTORS = ['urn:li:corpuser:admin', 'urn:li:corpuser:datahub', SYSTEM_ACTOR];
/** Bars, segments and rows a chart shows (the ecosystem's terms aggregations' default size, its top users' 30). */
const TOP = 10;
const TOP_USERS = 30;
const NEW_USERS = 100;
/** The label of a segment or bar whose events lack the value (the ecosystem's `missing` bucket). */
const NOT_AVAILABLE = 'N/A';
const DAY_MS = 86_400_000;

/**
 * The analytics page's charts (GraphQL getAnalyticsCharts and getMetadataAnalyticsCharts), computed
 * from the catalog's own data, as the ecosystem groups them:
 * - Usage Analytics, from the audit index: weekly and monthly active users (distinct users who logged
 *   in, per calendar week of the last ten and month of the last twelve), the users who joined in the
 *   last 30 days (their status's change time, from the search index), the top users of the last 30 days
 *   (their audit events, root users and the system actor left out), and the actions of the past week by
 *   entity type and aspect (entity changes, the system actor's left out). The ecosystem's charts of its
 *   web front's page-view and search events have no source here and are not shown.
 * - Data Landscape Summary, and the filtered metadata charts, from the search index's facet counts:
 *   entities by domain (and platform), by platform, by glossary term and by environment.
 * Entities are named by their display names where the actor may read them, by their urn otherwise; a
 * user the actor may not read is left out of the user tables. For whoever may read analytics
 * (VIEW_ANALYTICS); with analytics turned off (DATAHUB_ANALYTICS_ENABLED=false) there are no charts.
 */
export class AnalyticsCharts {
  constructor(
    private readonly search: SearchIndex,
    private readonly audit: AuditIndex,
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly enabled: boolean = true,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether analytics is turned on (isAnalyticsEnabled, appConfig.analyticsConfig). */
  isEnabled(): boolean {
    return this.enabled;
  }

  /** The analytics page's two groups: usage, and the data landscape over `entityTypes`. */
  async charts(
    ctx: RequestContext,
    entityTypes: readonly string[],
    label: EntityTypeLabel,
  ): Promise<AnalyticsChartGroup[]> {
    await this.policy.readAnalytics(ctx);
    if (!this.enabled) return [];
    const [usage, landscape] = await Promise.all([
      this.usageCharts(ctx, label),
      this.landscapeCharts(ctx, entityTypes),
    ]);
    return [
      { groupId: 'DataHubUsageAnalytics', title: 'Usage Analytics', charts: usage },
      { groupId: 'GlobalMetadataAnalytics', title: 'Data Landscape Summary', charts: landscape },
    ];
  }

  /** The metadata charts narrowed to an entity type, a domain and a query (one untitled group). */
  async metadataCharts(
    ctx: RequestContext,
    request: MetadataAnalyticsRequest,
  ): Promise<AnalyticsChartGroup[]> {
    await this.policy.readAnalytics(ctx);
    if (!this.enabled) return [];
    const domain =
      request.domain === undefined || request.domain === null || request.domain === ''
        ? undefined
        : request.domain;
    const query =
      request.query === undefined || request.query === null || request.query === '' ? '*' : request.query;
    const filter = domain === undefined || domain === 'ALL' ? [] : [equal('domains', domain)];
    const facets = await this.facets(request.entityTypes, query, filter, [
      'domains',
      'platform',
      'glossaryTerms',
      'origin',
    ]);
    const charts: AnalyticsChart[] = [];
    if (domain === undefined)
      charts.push(bar('Data Assets by Domain', await this.named(ctx, countBars(facets.get('domains')))));
    charts.push(bar('Data Assets by Platform', await this.named(ctx, countBars(facets.get('platform')))));
    charts.push(bar('Data Assets by Term', await this.named(ctx, countBars(facets.get('glossaryTerms')))));
    const environments = countBars(facets.get('origin'));
    if (environments.length > 1) charts.push(bar('Data Assets by Environment', environments));
    return [{ groupId: 'FilteredMetadataAnalytics', title: '', charts }];
  }

  private async usageCharts(ctx: RequestContext, label: EntityTypeLabel): Promise<AnalyticsChart[]> {
    const now = this.now();
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const weekday = (new Date(today).getUTCDay() + 6) % 7;
    const startOfNextWeek = today + (7 - weekday) * DAY_MS;
    const month = new Date(today);
    const startOfThisMonth = Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1);
    const startOfNextMonth = Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1);
    const todayEnd = today + DAY_MS - 1;
    const trailingWeek = { start: todayEnd - 7 * DAY_MS + 1, end: todayEnd };
    const monthAgo = new Date(todayEnd);
    monthAgo.setUTCMonth(monthAgo.getUTCMonth() - 1);
    const trailingMonth = { start: monthAgo.getTime() + 1, end: todayEnd };

    const [weekly, monthly, newUsers, topUsers, actions] = await Promise.all([
      this.activeUsers('Weekly Active Users', startOfNextWeek - 70 * DAY_MS, startOfNextWeek - 1, 'WEEK'),
      this.activeUsers(
        'Monthly Active Users',
        Date.UTC(
          new Date(startOfNextMonth).getUTCFullYear() - 1,
          new Date(startOfNextMonth).getUTCMonth(),
          1,
        ),
        startOfThisMonth - 1,
        'MONTH',
      ),
      this.newUsers(ctx, trailingMonth.start),
      this.topUsers(ctx, trailingMonth),
      this.actionsByEntityType(trailingWeek, label),
    ]);
    return [weekly, monthly, newUsers, topUsers, actions];
  }

  private async activeUsers(
    title: string,
    start: number,
    end: number,
    interval: AuditInterval,
  ): Promise<AnalyticsChart> {
    const counts = await this.audit.count({
      startTime: start,
      endTime: end + 1,
      eventTypes: ACTIVITY_EVENT_TYPES,
      interval,
      distinct: 'actorUrn',
    });
    return {
      kind: 'TimeSeriesChart',
      title,
      lines: [{ name: 'total', data: points(counts, interval) }],
      dateRange: { start, end },
      interval,
    };
  }

  private async newUsers(ctx: RequestContext, since: number): Promise<AnalyticsChart> {
    const response = await this.search.search({
      entityTypes: ['corpuser'],
      input: '*',
      filter: {
        or: [
          { and: [{ field: 'statusLastModifiedAt', values: [String(since)], condition: 'GREATER_THAN' }] },
        ],
      },
      sort: [{ field: 'statusLastModifiedAt', order: 'DESCENDING' }],
      start: 0,
      count: NEW_USERS,
    });
    const users = await this.policy.readable(
      ctx,
      response.hits.map((hit) => hit.urn),
    );
    const rows = await Promise.all(users.map(async (urn) => this.userRow(urn, [urn])));
    return {
      kind: 'TableChart',
      title: 'New Users (Last 30 Days)',
      columns: ['Name', 'Title', 'Email'],
      rows,
    };
  }

  private async topUsers(
    ctx: RequestContext,
    range: { start: number; end: number },
  ): Promise<AnalyticsChart> {
    const counts = await this.audit.count({
      startTime: range.start,
      endTime: range.end + 1,
      excludeActorUrns: ROOT_ACTORS,
      groupBy: ['actorUrn'],
    });
    const readable = new Set(
      await this.policy.readable(
        ctx,
        counts.map((c) => c.values[0] ?? ''),
      ),
    );
    const rows = await Promise.all(
      counts
        .filter((c) => readable.has(c.values[0] ?? ''))
        .slice(0, TOP_USERS)
        .map(async (c) => this.userRow(c.values[0]!, [c.values[0]!, String(c.count)])),
    );
    return {
      kind: 'TableChart',
      title: 'Top Users (Last 30 Days)',
      columns: ['Name', 'Title', 'Email'],
      rows,
    };
  }

  /** A user's row: the values as given, the cells their display name (linked), title and email ("None" when unknown). */
  private async userRow(urn: string, values: readonly string[]): Promise<ChartRow> {
    const aspects = await this.stored.values(urn);
    const info = aspects.get('corpUserInfo') ?? {};
    const editable = aspects.get('corpUserEditableInfo') ?? {};
    const name = text(editable['displayName']) ?? text(info['displayName']) ?? text(info['fullName']) ?? urn;
    const title = text(info['title']) ?? text(editable['title']) ?? 'None';
    const email = text(info['email']) ?? text(editable['email']) ?? 'None';
    return { values, cells: [{ value: name, entityUrn: urn }, { value: title }, { value: email }] };
  }

  private async actionsByEntityType(
    range: { start: number; end: number },
    label: EntityTypeLabel,
  ): Promise<AnalyticsChart> {
    const counts = await this.audit.count({
      startTime: range.start,
      endTime: range.end + 1,
      excludeActorUrns: [SYSTEM_ACTOR],
      groupBy: ['entityType', 'aspectName', 'eventType'],
    });
    const byEntity = new Map<string, Map<string, number>>();
    for (const { values, count } of counts) {
      const [entityType, aspect, eventType] = values;
      // Logins act on no entity.
      if (eventType !== null && eventType !== undefined && isLoginEventType(eventType)) continue;
      const name = entityType === null || entityType === undefined ? NOT_AVAILABLE : label(entityType);
      const segments = byEntity.get(name) ?? new Map<string, number>();
      byEntity.set(name, segments);
      const segment = aspect ?? NOT_AVAILABLE;
      segments.set(segment, (segments.get(segment) ?? 0) + count);
    }
    const bars = [...byEntity]
      .map(([name, segments]) => ({
        name,
        total: [...segments.values()].reduce((a, b) => a + b, 0),
        segments: [...segments]
          .map(([segmentLabel, value]) => ({ label: segmentLabel, value }))
          .sort((a, b) => b.value - a.value || compare(a.label, b.label))
          .slice(0, TOP),
      }))
      .sort((a, b) => b.total - a.total || compare(a.name, b.name))
      .slice(0, TOP)
      .map(({ name, segments }) => ({ name, segments }));
    return bar('Actions By Entity Type (Past Week)', bars);
  }

  private async landscapeCharts(
    ctx: RequestContext,
    entityTypes: readonly string[],
  ): Promise<AnalyticsChart[]> {
    const facets = await this.facets(
      entityTypes,
      '*',
      [],
      ['domains', 'platform', 'glossaryTerms', 'origin'],
    );
    const charts: AnalyticsChart[] = [];
    const domains = (facets.get('domains') ?? []).slice(0, TOP);
    if (domains.length > 0) {
      const bars = await Promise.all(
        domains.map(async ({ value }) => {
          const platforms = await this.facets(entityTypes, '*', [equal('domains', value)], ['platform']);
          return {
            name: value,
            segments: (platforms.get('platform') ?? [])
              .slice(0, TOP)
              .map((p) => ({ label: p.value, value: p.count })),
          };
        }),
      );
      charts.push(bar('Entities By Domain', await this.named(ctx, bars)));
    }
    const platforms = countBars(facets.get('platform'));
    if (platforms.length > 0) charts.push(bar('Assets By Platform', await this.named(ctx, platforms)));
    const terms = countBars(facets.get('glossaryTerms'));
    if (terms.length > 0) charts.push(bar('Entities With Term', await this.named(ctx, terms)));
    const environments = countBars(facets.get('origin'));
    if (environments.length > 1) charts.push(bar('Entities By Environment', environments));
    return charts;
  }

  /** The facet counts of the search index (soft-deleted entities left out), largest first. */
  private async facets(
    entityTypes: readonly string[],
    input: string,
    and: readonly Criterion[],
    fields: readonly string[],
  ): Promise<Map<string, { value: string; count: number }[]>> {
    const response = await this.search.search({
      entityTypes,
      input,
      ...(and.length === 0 ? {} : { filter: { or: [{ and }] } }),
      start: 0,
      count: 0,
      facets: fields,
    });
    const out = new Map<string, { value: string; count: number }[]>();
    for (const aggregation of response.aggregations) {
      out.set(
        aggregation.field,
        aggregation.values
          .filter((v) => v.count > 0)
          .map((v) => ({ value: v.value, count: v.count }))
          .sort((a, b) => b.count - a.count || compare(a.value, b.value)),
      );
    }
    return out;
  }

  /** Bars and segments that name entities (domains, platforms, terms) by their display names, where the actor may read them. */
  private async named(ctx: RequestContext, bars: readonly ChartBar[]): Promise<ChartBar[]> {
    const urns = [...new Set(bars.flatMap((b) => [b.name, ...b.segments.map((s) => s.label)]))].filter((u) =>
      u.startsWith('urn:li:'),
    );
    const readable = await this.policy.readable(ctx, urns);
    const names = new Map<string, string>();
    await Promise.all(
      readable.map(async (urn) => {
        const name = await this.displayName(urn);
        if (name !== undefined) names.set(urn, name);
      }),
    );
    const rename = (value: string) => names.get(value) ?? value;
    return bars.map((b) => ({
      name: rename(b.name),
      segments: b.segments.map((s) => ({ label: rename(s.label), value: s.value })),
    }));
  }

  private async displayName(urn: string): Promise<string | undefined> {
    let entityType: string;
    try {
      entityType = parseUrn(urn).entityType;
    } catch {
      return undefined;
    }
    if (entityType === 'domain')
      return text((await this.stored.aspect<Json>(urn, 'domainProperties'))?.['name']);
    if (entityType === 'glossaryTerm') {
      const info = await this.stored.aspect<Json>(urn, 'glossaryTermInfo');
      return text(info?.['name']) ?? text((await this.stored.aspect<Json>(urn, 'glossaryTermKey'))?.['name']);
    }
    if (entityType === 'dataPlatform') {
      const info = await this.stored.aspect<Json>(urn, 'dataPlatformInfo');
      const id = urn.slice('urn:li:dataPlatform:'.length);
      const known = DATA_PLATFORMS.find((p) => p.id === id)?.info;
      return text(info?.['displayName']) ?? text(known?.displayName) ?? text(info?.['name']) ?? id;
    }
    return undefined;
  }
}

function equal(field: string, value: string): Criterion {
  return { field, values: [value], condition: 'EQUAL' };
}

function bar(title: string, bars: readonly ChartBar[]): AnalyticsChart {
  return { kind: 'BarChart', title, bars };
}

/** One bar per facet value (the top ones), its one segment the count. */
function countBars(values: readonly { value: string; count: number }[] | undefined): ChartBar[] {
  return (values ?? [])
    .slice(0, TOP)
    .map((v) => ({ name: v.value, segments: [{ label: 'Count', value: v.count }] }));
}

/**
 * The points of a line: one per interval from the first with events to the last, those between without
 * any at 0 (as a date histogram answers); none when no interval has events.
 */
function points(counts: readonly AuditCount[], interval: AuditInterval): ChartPoint[] {
  const byStart = new Map(counts.map((c) => [c.intervalStart ?? 0, c.count]));
  const starts = [...byStart.keys()].sort((a, b) => a - b);
  if (starts.length === 0) return [];
  const out: ChartPoint[] = [];
  for (let start = starts[0]!; start <= starts[starts.length - 1]!; start = nextInterval(start, interval))
    out.push({ x: new Date(start).toISOString(), y: byStart.get(start) ?? 0 });
  return out;
}

function nextInterval(start: number, interval: AuditInterval): number {
  if (interval === 'DAY') return start + DAY_MS;
  if (interval === 'WEEK') return start + 7 * DAY_MS;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
