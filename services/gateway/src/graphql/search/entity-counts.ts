import { ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { DEFAULT_SEARCH_TYPES, entityOfType } from '../entities/entity-types.js';
import { runSearch } from './search-resolvers.js';

/** The ecosystem's `getEntityCounts` (its home page asks it for "300 Datasets"), with its exact types. */
export const entityCountsSchema = /* GraphQL */ `
  input EntityCountInput {
    types: [EntityType!]
    viewUrn: String
  }
  type EntityCountResult {
    entityType: EntityType!
    count: Int!
  }
  type EntityCountResults {
    counts: [EntityCountResult!]
  }
  extend type Query {
    getEntityCounts(input: EntityCountInput): EntityCountResults
  }
`;

interface EntityCountInput {
  readonly types?: readonly string[] | null;
  readonly viewUrn?: string | null;
}

/**
 * How many entities of each asked type the search index holds (every searchable type when none are
 * asked), one count per type in the order asked, zero included. As the ecosystem's resolver does, the
 * counts are the index's totals: one aggregation by entity type, the same the search facets give.
 */
async function getEntityCounts(
  _root: unknown,
  { input }: { input?: EntityCountInput | null },
  ctx: GraphQLContext,
) {
  if (input?.viewUrn !== undefined && input.viewUrn !== null)
    throw new ValidationError('viewUrn is not supported by getEntityCounts');
  const asked = input?.types === undefined || input.types === null ? DEFAULT_SEARCH_TYPES : input.types;
  const types = [...new Set(asked)];
  const entities = types.map(entityOfType);
  const response = await runSearch(
    ctx,
    { query: '*', searchFlags: { skipAggregates: false, maxAggValues: Math.max(entities.length, 1) } },
    [...new Set(entities)],
    { start: 0, count: 0 },
    ['_entityType'],
  );
  const counted = new Map(
    (response.aggregations.find((a) => a.field === '_entityType')?.values ?? []).map((v) => [
      v.value,
      v.count,
    ]),
  );
  return {
    counts: types.map((type, i) => ({ entityType: type, count: counted.get(entities[i]!) ?? 0 })),
  };
}

export function entityCountsResolvers(): Record<string, Record<string, unknown>> {
  return { Query: { getEntityCounts } };
}
