import { parse } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { catalogResolvers, catalogTypeDefs } from '../graphql-schema.js';
import { costRefusal, useQueryCost, variablesSignature } from './query-cost.js';

const schema = createSchema({ typeDefs: catalogTypeDefs(), resolvers: catalogResolvers() });
const LIMIT = 100_000;

/** The refusal of `query` at the default limit, or undefined when it may run. */
function refusal(query: string, variables: Record<string, unknown> = {}): string | undefined {
  return costRefusal({ schema, query: parse(query), variables }, LIMIT);
}

/** The cost of `query`: what a limit of 0 reports. */
function cost(query: string, variables: Record<string, unknown> = {}): number {
  const message = costRefusal({ schema, query: parse(query), variables }, 0) ?? '';
  return Number(/^Query cost ([\d,]+)/.exec(message)?.[1]?.replaceAll(',', ''));
}

/** The SDK's get_urns_by_filter, with its default batch of 10,000. */
const SDK_SCROLL = `query scrollUrnsWithFilters($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!],
  $batchSize: Int!, $scrollId: String) {
  scrollAcrossEntities(input: {query: $query, count: $batchSize, scrollId: $scrollId, types: $types,
    orFilters: $orFilters, searchFlags: {skipHighlighting: true, skipAggregates: true}}) {
    nextScrollId
    searchResults { entity { urn } extraProperties { name value } }
  }
}`;

describe('the query cost counts what a query returns', () => {
  it('thirty aliased searchAcrossEntities of count 10000 are refused by cost, naming the limit', () => {
    const query = `{ ${Array.from(
      { length: 30 },
      (_, i) =>
        `s${i}: searchAcrossEntities(input: {query: "*", count: 10000}) { searchResults { entity { urn } } }`,
    ).join(' ')} }`;
    expect(refusal(query)).toBe(
      'Query cost 900,030 exceeds the limit of 100,000 (GRAPHQL_QUERY_COMPLEXITY_LIMIT; a field costs 1, ' +
        'times the count/first/limit of each list above it): lower count/first/limit or split the query',
    );
  });

  it("lets the SDK's scroll of 10,000 urns through", () => {
    const variables = { query: '*', batchSize: 10_000, scrollId: null, types: null, orFilters: [] };
    expect(cost(SDK_SCROLL, variables)).toBe(70_001);
    expect(refusal(SDK_SCROLL, variables)).toBeUndefined();
  });

  it('reads the page size from an input object given whole as a variable', () => {
    const query = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { searchResults { entity { urn } } } }`;
    expect(cost(query, { input: { query: '*', count: 500 } })).toBe(1 + 500 * 3);
  });

  it("costs an absent count at the resolver's default", () => {
    expect(cost('{ searchAcrossEntities(input: {query: "*"}) { total } }')).toBe(1 + 10 * 1);
    expect(cost('{ listUsers(input: {}) { users { urn } } }')).toBe(1 + 20 * 2);
  });

  it('costs entities(urns) by the urns listed', () => {
    expect(cost('query($u: [String!]!) { entities(urns: $u) { urn } }', { u: ['a', 'b', 'c'] })).toBe(1 + 3);
  });

  it('refuses a page over the largest one a list serves, naming it', () => {
    expect(refusal('{ big: searchAcrossEntities(input: {query: "*", count: 20000}) { total } }')).toBe(
      'big asks for 20,000 results; a list serves at most 10,000 per request: page with start or scrollId',
    );
  });
});

describe('the cost is remembered per document and variables signature', () => {
  it('signs numbers, booleans and short strings as they are, longer strings as one mark', () => {
    expect(
      variablesSignature({ count: 10, skip: 'false', urns: ['urn:li:corpuser:alice', 'urn:li:tag:x'] }),
    ).toBe('{"count":10,"skip":"false","urns":[~,"urn:li:tag:x"],}');
    expect(variablesSignature({ q: 'a query longer than sixteen' })).toBe(
      variablesSignature({ q: 'another long query text' }),
    );
    expect(variablesSignature({ urns: ['urn:li:corpuser:alice'] })).not.toBe(
      variablesSignature({ urns: ['urn:li:corpuser:alice', 'urn:li:corpuser:bob1'] }),
    );
  });

  it('answers a repeated document by its variables: a larger page is costed anew and refused', async () => {
    // Resolvers are not what is tested: an execution the cost lets through answers at once.
    const answerAtOnce = {
      onExecute: ({ setExecuteFn }: { setExecuteFn: (fn: () => unknown) => void }) =>
        setExecuteFn(() => ({ data: {} })),
    };
    const yoga = createYoga({ schema, plugins: [answerAtOnce, useQueryCost(LIMIT)] });
    const query = `query($n: Int) { a: searchAcrossEntities(input: {query: "*", count: $n}) { searchResults { entity { urn } } }
      b: searchAcrossEntities(input: {query: "*", count: $n}) { searchResults { entity { urn } } }
      c: searchAcrossEntities(input: {query: "*", count: $n}) { searchResults { entity { urn } } }
      d: searchAcrossEntities(input: {query: "*", count: $n}) { searchResults { entity { urn } } }
      e: searchAcrossEntities(input: {query: "*", count: $n}) { searchResults { entity { urn } } }
      f: searchAcrossEntities(input: {query: "*", count: $n}) { searchResults { entity { urn } } } }`;
    const errorsOf = async (n: number) => {
      const res = await yoga.fetch('http://catalog/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { n } }),
      });
      return ((await res.json()) as { errors?: { message: string }[] }).errors?.map((e) => e.message) ?? [];
    };
    const refused = (messages: string[]) => messages.some((m) => m.includes('exceeds the limit of 100,000'));
    expect(refused(await errorsOf(10))).toBe(false);
    expect(refused(await errorsOf(10_000))).toBe(true);
    expect(refused(await errorsOf(10_000))).toBe(true);
    expect(refused(await errorsOf(10))).toBe(false);
  });
});
