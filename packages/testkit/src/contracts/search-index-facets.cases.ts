import { describe, expect, it } from 'vitest';
import { entityRegistry } from '@catalog/model';
import { indexSpecFor, type SearchIndex } from '@catalog/search';
import {
  chartDoc,
  countsOf,
  datasetDoc,
  datasets,
  seed,
  uniqueNamespace,
  urnsOf,
} from './search-index-fixtures.js';

/**
 * Aggregations (facets) and sorting. A facet counts, per value, the documents of the whole match set
 * (not just the page) that have it; values are ordered by count descending, then value ascending, and cut
 * at maxAggValues; every requested facet is answered, in request order, named as requested (`.keyword`
 * dropped). Sorting orders by the field (its smallest value ascending, largest descending, as OpenSearch
 * does for multi-valued fields), documents without it last, then by score and urn.
 */
export function searchFacetCases(index: () => SearchIndex): void {
  describe('aggregations', () => {
    it('facets a name that is a keyword in one entity type and text in another, across both', async () => {
      // chart `type` is a KEYWORD filter field (Chart Type); mlModel `type` is TEXT_PARTIAL.
      const ns = uniqueNamespace();
      const chart = chartDoc(ns, 'c1', { title: `${ns} revenue` });
      const typedChart = { ...chart, fields: { ...chart.fields, type: 'BAR' } };
      const model = {
        urn: `urn:li:mlModel:(urn:li:dataPlatform:sagemaker,${ns}_m1,PROD)`,
        entityType: 'mlModel',
        fields: {
          urn: `urn:li:mlModel:(urn:li:dataPlatform:sagemaker,${ns}_m1,PROD)`,
          _entityType: 'mlModel',
          removed: false,
          name: `${ns} churn`,
          type: 'classifier',
        },
      };
      await index().ensureIndex(indexSpecFor(entityRegistry.requireEntity('mlModel')));
      await seed(index(), [typedChart, model]);
      const found = await index().search({
        entityTypes: ['chart', 'mlModel'],
        input: ns,
        start: 0,
        count: 10,
        facets: ['type', '_entityType'],
      });
      expect([...urnsOf(found)].sort()).toEqual([chart.urn, model.urn].sort());
      expect(countsOf(found, 'type')).toEqual({ BAR: 1, classifier: 1 });
      expect(countsOf(found, '_entityType')).toEqual({ chart: 1, mlModel: 1 });
    });

    const setup = async () => {
      const ns = uniqueNamespace();
      const docs = [
        datasetDoc(ns, { name: 'a1', platform: 'hive', tags: ['pii', 'gold'], owners: ['alice'] }),
        datasetDoc(ns, { name: 'a2', platform: 'hive', tags: ['pii'], owners: ['alice', 'bob'] }),
        datasetDoc(ns, { name: 'a3', platform: 'hive', origin: 'DEV' }),
        datasetDoc(ns, { name: 'a4', platform: 'kafka', tags: ['gold'] }),
        datasetDoc(ns, { name: 'a5', platform: 'snowflake', owners: ['carol'] }),
        datasetDoc(ns, { name: 'a6', platform: 'kafka', tags: ['pii'], removed: true }),
      ];
      await seed(index(), docs);
      return { ns, docs };
    };

    it('counts values over the whole match set, not just the page', async () => {
      await setup();
      const result = await index().search(
        datasets({ count: 1, facets: ['platform', 'origin', 'tags', 'owners', '_entityType'] }),
      );
      expect(result.total).toBe(5);
      expect(result.hits).toHaveLength(1);
      expect(result.aggregations.map((a) => a.field)).toEqual([
        'platform',
        'origin',
        'tags',
        'owners',
        '_entityType',
      ]);
      expect(countsOf(result, 'platform')).toEqual({
        'urn:li:dataPlatform:hive': 3,
        'urn:li:dataPlatform:kafka': 1,
        'urn:li:dataPlatform:snowflake': 1,
      });
      expect(countsOf(result, 'origin')).toEqual({ PROD: 4, DEV: 1 });
      expect(countsOf(result, 'tags')).toEqual({ 'urn:li:tag:pii': 2, 'urn:li:tag:gold': 2 });
      expect(countsOf(result, 'owners')).toEqual({
        'urn:li:corpuser:alice': 2,
        'urn:li:corpuser:bob': 1,
        'urn:li:corpuser:carol': 1,
      });
      expect(countsOf(result, '_entityType')).toEqual({ dataset: 5 });
    });

    it('reflects writes made after an earlier aggregation', async () => {
      const { ns, docs } = await setup();
      const request = datasets({ count: 0, facets: ['platform'] });
      expect(countsOf(await index().search(request), 'platform')['urn:li:dataPlatform:kafka']).toBe(1);
      await index().upsert([datasetDoc(ns, { name: 'a7', platform: 'kafka' })]);
      await index().delete([{ entityType: 'dataset', urn: docs[4]!.urn }]);
      await index().refresh();
      const after = countsOf(await index().search(request), 'platform');
      expect(after['urn:li:dataPlatform:kafka']).toBe(2);
      expect(after['urn:li:dataPlatform:snowflake']).toBeUndefined();
    });

    it('keeps the counts of a text search current through value changes, soft deletes and deletes', async () => {
      const ns = uniqueNamespace();
      const doc = (name: string, platform: string, tags: string[], removed = false) =>
        datasetDoc(ns, { name, platform, tags, description: 'ledger lines', removed });
      const unrelated = datasetDoc(ns, { name: 'b1', platform: 'hive', tags: ['gold'] });
      await seed(index(), [
        doc('a1', 'hive', ['pii', 'gold']),
        doc('a2', 'hive', ['pii']),
        doc('a3', 'kafka', ['gold']),
        unrelated,
      ]);
      const ledger = datasets({ input: 'ledger', facets: ['tags', 'platform'] });
      expect(countsOf(await index().search(ledger), 'tags')).toEqual({
        'urn:li:tag:pii': 2,
        'urn:li:tag:gold': 2,
      });
      await index().upsert([
        doc('a1', 'hive', ['gold', 'silver']),
        doc('a2', 'hive', ['pii'], true),
        doc('a4', 'snowflake', ['silver']),
      ]);
      await index().delete([{ entityType: 'dataset', urn: doc('a3', 'kafka', []).urn }]);
      await index().refresh();
      const after = await index().search(ledger);
      expect(after.total).toBe(2);
      expect(countsOf(after, 'tags')).toEqual({ 'urn:li:tag:gold': 1, 'urn:li:tag:silver': 2 });
      expect(countsOf(after, 'platform')).toEqual({
        'urn:li:dataPlatform:hive': 1,
        'urn:li:dataPlatform:snowflake': 1,
      });
      const withRemoved = await index().search({ ...ledger, includeRemoved: true });
      expect(countsOf(withRemoved, 'tags')).toEqual({
        'urn:li:tag:gold': 1,
        'urn:li:tag:pii': 1,
        'urn:li:tag:silver': 2,
      });
      const everything = await index().search(datasets({ facets: ['tags'] }));
      expect(countsOf(everything, 'tags')).toEqual({ 'urn:li:tag:gold': 2, 'urn:li:tag:silver': 2 });
    });

    it('orders values by count then value, and cuts at maxAggValues', async () => {
      await setup();
      const result = await index().search(
        datasets({ count: 0, facets: ['platform', 'owners'], maxAggValues: 2 }),
      );
      const platform = result.aggregations.find((a) => a.field === 'platform');
      expect(platform?.values).toEqual([
        { value: 'urn:li:dataPlatform:hive', count: 3 },
        { value: 'urn:li:dataPlatform:kafka', count: 1 },
      ]);
      const owners = result.aggregations.find((a) => a.field === 'owners');
      expect(owners?.values).toEqual([
        { value: 'urn:li:corpuser:alice', count: 2 },
        { value: 'urn:li:corpuser:bob', count: 1 },
      ]);
    });

    it('follows the text query and the filter, and answers facets with no values', async () => {
      await setup();
      const result = await index().search(
        datasets({
          input: 'a1',
          facets: ['tags', 'origin.keyword', 'glossaryTerms'],
        }),
      );
      expect(countsOf(result, 'tags')).toEqual({ 'urn:li:tag:pii': 1, 'urn:li:tag:gold': 1 });
      expect(countsOf(result, 'origin')).toEqual({ PROD: 1 });
      expect(countsOf(result, 'glossaryTerms')).toEqual({});
      const filtered = await index().search(
        datasets({
          facets: ['platform'],
          filter: { or: [{ and: [{ field: 'tags', values: ['urn:li:tag:gold'], condition: 'EQUAL' }] }] },
        }),
      );
      expect(countsOf(filtered, 'platform')).toEqual({
        'urn:li:dataPlatform:hive': 1,
        'urn:li:dataPlatform:kafka': 1,
      });
      const withRemoved = await index().search(datasets({ facets: ['platform'], includeRemoved: true }));
      expect(countsOf(withRemoved, 'platform')['urn:li:dataPlatform:kafka']).toBe(2);
    });

    it('counts entity types across a multi-type search', async () => {
      const { ns } = await setup();
      await index().upsert([chartDoc(ns, 'c1', { title: 'one' }), chartDoc(ns, 'c2', { title: 'two' })]);
      await index().refresh();
      const result = await index().search({
        entityTypes: ['dataset', 'chart'],
        input: '*',
        start: 0,
        count: 0,
        facets: ['_entityType'],
      });
      expect(result.total).toBe(7);
      expect(countsOf(result, '_entityType')).toEqual({ dataset: 5, chart: 2 });
    });
  });

  describe('sort', () => {
    it('sorts by a field, documents without it last, ties by urn', async () => {
      const ns = uniqueNamespace();
      const early = datasetDoc(ns, { key: 'x', name: 'bravo', createdAt: 100 });
      const late = datasetDoc(ns, { key: 'y', name: 'alpha', createdAt: 300 });
      const middle = datasetDoc(ns, { key: 'z', name: 'charlie', createdAt: 200 });
      const undated = datasetDoc(ns, { key: 'w', name: 'delta' });
      await seed(index(), [early, late, middle, undated]);
      const byTime = await index().search(datasets({ sort: [{ field: 'createdAt', order: 'DESCENDING' }] }));
      expect(urnsOf(byTime)).toEqual([late.urn, middle.urn, early.urn, undated.urn]);
      const byTimeAsc = await index().search(
        datasets({ sort: [{ field: 'createdAt', order: 'ASCENDING' }] }),
      );
      expect(urnsOf(byTimeAsc)).toEqual([early.urn, middle.urn, late.urn, undated.urn]);
      const byName = await index().search(
        datasets({ sort: [{ field: 'name', order: 'ASCENDING' }], start: 1, count: 2 }),
      );
      expect(urnsOf(byName)).toEqual([early.urn, middle.urn]);
    });
  });
}
