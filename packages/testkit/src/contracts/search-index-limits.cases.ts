import { describe, expect, it } from 'vitest';
import type { Condition, Criterion, Filter, SearchIndex, SearchRequest } from '@catalog/search';
import { datasetDoc, datasets, seed, uniqueNamespace, urnsOf } from './search-index-fixtures.js';

const and = (...criteria: Criterion[]): Filter => ({ or: [{ and: criteria }] });
const c = (field: string, condition: Condition, values: string[], negated = false): Criterion => ({
  field,
  condition,
  values,
  ...(negated ? { negated: true } : {}),
});
const junk = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}_${i}`);

/**
 * Large requests: the engine's own limits (OpenSearch refuses a query of more than 1024 clauses) are
 * never the caller's problem. An EQUAL or IN list of any length (up to the filter limits) answers like a
 * short one; a request beyond a stated limit is a ValidationError naming it, never another error.
 */
export function searchLimitCases(index: () => SearchIndex): void {
  describe('limits', () => {
    const setup = async () => {
      const ns = uniqueNamespace();
      const orders = datasetDoc(ns, { name: 'orders', platform: 'hive', tags: ['pii'] });
      const customers = datasetDoc(ns, { name: 'customers', platform: 'kafka', tags: ['gold'] });
      await seed(index(), [orders, customers]);
      const query = async (request: Partial<SearchRequest>) =>
        [...urnsOf(await index().search(datasets(request)))].sort();
      return { ns, orders, customers, query };
    };

    /** Either an answer, or a ValidationError whose message names a limit: never anything else. */
    const answersOrNamesLimit = async (request: Partial<SearchRequest>): Promise<string[] | undefined> => {
      try {
        return [...urnsOf(await index().search(datasets(request)))];
      } catch (error) {
        expect(error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/at most \d+/) });
        return undefined;
      }
    };

    it('an EQUAL filter with 5000 values matches as a short one does, plain and negated', async () => {
      const { orders, customers, query } = await setup();
      const values = [...junk(4999, 'urn:li:dataset:nothing'), orders.urn];
      expect(await query({ filter: and(c('urn', 'EQUAL', values)) })).toEqual([orders.urn]);
      expect(await query({ filter: and(c('urn', 'EQUAL', values, true)) })).toEqual([customers.urn]);
      const tags = [...junk(4999, 'urn:li:tag:none'), 'urn:li:tag:gold'];
      expect(await query({ filter: and(c('tags', 'IN', tags)) })).toEqual([customers.urn]);
    });

    it('an EQUAL filter with 5000 values on several fields ORed across conjunctions still answers', async () => {
      const { orders, customers, query } = await setup();
      const filter: Filter = {
        or: [
          { and: [c('urn', 'EQUAL', [...junk(5000, 'urn:li:dataset:x'), orders.urn])] },
          { and: [c('tags', 'EQUAL', [...junk(5000, 'urn:li:tag:x'), 'urn:li:tag:gold'])] },
        ],
      };
      expect(await query({ filter })).toEqual([orders.urn, customers.urn].sort());
    });

    it('thousands of values on a pattern condition answer or name the limit', async () => {
      const { orders } = await setup();
      for (const condition of ['CONTAIN', 'START_WITH', 'END_WITH', 'IEQUAL'] as const) {
        const found = await answersOrNamesLimit({
          filter: and(c('name', condition, [...junk(3000, 'zz'), 'orders'])),
        });
        if (found !== undefined) expect(found, condition).toEqual([orders.urn]);
      }
      const ranged = await answersOrNamesLimit({
        filter: and(
          c(
            'createdAt',
            'GREATER_THAN',
            junk(3000, '').map((_, i) => String(i)),
          ),
        ),
      });
      if (ranged !== undefined) expect(ranged).toEqual([]);
    });

    it('thousands of criteria or conjunctions answer or name the limit', async () => {
      const { orders } = await setup();
      const criteria = junk(3000, 'zz').map((v) => c('urn', 'EQUAL', [v], true));
      const manyAnd = await answersOrNamesLimit({ filter: and(c('name', 'EQUAL', ['orders']), ...criteria) });
      if (manyAnd !== undefined) expect(manyAnd).toEqual([orders.urn]);
      const manyOr = await answersOrNamesLimit({
        filter: { or: [...junk(3000, 'zz'), orders.urn].map((v) => ({ and: [c('urn', 'EQUAL', [v])] })) },
      });
      if (manyOr !== undefined) expect(manyOr).toEqual([orders.urn]);
    });

    it('a 100,000-character search text is refused with a ValidationError naming the limit', async () => {
      await setup();
      const words = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ');
      for (const input of ['x'.repeat(100_000), words.slice(0, 100_000), `name:${'x'.repeat(100_000)}`]) {
        await expect(index().search(datasets({ input }))).rejects.toMatchObject({
          code: 'VALIDATION',
          message: expect.stringMatching(/at most \d+ characters/),
        });
      }
    });

    it('a text of many distinct words at the length limit answers or names the limit', async () => {
      const { orders } = await setup();
      const words = Array.from({ length: 400 }, (_, i) => `orders${i}`).join(' ');
      const found = await answersOrNamesLimit({ input: words.slice(0, 1000) });
      if (found !== undefined) expect(found).toEqual([]);
      // A word repeated up to the length limit is asked once.
      expect(urnsOf(await index().search(datasets({ input: Array(140).fill('orders').join(' ') })))).toEqual([
        orders.urn,
      ]);
    });
  });
}
