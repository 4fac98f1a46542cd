import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { LineageHit } from '../application/lineage.js';
import {
  entityNameOfUrn,
  entitySummary,
  schemaFields,
  summaryAspects,
  type FieldSummary,
} from './entity-summary.js';
import { fitToBudget, pageInfo } from './result-budget.js';
import { parseToolFilter } from './search-filter.js';
import { FILTER_HELP, TOOL_DESCRIPTIONS } from './tool-descriptions.js';
import { jsonResult, schemaFieldUrn, type ToolContext } from './tool-context.js';
import { DEFAULT_SEARCH_TYPES, entityOfType } from '../graphql/entities/entity-types.js';
import type { Criterion, SortCriterion } from '../application/entity-search.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** Facets the search tool returns: what a model filters by next. */
const SEARCH_FACETS = [
  '_entityType',
  'platform',
  'origin',
  'typeNames',
  'domains',
  'tags',
  'glossaryTerms',
  'owners',
];
/** Entities get_entities reads in one call. */
const MAX_URNS = 25;
/** Lineage results a paths search scans for the target. */
const PATH_SCAN = 1_000;

/** The types searched when a call names none: the ecosystem's default searchable set. */
const SEARCHED_TYPES = [...new Set(DEFAULT_SEARCH_TYPES.map(entityOfType))];

const strList = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));

/** The summaries of the entities of `urns` the actor may read (the others are absent), one read per type. */
async function summaries(t: ToolContext, urns: readonly string[]) {
  const byType = new Map<string, string[]>();
  for (const urn of urns) {
    const entity = entityNameOfUrn(urn);
    if (entity !== undefined) byType.set(entity, [...(byType.get(entity) ?? []), urn]);
  }
  const found = new Map<string, Record<string, unknown>>();
  for (const [entity, group] of byType) {
    const names = summaryAspects(entity);
    const { urns: readable, aspects } = await t.app.entities.latestOfReadable(
      t.ctx,
      group,
      names.length === 0 ? undefined : names,
    );
    // An entity with nothing stored does not exist.
    for (const urn of readable) {
      const stored = aspects.get(urn) ?? [];
      if (stored.length > 0) found.set(urn, entitySummary(urn, stored));
    }
  }
  return found;
}

const sortOrder = (order: 'asc' | 'desc'): SortCriterion['order'] =>
  order === 'asc' ? 'ASCENDING' : 'DESCENDING';

function degreeFilter(maxHops: number): Criterion {
  const values = maxHops <= 1 ? ['1'] : maxHops === 2 ? ['1', '2'] : ['1', '2', '3+'];
  return { field: 'degree', values, condition: 'EQUAL' };
}

export function registerReadTools(server: McpServer, t: ToolContext): void {
  server.registerTool(
    'search',
    {
      description: `${TOOL_DESCRIPTIONS.search}\n\n${FILTER_HELP}`,
      inputSchema: {
        query: z.string().default('*'),
        filter: z.string().nullish(),
        num_results: z.number().int().min(0).max(50).default(10),
        sort_by: z.string().nullish(),
        sort_order: z.enum(['asc', 'desc']).default('desc'),
        offset: z.number().int().min(0).default(0),
      },
      annotations: READ_ONLY,
    },
    async (args) => {
      const parsed = parseToolFilter(args.filter);
      const query = args.query.replace(/^\/q\s+/, '').trim();
      const page = await t.app.search.search(t.ctx, {
        entityTypes: SEARCHED_TYPES,
        input: query === '' ? '*' : query,
        filter: parsed.filter,
        start: args.offset,
        count: args.num_results,
        facets: SEARCH_FACETS,
        maxAggValues: 5,
        ...(parsed.includeRemoved ? { includeRemoved: true } : {}),
        ...(args.sort_by ? { sort: [{ field: args.sort_by, order: sortOrder(args.sort_order) }] } : {}),
      });
      const found = await summaries(
        t,
        page.hits.map((h) => h.urn),
      );
      const results = page.hits.flatMap((h) => found.get(h.urn) ?? []);
      const fitted = fitToBudget(results, t.budgetBytes);
      return jsonResult({
        ...pageInfo('results', args.offset, fitted.items.length, page.total, fitted.truncated),
        searchResults: fitted.items.map((entity) => ({ entity })),
        facets: page.aggregations
          .filter((a) => a.values.length > 0)
          .map((a) => ({ field: a.field === '_entityType' ? 'entity_type' : a.field, values: a.values })),
      });
    },
  );

  server.registerTool(
    'get_entities',
    {
      description: TOOL_DESCRIPTIONS.get_entities,
      inputSchema: { urns: z.union([z.string(), z.array(z.string())]) },
      annotations: READ_ONLY,
    },
    async (args) => {
      const urns = Array.isArray(args.urns) ? args.urns : [args.urns];
      const asked = [...new Set(urns)].slice(0, MAX_URNS);
      const found = await summaries(t, asked);
      const entities = asked.map(
        (urn) =>
          found.get(urn) ??
          (entityNameOfUrn(urn) === undefined
            ? { urn, error: 'Not a valid urn (urn:li:<entity type>:<key>)' }
            : { urn, error: 'Not found, or not readable with your privileges' }),
      );
      const fitted = fitToBudget(entities, t.budgetBytes);
      const left = asked.slice(fitted.items.length);
      return jsonResult(
        !Array.isArray(args.urns)
          ? fitted.items[0]
          : {
              entities: fitted.items,
              ...(left.length > 0 || urns.length > asked.length
                ? {
                    truncated: true,
                    note: `Not returned (size budget or more than ${MAX_URNS} urns): call get_entities again with these urns.`,
                    remainingUrns: [...left, ...urns.slice(asked.length)],
                  }
                : {}),
            },
      );
    },
  );

  server.registerTool(
    'list_schema_fields',
    {
      description: TOOL_DESCRIPTIONS.list_schema_fields,
      inputSchema: {
        urn: z.string(),
        keywords: strList.nullish(),
        limit: z.number().int().min(1).max(1_000).default(100),
        offset: z.number().int().min(0).default(0),
      },
      annotations: READ_ONLY,
    },
    async (args) => {
      const aspects = await t.app.entities.latest(t.ctx, args.urn, [
        'schemaMetadata',
        'editableSchemaMetadata',
      ]);
      let fields = schemaFields(aspects);
      const total = fields.length;
      const keywords = (args.keywords ?? []).map((k) => k.toLowerCase()).filter((k) => k !== '');
      let matchingCount: number | null = null;
      if (keywords.length > 0) {
        const score = (f: FieldSummary) => {
          const texts = [f.fieldPath, f.description ?? '', ...(f.tags ?? []), ...(f.glossaryTerms ?? [])];
          return keywords.reduce((n, k) => n + texts.filter((x) => x.toLowerCase().includes(k)).length, 0);
        };
        const scored = fields.map((f) => ({ f, s: score(f) }));
        matchingCount = scored.filter((x) => x.s > 0).length;
        fields = scored.sort((a, b) => b.s - a.s || (a.f.fieldPath < b.f.fieldPath ? -1 : 1)).map((x) => x.f);
      }
      const fitted = fitToBudget(fields.slice(args.offset, args.offset + args.limit), t.budgetBytes);
      return jsonResult({
        urn: args.urn,
        totalFields: total,
        matchingCount,
        ...pageInfo('fields', args.offset, fitted.items.length, total, fitted.truncated),
        remainingCount: Math.max(0, total - args.offset - fitted.items.length),
        fields: fitted.items,
      });
    },
  );

  server.registerTool(
    'get_lineage',
    {
      description: `${TOOL_DESCRIPTIONS.get_lineage}\n\n${FILTER_HELP}`,
      inputSchema: {
        urn: z.string(),
        column: z.string().nullish(),
        query: z.string().nullish(),
        filter: z.string().nullish(),
        upstream: z.boolean().default(true),
        max_hops: z.number().int().min(1).max(20).default(1),
        max_results: z.number().int().min(1).max(500).default(30),
        offset: z.number().int().min(0).default(0),
      },
      annotations: READ_ONLY,
    },
    async (args) => {
      const column = args.column === 'null' || args.column === '' ? null : (args.column ?? null);
      const urn = column === null ? args.urn : schemaFieldUrn(args.urn, column);
      const parsed = parseToolFilter(args.filter);
      const degree = degreeFilter(args.max_hops);
      const filter = {
        or:
          parsed.filter.or.length === 0
            ? [{ and: [degree] }]
            : parsed.filter.or.map((c) => ({ and: [...c.and, degree] })),
      };
      const query = (args.query ?? '*').replace(/^\/q\s+/, '').trim();
      const page = await t.app.lineage.searchAcross(t.ctx, {
        urn,
        direction: args.upstream ? 'UPSTREAM' : 'DOWNSTREAM',
        entityTypes: SEARCHED_TYPES,
        query: query === '' ? '*' : query,
        filter,
        start: args.offset,
        count: args.max_results,
        facets: true,
        maxAggValues: 3,
        // A column's lineage reaches columns, shown as the datasets holding them (the ecosystem's grouping),
        // the columns themselves at the ends of the paths.
        schemaFieldsAsDatasets: true,
        ...(parsed.includeRemoved ? { includeRemoved: true } : {}),
      });
      const found = await summaries(
        t,
        page.hits.map((h) => h.urn),
      );
      const results = page.hits.flatMap((hit) => {
        const entity = found.get(hit.urn);
        if (entity === undefined) return [];
        if (column === null) return [{ entity, degree: hit.degree }];
        return [{ entity, degree: hit.degree, lineageColumns: lineageColumns(hit), paths: hit.paths }];
      });
      const fitted = fitToBudget(results, t.budgetBytes);
      const key = args.upstream ? 'upstreams' : 'downstreams';
      return jsonResult({
        [key]: {
          ...pageInfo('entities', args.offset, fitted.items.length, page.total, fitted.truncated),
          searchResults: fitted.items,
          facets: page.aggregations
            .filter((a) => a.values.length > 0)
            .map((a) => ({ field: a.field, values: a.values })),
          ...(page.partial ? { partial: true } : {}),
        },
        ...(column === null ? {} : { metadata: { queryType: 'column-level-lineage', sourceColumn: column } }),
      });
    },
  );

  server.registerTool(
    'get_lineage_paths_between',
    {
      description: TOOL_DESCRIPTIONS.get_lineage_paths_between,
      inputSchema: {
        source_urn: z.string(),
        target_urn: z.string(),
        source_column: z.string().nullish(),
        target_column: z.string().nullish(),
        direction: z.enum(['upstream', 'downstream']).nullish(),
      },
      annotations: READ_ONLY,
    },
    async (args) => {
      const source = args.source_column
        ? schemaFieldUrn(args.source_urn, args.source_column)
        : args.source_urn;
      const target = args.target_column
        ? schemaFieldUrn(args.target_urn, args.target_column)
        : args.target_urn;
      const directions = args.direction ? [args.direction] : (['downstream', 'upstream'] as const);
      for (const direction of directions) {
        const hit = await findTarget(
          t,
          source,
          args.target_urn,
          direction === 'upstream' ? 'UPSTREAM' : 'DOWNSTREAM',
        );
        // A target column keeps the paths that end at it (the dataset is reached through its columns).
        const ending = hit?.paths.filter((path) => !args.target_column || path.at(-1) === target) ?? [];
        if (hit === undefined || ending.length === 0) continue;
        const paths = ending.map((path) => ({ path }));
        const fitted = fitToBudget(paths, t.budgetBytes);
        return jsonResult({
          metadata: {
            queryType: 'lineage-path-trace',
            direction,
            pathType: args.source_column ? 'column-level' : 'dataset-level',
            note: 'Each path lists urns from source to target, including the jobs and queries between; use get_entities on any of them for details.',
          },
          source: { urn: args.source_urn, ...(args.source_column ? { column: args.source_column } : {}) },
          target: { urn: args.target_urn, ...(args.target_column ? { column: args.target_column } : {}) },
          degree: hit.degree,
          pathCount: paths.length,
          paths: fitted.items,
          ...(fitted.truncated
            ? {
                truncated: true,
                note: `Only ${fitted.items.length} of ${paths.length} paths fit this result's size budget.`,
              }
            : {}),
        });
      }
      return jsonResult({
        source: { urn: args.source_urn },
        target: { urn: args.target_urn },
        pathCount: 0,
        paths: [],
        note: `No lineage path found ${args.direction ?? 'downstream or upstream'} from the source to the target (among the ${PATH_SCAN} nearest entities you may read).`,
      });
    },
  );

  server.registerTool(
    'get_dataset_queries',
    {
      description: TOOL_DESCRIPTIONS.get_dataset_queries,
      inputSchema: {
        urn: z.string(),
        column: z.string().nullish(),
        source: z.enum(['MANUAL', 'SYSTEM']).nullish(),
        start: z.number().int().min(0).default(0),
        count: z.number().int().min(1).max(100).default(10),
      },
      annotations: READ_ONLY,
    },
    async (args) => {
      const subject = args.column ? schemaFieldUrn(args.urn, args.column) : args.urn;
      const page = await t.app.search.search(t.ctx, {
        entityTypes: ['query'],
        input: '*',
        filter: {
          or: [
            {
              and: [
                { field: 'entities', values: [subject], condition: 'EQUAL' },
                ...(args.source
                  ? [{ field: 'source', values: [args.source], condition: 'EQUAL' as const }]
                  : []),
              ],
            },
          ],
        },
        start: args.start,
        count: args.count,
        sort: [{ field: 'createdAt', order: 'DESCENDING' }],
      });
      const found = await summaries(
        t,
        page.hits.map((h) => h.urn),
      );
      const queries = page.hits.flatMap((h) => found.get(h.urn) ?? []);
      const fitted = fitToBudget(queries, t.budgetBytes);
      return jsonResult({
        ...pageInfo('queries', args.start, fitted.items.length, page.total, fitted.truncated),
        queries: fitted.items,
      });
    },
  );
}

/** The columns of a hit (a dataset reached through its columns) that end its paths. */
function lineageColumns(hit: LineageHit): string[] {
  const prefix = `urn:li:schemaField:(${hit.urn},`;
  const ends = hit.paths.flatMap((path) => path.at(-1) ?? []);
  return [...new Set(ends.filter((u) => u.startsWith(prefix)).map((u) => u.slice(prefix.length, -1)))];
}

/** The lineage hit of `target` reached from `source`, at any number of hops, if the actor may see it. */
async function findTarget(
  t: ToolContext,
  source: string,
  target: string,
  direction: 'UPSTREAM' | 'DOWNSTREAM',
): Promise<LineageHit | undefined> {
  const page = await t.app.lineage.searchAcross(t.ctx, {
    urn: source,
    direction,
    entityTypes: SEARCHED_TYPES,
    query: '*',
    filter: { or: [{ and: [{ field: 'degree', values: ['1', '2', '3+'], condition: 'EQUAL' }] }] },
    start: 0,
    count: PATH_SCAN,
    schemaFieldsAsDatasets: true,
  });
  return page.hits.find((hit) => hit.urn === target);
}
