import type {
  AnalyticsChart,
  AnalyticsChartGroup,
  ChartCell,
  ChartRow,
} from '../../application/analytics-charts.js';
import type { GraphQLContext } from '../context.js';
import { refOf } from '../entities/entity-ref.js';
import { DEFAULT_SEARCH_TYPES, entityOfType, typeOfEntity } from '../entities/entity-types.js';

/**
 * The analytics page's charts (analytics.graphql): application/analytics-charts.ts computes them from
 * the audit and search indices; this parses the input and formats charts, rows and cells (a cell's
 * entity and the page it links to) with the ecosystem's types.
 */
export const analyticsChartsSchema = `
input MetadataAnalyticsInput {
  entityType: EntityType
  domain: String
  query: String
}

union AnalyticsChart = TimeSeriesChart | BarChart | TableChart

type AnalyticsChartGroup {
  groupId: String!
  title: String!
  charts: [AnalyticsChart!]!
}

enum DateInterval { SECOND MINUTE HOUR DAY WEEK MONTH YEAR }

type DateRange { start: String! end: String! }

type NumericDataPoint { x: String! y: Int! }

type NamedLine { name: String! data: [NumericDataPoint!]! }

type TimeSeriesChart {
  title: String!
  lines: [NamedLine!]!
  dateRange: DateRange!
  interval: DateInterval!
}

type BarSegment { label: String! value: Int! }

type NamedBar { name: String! segments: [BarSegment!]! }

type BarChart { title: String! bars: [NamedBar!]! }

type SearchParams {
  types: [EntityType!]
  query: String!
  filters: [FacetFilter!]
}

type EntityProfileParams { urn: String! type: EntityType! }

type LinkParams {
  searchParams: SearchParams
  entityProfileParams: EntityProfileParams
}

type Cell {
  value: String!
  entity: Entity
  linkParams: LinkParams
}

type Row {
  values: [String!]!
  cells: [Cell!]
}

type TableChart {
  title: String!
  columns: [String!]!
  rows: [Row!]!
}

type AnalyticsConfig { enabled: Boolean! }

extend type AppConfig { analyticsConfig: AnalyticsConfig! }

extend type Query {
  isAnalyticsEnabled: Boolean! @deprecated
  getAnalyticsCharts: [AnalyticsChartGroup!]!
  getMetadataAnalyticsCharts(input: MetadataAnalyticsInput!): [AnalyticsChartGroup!]!
}
`;

interface MetadataInput {
  readonly entityType?: string | null;
  readonly domain?: string | null;
  readonly query?: string | null;
}

/** The entity types a search across entities covers when none is named. */
const SEARCHED_ENTITIES = DEFAULT_SEARCH_TYPES.map(entityOfType);

function groups(list: readonly AnalyticsChartGroup[]) {
  return list.map((group) => ({ ...group, charts: group.charts.map(chart) }));
}

function chart(c: AnalyticsChart) {
  switch (c.kind) {
    case 'TimeSeriesChart':
      return {
        __typename: c.kind,
        title: c.title,
        lines: c.lines,
        dateRange: { start: String(c.dateRange.start), end: String(c.dateRange.end) },
        interval: c.interval,
      };
    case 'BarChart':
      return { __typename: c.kind, title: c.title, bars: c.bars };
    case 'TableChart':
      return { __typename: c.kind, title: c.title, columns: c.columns, rows: c.rows.map(row) };
  }
}

function row(r: ChartRow) {
  return { values: r.values, cells: r.cells.map(cell) };
}

function cell(c: ChartCell) {
  const entity = c.entityUrn === undefined ? undefined : refOf(c.entityUrn);
  if (entity !== undefined)
    return {
      value: c.value,
      entity,
      linkParams: { entityProfileParams: { urn: entity.urn, type: typeOfEntity(entity.entity) } },
    };
  if (c.searchQuery !== undefined)
    return { value: c.value, entity: null, linkParams: { searchParams: { query: c.searchQuery } } };
  return { value: c.value, entity: null, linkParams: null };
}

export function analyticsChartsResolvers(): Record<string, Record<string, unknown>> {
  const charts = (ctx: GraphQLContext) => ctx.services.app.analyticsCharts;
  return {
    Query: {
      isAnalyticsEnabled: (_r: unknown, _a: unknown, ctx: GraphQLContext) => charts(ctx).isEnabled(),
      getAnalyticsCharts: async (_r: unknown, _a: unknown, ctx: GraphQLContext) =>
        groups(await charts(ctx).charts(ctx.auth, SEARCHED_ENTITIES, typeOfEntity)),
      getMetadataAnalyticsCharts: async (
        _r: unknown,
        { input }: { input: MetadataInput },
        ctx: GraphQLContext,
      ) =>
        groups(
          await charts(ctx).metadataCharts(ctx.auth, {
            entityTypes:
              input.entityType === undefined || input.entityType === null
                ? SEARCHED_ENTITIES
                : [entityOfType(input.entityType)],
            domain: input.domain ?? null,
            query: input.query ?? null,
          }),
        ),
    },
    AnalyticsChart: {
      __resolveType: (value: { __typename: string }) => value.__typename,
    },
    AppConfig: {
      analyticsConfig: (_config: unknown, _a: unknown, ctx: GraphQLContext) => ({
        enabled: charts(ctx).isEnabled(),
      }),
    },
  };
}
