import type { Client, Types } from '@opensearch-project/opensearch';
import type { Query } from './filter-query.js';
import { asNumber, asObject, asString } from './narrow.js';
import { aggregationsOf, hitsOf } from './read-context.js';

export interface CreatedStamp {
  time: number;
  actor: string;
}

/**
 * For each (entity, type) pair of a page, the earliest edge carrying both createdOn and createdActor:
 * one request, a filter aggregation per pair with the top hit by createdOn.
 */
export async function relatedCreated(
  client: Client,
  index: string,
  filter: readonly Query[],
  entityField: string,
  page: readonly { readonly entity: string; readonly type: string }[],
): Promise<(CreatedStamp | undefined)[]> {
  if (page.length === 0) return [];
  const aggregations: Record<string, Types.Common_Aggregations.AggregationContainer> = {};
  page.forEach((pair, i) => {
    aggregations[`pair_${i}`] = {
      filter: {
        bool: {
          filter: [
            { term: { [entityField]: pair.entity } },
            { term: { relationship: pair.type } },
            { exists: { field: 'createdOn' } },
            { exists: { field: 'createdActor' } },
          ],
        },
      },
      aggregations: {
        earliest: {
          top_hits: {
            size: 1,
            sort: [{ createdOn: { order: 'asc' } }],
            _source: { includes: ['createdOn', 'createdActor'] },
          },
        },
      },
    } as Types.Common_Aggregations.AggregationContainer;
  });
  const response = await client.search({
    index,
    body: { size: 0, query: { bool: { filter: [...filter] } }, aggregations },
  });
  const found = aggregationsOf(response.body);
  return page.map((_, i) => {
    const pair = asObject(found[`pair_${i}`], `pair_${i}`);
    const top = hitsOf(asObject(pair['earliest'], 'earliest')).list[0];
    if (top === undefined) return undefined;
    const source = asObject(top['_source'], 'edge _source');
    return {
      time: asNumber(source['createdOn'], 'createdOn'),
      actor: asString(source['createdActor'], 'createdActor'),
    };
  });
}
