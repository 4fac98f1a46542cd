import { randomUUID } from 'node:crypto';
import type { GraphQLResolveInfo } from 'graphql';
import { entityRegistry, formatUrn, NotFoundError, ValidationError } from '@catalog/model';
import { buildEntityDocument, matchesFilter, parseSearchInput, termsMatchText } from '@catalog/search';
import { requirePrivilege } from '../authorization.js';
import type { GraphQLContext } from '../context.js';
import { refOf, requireRef, type EntityRef } from '../entities/entity-ref.js';
import { typeOfEntity } from '../entities/entity-types.js';
import { pageOf } from '../list-page.js';
import { writeAspects } from '../mutations/write-proposals.js';
import { filterOf } from '../search/search-resolvers.js';
import {
  ingestionSourceFields,
  ingestionSourceInfoOf,
  type UpdateIngestionSourceInput,
} from './ingestion-source-info.js';

const ENTITY = 'dataHubIngestionSource';
const INFO = 'dataHubIngestionSourceInfo';
const KEY = 'dataHubIngestionSourceKey';
/** Every ingestion source operation (the ecosystem's canManageIngestion): recipes hold connection details. */
const MANAGE_INGESTION = ['MANAGE_INGESTION'] as const;

/**
 * DataHub ingestion sources (ingestion.graphql). `IngestionSource` is already an entity type of the
 * entity schema, so its ingestion fields extend it. `executions` answers an empty result: execution
 * requests are not run or listed by this slice.
 */
export const ingestionSourceSchema = `
type StringMapEntry { key: String! value: String }
input StringMapEntryInput { key: String! value: String }

type IngestionSchedule { timezone: String interval: String! }
type IngestionConfig {
  recipe: String!
  executorId: String!
  version: String
  debugMode: Boolean
  extraArgs: [StringMapEntry!]
}
type IngestionSourceExecutionRequests {
  start: Int
  count: Int
  total: Int
  executionRequests: [ExecutionRequest!]!
}

extend type IngestionSource {
  name: String!
  schedule: IngestionSchedule
  platform: DataPlatform
  config: IngestionConfig!
  executions(start: Int, count: Int): IngestionSourceExecutionRequests
}

input ListIngestionSourcesInput {
  start: Int
  count: Int
  query: String
  filters: [FacetFilterInput!]
  sort: SortCriterion
}
type ListIngestionSourcesResult {
  start: Int!
  count: Int!
  total: Int!
  ingestionSources: [IngestionSource!]!
}

input UpdateIngestionSourceConfigInput {
  recipe: String!
  version: String
  executorId: String!
  debugMode: Boolean
  extraArgs: [StringMapEntryInput!]
}
input UpdateIngestionSourceScheduleInput { interval: String! timezone: String! }
input UpdateIngestionSourceInput {
  name: String!
  type: String!
  description: String
  schedule: UpdateIngestionSourceScheduleInput
  config: UpdateIngestionSourceConfigInput!
}

extend type Query {
  listIngestionSources(input: ListIngestionSourcesInput!): ListIngestionSourcesResult
  ingestionSource(urn: String!): IngestionSource
}

extend type Mutation {
  createIngestionSource(input: UpdateIngestionSourceInput!): String
  updateIngestionSource(urn: String!, input: UpdateIngestionSourceInput!): String
  deleteIngestionSource(urn: String!): String
}
`;

type Json = Readonly<Record<string, unknown>>;

interface ListIngestionSourcesInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
  readonly filters?: Parameters<typeof filterOf>[0]['filters'];
  readonly sort?: { readonly field: string; readonly sortOrder: 'ASCENDING' | 'DESCENDING' } | null;
}

/** A source in a result: its ref, with the stored aspect when the resolver already read it. */
type SourceRef = EntityRef & { readonly known?: { readonly info?: Json } };

/** An ingestion source urn a client gave: a 400 unless it names a dataHubIngestionSource. */
function requireSourceUrn(urn: string): string {
  const ref = requireRef(urn);
  if (ref.entity !== ENTITY)
    throw new ValidationError(`Expected a dataHubIngestionSource urn, got ${JSON.stringify(urn)}`);
  return urn;
}

/** Every stored source (sources are few: an admin configures each by hand). */
async function storedSources(ctx: GraphQLContext): Promise<{ urn: string; info: Json }[]> {
  const sources: { urn: string; info: Json }[] = [];
  let after: string | undefined;
  do {
    const page = await ctx.services.store.scan({
      aspect: INFO,
      urnLike: 'urn:li:dataHubIngestionSource:%',
      limit: 500,
      ...(after === undefined ? {} : { after }),
    });
    for (const item of page.items) sources.push({ urn: item.urn, info: item.value });
    after = page.next;
  } while (after !== undefined);
  return sources;
}

/** The values of a source's search document field (the fields the ingestion source index has). */
function documentValues(urn: string, info: Json): (field: string) => readonly unknown[] {
  const document = buildEntityDocument(
    entityRegistry.requireEntity(ENTITY),
    urn,
    new Map([[INFO, info as Record<string, unknown>]]),
  );
  return (field) => {
    const value = document.fields[field.replace(/\.keyword$/, '')];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  };
}

/** Whether a stored source is in a listing: its name or type matches the query, its document the filters. */
export function ingestionSourceMatches(
  urn: string,
  info: Json,
  input: Pick<ListIngestionSourcesInput, 'query' | 'filters'>,
): boolean {
  const valuesOf = documentValues(urn, info);
  if (!matchesFilter(filterOf({ filters: input.filters ?? null }), valuesOf)) return false;
  const text = input.query?.trim() ?? '';
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
  sort: ListIngestionSourcesInput['sort'],
): (a: { urn: string; info: Json }, b: { urn: string; info: Json }) => number {
  const fields =
    sort === null || sort === undefined ? ['name'] : sort.field === 'name' ? ['type', 'name'] : [sort.field];
  const sign = sort?.sortOrder === 'DESCENDING' ? -1 : 1;
  const keyOf = (s: { urn: string; info: Json }) => {
    const valuesOf = documentValues(s.urn, s.info);
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

/** The stored aspect of a source in a result: the one the resolver read, else the request's batched read. */
async function infoOf(ref: SourceRef, ctx: GraphQLContext): Promise<Json | undefined> {
  return ref.known?.info ?? (await ctx.entities.aspect<Json>(ref.urn, INFO));
}

/** The name of a field's type without its list and non-null wrappers. */
function namedTypeOf(info: GraphQLResolveInfo): string {
  let type: unknown = info.returnType;
  while (typeof type === 'object' && type !== null && 'ofType' in type) type = type.ofType;
  return (type as { name?: string }).name ?? '';
}

async function fieldsOf(ref: SourceRef, ctx: GraphQLContext) {
  const info = await infoOf(ref, ctx);
  return info === undefined ? undefined : ingestionSourceFields(info);
}

export function ingestionSourceResolvers(): Record<string, Record<string, unknown>> {
  return {
    IngestionSource: {
      // The entity schema types `type` as EntityType; the ecosystem's IngestionSource has the source
      // type (mysql, …) there, a String. Answer whichever the schema asks for.
      type: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
        namedTypeOf(info) === 'String'
          ? ((await fieldsOf(ref, ctx))?.sourceType ?? '')
          : typeOfEntity(ref.entity),
      name: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) =>
        (await fieldsOf(ref, ctx))?.name ?? '',
      schedule: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) =>
        (await fieldsOf(ref, ctx))?.schedule ?? null,
      platform: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) =>
        refOf((await fieldsOf(ref, ctx))?.platform) ?? null,
      // Recipes name hosts, users and secrets: only who manages ingestion reads them, whatever the path
      // (a listing has checked already; a generic entity read has not).
      config: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) => {
        if (ref.known?.info === undefined) await requirePrivilege(ctx, MANAGE_INGESTION);
        return (await fieldsOf(ref, ctx))?.config ?? { recipe: '{}', executorId: 'default' };
      },
      executions: (_ref: SourceRef, args: { start?: number | null; count?: number | null }) => ({
        start: args.start ?? 0,
        count: 0,
        total: 0,
        executionRequests: [],
      }),
    },
    Query: {
      listIngestionSources: async (
        _r: unknown,
        { input }: { input: ListIngestionSourcesInput },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_INGESTION);
        const { start, count } = pageOf(input);
        const matching = (await storedSources(ctx))
          .filter((s) => ingestionSourceMatches(s.urn, s.info, input))
          .sort(ingestionSourceOrder(input.sort));
        const sources: SourceRef[] = matching
          .slice(start, start + count)
          .map((s) => ({ urn: s.urn, entity: ENTITY, known: { info: s.info } }));
        return { start, count: sources.length, total: matching.length, ingestionSources: sources };
      },
      ingestionSource: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_INGESTION);
        requireSourceUrn(urn);
        const info = await ctx.entities.aspect<Json>(urn, INFO);
        return info === undefined ? null : { urn, entity: ENTITY, known: { info } };
      },
    },
    Mutation: {
      createIngestionSource: async (
        _r: unknown,
        { input }: { input: UpdateIngestionSourceInput },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_INGESTION);
        const info = ingestionSourceInfoOf(input);
        const urn = formatUrn(ENTITY, [randomUUID()]);
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
        return urn;
      },
      updateIngestionSource: async (
        _r: unknown,
        { urn, input }: { urn: string; input: UpdateIngestionSourceInput },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_INGESTION);
        requireSourceUrn(urn);
        const stored = await ctx.entities.aspect<Json>(urn, INFO);
        if (stored === undefined) throw new NotFoundError(`Ingestion source ${urn} does not exist`);
        const info = ingestionSourceInfoOf(input, stored);
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
        return urn;
      },
      deleteIngestionSource: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_INGESTION);
        requireSourceUrn(urn);
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
        return urn;
      },
    },
  };
}
