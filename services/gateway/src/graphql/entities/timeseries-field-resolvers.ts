import { ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { filterOf } from '../search/search-resolvers.js';
import { list, num, str } from './aspect-views.js';
import type { EntityRef } from './entity-ref.js';

/** Entity fields answered from the time-series index: dataset profiles and usage summaries. */
type Json = Readonly<Record<string, unknown>>;
type Resolver = (ref: EntityRef, args: Record<string, unknown>, ctx: GraphQLContext) => unknown;

/** The ecosystem's default and our ceiling for one time-series query. */
const MAX_LIMIT = 10_000;

interface ProfileArgs {
  readonly startTimeMillis?: number | null;
  readonly endTimeMillis?: number | null;
  readonly limit?: number | null;
  readonly filter?: { readonly and: NonNullable<Parameters<typeof filterOf>[0]['filters']> } | null;
}

function profileQuery(args: ProfileArgs) {
  const limit = args.limit ?? MAX_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new ValidationError(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${limit}`);
  const start = args.startTimeMillis ?? undefined;
  const end = args.endTimeMillis ?? undefined;
  if (start !== undefined && end !== undefined && start > end)
    throw new ValidationError('startTimeMillis must not be after endTimeMillis');
  return {
    limit,
    ...(start === undefined ? {} : { startTimeMillis: start }),
    ...(end === undefined ? {} : { endTimeMillis: end }),
    ...(args.filter === undefined || args.filter === null
      ? {}
      : { filter: filterOf({ filters: args.filter.and }) }),
  };
}

const floatOf = (value: unknown) => (typeof value === 'number' ? value : null);

function profile(value: Json, timestampMillis: number) {
  const fields = value['fieldProfiles'];
  return {
    timestampMillis: num(value['timestampMillis']) ?? timestampMillis,
    rowCount: num(value['rowCount']),
    columnCount: num(value['columnCount']),
    sizeInBytes: num(value['sizeInBytes']),
    fieldProfiles: Array.isArray(fields)
      ? list(fields).map((f) => ({
          fieldPath: str(f['fieldPath']) ?? '',
          uniqueCount: num(f['uniqueCount']),
          uniqueProportion: floatOf(f['uniqueProportion']),
          nullCount: num(f['nullCount']),
          nullProportion: floatOf(f['nullProportion']),
          min: str(f['min']),
          max: str(f['max']),
          mean: str(f['mean']),
          median: str(f['median']),
          stdev: str(f['stdev']),
          sampleValues: Array.isArray(f['sampleValues'])
            ? (f['sampleValues'] as unknown[]).filter((v): v is string => typeof v === 'string')
            : null,
        }))
      : null,
  };
}

const users = (urns: readonly string[]): EntityRef[] => urns.map((urn) => ({ urn, entity: 'corpuser' }));

export const TIMESERIES_FIELD_RESOLVERS: Record<string, Record<string, Resolver>> = {
  Dataset: {
    // Newest first, as the ecosystem's time-series reads.
    datasetProfiles: async (ref, args, ctx) => {
      const documents = await ctx.services.app.timeseries.values(ctx.auth, {
        urn: ref.urn,
        entityType: 'dataset',
        aspect: 'datasetProfile',
        ...profileQuery(args as ProfileArgs),
      });
      return documents.map((d) => profile(d.value, d.timestampMillis));
    },
    statsSummary: async (ref, _a, ctx) => {
      const summary = await ctx.services.app.usage.dataset(ctx.auth, ref.urn);
      return summary === null ? null : { ...summary, topUsersLast30Days: users(summary.topUsersLast30Days) };
    },
  },
  Dashboard: {
    statsSummary: async (ref, _a, ctx) => {
      const summary = await ctx.services.app.usage.dashboard(ctx.auth, ref.urn);
      return summary === null ? null : { ...summary, topUsersLast30Days: users(summary.topUsersLast30Days) };
    },
  },
};
