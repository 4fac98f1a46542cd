import { describe, expect, it } from 'vitest';
import {
  structuredPropertyFieldName,
  type Filter,
  type SearchIndex,
  type StructuredPropertySearchDefinition,
} from '@catalog/search';
import {
  chartDoc,
  countsOf,
  datasetDoc,
  datasets,
  datasetSpec,
  seed,
  uniqueNamespace,
  urnsOf,
} from './search-index-fixtures.js';
import { and, c, definition, without, withValues } from './search-index-structured-property-fixtures.js';

const DAY = 86_400_000;
/** Epoch millis of a UTC day, as the indexer stores date values. */
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);

/**
 * Structured properties: typed fields named from their definitions (the definitions view), filters
 * and facets on `structuredProperties.<qualifiedName>` (or the `_` form), the ecosystem's printing of
 * facet values, the active version only, the errors for soft-deleted and unknown properties, explicit
 * mappings (never dynamic ones), and values up to Lucene's term limit filtering exactly everywhere.
 */
export function searchStructuredPropertyCases(index: () => SearchIndex): void {
  describe('structured properties', () => {
    const setup = async () => {
      const ns = uniqueNamespace();
      const retention = definition(ns, 'retentionTime', 'number');
      const policy = definition(ns, 'retentionPolicy', 'string');
      const owner = definition(ns, 'steward', 'urn');
      const notes = definition(ns, 'notes', 'rich_text');
      const deprecation = definition(ns, 'deprecationDate', 'date');
      await index().putStructuredProperties([retention, policy, owner, notes, deprecation]);
      const orders = withValues(datasetDoc(ns, { name: 'orders' }), [
        [retention, [60]],
        [policy, ['30d', 'Archive']],
        [owner, ['urn:li:corpuser:alice']],
        [notes, ['Kept for audits, see the wiki']],
        [deprecation, [day('2020-10-01')]],
      ]);
      const customers = withValues(datasetDoc(ns, { name: 'customers' }), [
        [retention, [365, 42.5]],
        [policy, ['forever']],
        [deprecation, [day('2021-01-05')]],
      ]);
      const events = withValues(datasetDoc(ns, { name: 'events' }), [[retention, [30]]]);
      const plain = datasetDoc(ns, { name: 'plain' });
      await seed(index(), [orders, customers, events, plain]);
      const query = async (filter: Filter) => [...urnsOf(await index().search(datasets({ filter })))].sort();
      const sp = (d: StructuredPropertySearchDefinition) => `structuredProperties.${d.qualifiedName}`;
      return {
        ns,
        retention,
        policy,
        owner,
        notes,
        deprecation,
        orders,
        customers,
        events,
        plain,
        query,
        sp,
      };
    };

    it('filters numbers as numbers: EQUAL, IN, ranges, EXISTS, with either name form', async () => {
      const { retention, orders, customers, events, query, sp } = await setup();
      expect(await query(and(c(sp(retention), 'EQUAL', ['60'])))).toEqual([orders.urn]);
      expect(await query(and(c(sp(retention), 'EQUAL', ['60.0'])))).toEqual([orders.urn]);
      expect(await query(and(c(sp(retention), 'IN', ['30', '42.5'])))).toEqual(
        [customers.urn, events.urn].sort(),
      );
      expect(await query(and(c(sp(retention), 'GREATER_THAN', ['45.0'])))).toEqual(
        [orders.urn, customers.urn].sort(),
      );
      expect(await query(and(c(sp(retention), 'LESS_THAN_OR_EQUAL_TO', ['42.5'])))).toEqual(
        [customers.urn, events.urn].sort(),
      );
      expect(await query(and(c(sp(retention), 'GREATER_THAN_OR_EQUAL_TO', ['100'])))).toEqual([
        customers.urn,
      ]);
      expect(await query(and(c(sp(retention), 'LESS_THAN', ['30'])))).toEqual([]);
      expect(await query(and(c(sp(retention), 'EXISTS')))).toEqual(
        [orders.urn, customers.urn, events.urn].sort(),
      );
      const underscored = `structuredProperties.${retention.qualifiedName.replaceAll('.', '_')}`;
      expect(await query(and(c(underscored, 'EXISTS')))).toEqual(
        [orders.urn, customers.urn, events.urn].sort(),
      );
      expect(await query(and(c(`${sp(retention)}.keyword`, 'EQUAL', ['30'])))).toEqual([events.urn]);
      await expect(
        index().search(datasets({ filter: and(c(sp(retention), 'GREATER_THAN', ['soon'])) })),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
      await expect(
        index().search(datasets({ filter: and(c(sp(retention), 'CONTAIN', ['6'])) })),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
    });

    it('filters strings, urns and rich text exactly, ignoring case only where asked', async () => {
      const { policy, owner, notes, orders, customers, query, sp } = await setup();
      expect(await query(and(c(sp(policy), 'EQUAL', ['30d'])))).toEqual([orders.urn]);
      expect(await query(and(c(sp(policy), 'EQUAL', ['archive'])))).toEqual([]);
      expect(await query(and(c(sp(policy), 'IEQUAL', ['archive'])))).toEqual([orders.urn]);
      expect(await query(and(c(sp(policy), 'IN', ['30d', 'forever'])))).toEqual(
        [orders.urn, customers.urn].sort(),
      );
      expect(await query(and(c(sp(policy), 'START_WITH', ['for'])))).toEqual([customers.urn]);
      expect(await query(and(c(sp(owner), 'EQUAL', ['urn:li:corpuser:alice'])))).toEqual([orders.urn]);
      expect(await query(and(c(sp(notes), 'EQUAL', ['Kept for audits, see the wiki'])))).toEqual([
        orders.urn,
      ]);
      expect(await query(and(c(sp(notes), 'CONTAIN', ['AUDITS'])))).toEqual([orders.urn]);
      expect(await query(and(c(sp(notes), 'EXISTS')))).toEqual([orders.urn]);
      expect(
        await query({
          or: [{ and: [c(sp(policy), 'EQUAL', ['forever'])] }, { and: [c(sp(notes), 'EXISTS')] }],
        }),
      ).toEqual([orders.urn, customers.urn].sort());
    });

    it('compares dates as dates: YYYY-MM-DD or epoch millis', async () => {
      const { deprecation, orders, customers, query, sp } = await setup();
      expect(await query(and(c(sp(deprecation), 'EQUAL', ['2020-10-01'])))).toEqual([orders.urn]);
      expect(await query(and(c(sp(deprecation), 'GREATER_THAN', ['2020-10-01'])))).toEqual([customers.urn]);
      expect(await query(and(c(sp(deprecation), 'LESS_THAN', ['2020-12-31'])))).toEqual([orders.urn]);
      expect(
        await query(
          and(
            c(sp(deprecation), 'GREATER_THAN_OR_EQUAL_TO', ['2020-10-01']),
            c(sp(deprecation), 'LESS_THAN_OR_EQUAL_TO', [String(day('2021-01-05'))]),
          ),
        ),
      ).toEqual([orders.urn, customers.urn].sort());
      expect(await query(and(c(sp(deprecation), 'GREATER_THAN', [String(day('2021-01-05') - DAY)])))).toEqual(
        [customers.urn],
      );
      await expect(
        index().search(datasets({ filter: and(c(sp(deprecation), 'GREATER_THAN', ['2020-13-01'])) })),
      ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('2020-13-01') });
    });

    it('facets print numbers as the ecosystem does (60.0), dates as written, ties by value', async () => {
      const { retention, policy, deprecation, sp } = await setup();
      const res = await index().search(
        datasets({ facets: [sp(retention), `${sp(policy)}.keyword`, sp(deprecation)], count: 0 }),
      );
      expect(countsOf(res, sp(retention))).toEqual({ '60.0': 1, '365.0': 1, '42.5': 1, '30.0': 1 });
      expect(res.aggregations.find((a) => a.field === sp(retention))?.values.map((v) => v.value)).toEqual([
        '30.0',
        '42.5',
        '60.0',
        '365.0',
      ]);
      expect(countsOf(res, sp(policy))).toEqual({ '30d': 1, Archive: 1, forever: 1 });
      expect(countsOf(res, sp(deprecation))).toEqual({ '2020-10-01': 1, '2021-01-05': 1 });
      const limited = await index().search(datasets({ facets: [sp(retention)], maxAggValues: 2, count: 0 }));
      expect(countsOf(limited, sp(retention))).toEqual({ '30.0': 1, '42.5': 1 });
      const filtered = await index().search(
        datasets({ facets: [sp(retention)], filter: and(c(sp(policy), 'EQUAL', ['forever'])), count: 0 }),
      );
      expect(countsOf(filtered, sp(retention))).toEqual({ '365.0': 1, '42.5': 1 });
    });

    it('takes no part in full-text search, but in field:value queries', async () => {
      const { ns, policy, orders, sp } = await setup();
      const unique = `${ns}zz`;
      const doc = withValues(datasetDoc(ns, { name: 'other' }), [[policy, [unique]]]);
      await index().upsert([doc]);
      await index().refresh();
      expect((await index().search(datasets({ input: unique }))).total).toBe(0);
      expect((await index().search(datasets({ input: 'Archive' }))).total).toBe(0);
      expect(urnsOf(await index().search(datasets({ input: `${sp(policy)}:30d` })))).toEqual([orders.urn]);
    });

    it('sorts on a number property, documents without a value last', async () => {
      const { retention, orders, customers, events, plain, sp } = await setup();
      const res = await index().search(datasets({ sort: [{ field: sp(retention), order: 'DESCENDING' }] }));
      expect(urnsOf(res)).toEqual([customers.urn, orders.urn, events.urn, plain.urn]);
    });

    it('filters across entity types, types without values matching nothing', async () => {
      const { ns, retention, orders, customers, events, sp } = await setup();
      await index().upsert([chartDoc(ns, 'c1', { title: 'revenue' })]);
      await index().refresh();
      const res = await index().search({
        entityTypes: ['dataset', 'chart'],
        input: '*',
        start: 0,
        count: 10,
        filter: and(c(sp(retention), 'EXISTS')),
        facets: [sp(retention)],
      });
      expect([...urnsOf(res)].sort()).toEqual([orders.urn, customers.urn, events.urn].sort());
      expect(countsOf(res, sp(retention))['60.0']).toBe(1);
      const charts = await index().search({
        entityTypes: ['chart'],
        input: '*',
        start: 0,
        count: 10,
        filter: and(c(sp(retention), 'EXISTS')),
      });
      expect(charts.total).toBe(0);
    });

    it('refuses filters and facets on a soft-deleted property until it is restored', async () => {
      const { retention, orders, query, sp } = await setup();
      await index().putStructuredProperties([{ ...retention, removed: true }]);
      const denied = {
        code: 'VALIDATION',
        message: `Cannot filter on deleted Structured Property [${retention.urn}]`,
      };
      await expect(
        index().search(datasets({ filter: and(c(sp(retention), 'EQUAL', ['60'])) })),
      ).rejects.toMatchObject(denied);
      await expect(index().search(datasets({ facets: [sp(retention)] }))).rejects.toMatchObject(denied);
      await expect(
        index().browse({
          entityType: 'dataset',
          path: '/',
          start: 0,
          limit: 10,
          filter: and(c(sp(retention), 'EXISTS')),
        }),
      ).rejects.toMatchObject(denied);
      // The values stay indexed: no data is removed by a soft delete.
      expect((await index().search(datasets())).total).toBe(4);
      await index().putStructuredProperties([retention]);
      expect(await query(and(c(sp(retention), 'EQUAL', ['60'])))).toEqual([orders.urn]);
    });

    it('refuses a soft-deleted property however it is named: `_` form, .keyword, negated, field:value, sort, autocomplete', async () => {
      const { retention, policy, sp } = await setup();
      await index().putStructuredProperties([{ ...policy, removed: true }]);
      const denied = {
        code: 'VALIDATION',
        message: `Cannot filter on deleted Structured Property [${policy.urn}]`,
      };
      const underscored = `structuredProperties.${policy.qualifiedName.replace(/\./g, '_')}`;
      const refused = [
        datasets({ filter: and(c(underscored, 'EQUAL', ['30d'])) }),
        datasets({ filter: and(c(`${sp(policy)}.keyword`, 'EQUAL', ['30d'])) }),
        datasets({ filter: and({ ...c(sp(policy), 'EQUAL', ['30d']), negated: true }) }),
        datasets({ filter: and(c(sp(retention), 'EXISTS'), c(sp(policy), 'EXISTS')) }),
        datasets({ input: `${sp(policy)}:30d` }),
        datasets({ sort: [{ field: sp(policy), order: 'ASCENDING' }] }),
        datasets({ facets: [underscored] }),
      ];
      for (const request of refused) await expect(index().search(request)).rejects.toMatchObject(denied);
      await expect(
        index().autocomplete({
          entityType: 'dataset',
          query: 'ord',
          limit: 5,
          filter: and(c(sp(policy), 'EXISTS')),
        }),
      ).rejects.toMatchObject(denied);
    });

    it('refuses an unknown property, naming it, and a property hard-deleted from the view', async () => {
      const { ns, policy, sp } = await setup();
      const unknown = `structuredProperties.io.${ns}.nothing`;
      await expect(index().search(datasets({ filter: and(c(unknown, 'EXISTS')) }))).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining(`io.${ns}.nothing`),
      });
      await expect(index().search(datasets({ facets: [unknown] }))).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining(`io.${ns}.nothing`),
      });
      expect((await index().getStructuredProperties([policy.urn])).get(policy.urn)).toEqual(policy);
      await index().deleteStructuredProperties([policy.urn, `urn:li:structuredProperty:io.${ns}.absent`]);
      expect((await index().getStructuredProperties([policy.urn])).size).toBe(0);
      await expect(index().search(datasets({ filter: and(c(sp(policy), 'EXISTS')) }))).rejects.toMatchObject({
        code: 'VALIDATION',
      });
    });

    it('searches only the active version: a new version re-homes the field and older values leave', async () => {
      const { ns, orders, query } = await setup();
      const v1 = definition(ns, 'tier', 'string');
      await index().putStructuredProperties([v1]);
      const old = withValues(datasetDoc(ns, { name: 'legacy' }), [[v1, ['gold']]]);
      await index().upsert([old]);
      await index().refresh();
      const name = `structuredProperties.${v1.qualifiedName}`;
      expect(await query(and(c(name, 'EQUAL', ['gold'])))).toEqual([old.urn]);

      // Version 2 makes it a number; the indexer rebuilds the documents: the old value leaves search.
      const v2 = { ...v1, valueType: 'number' as const, version: '20240614080000', versionSince: 5_000 };
      await index().putStructuredProperties([v2]);
      const renewed = withValues(orders, [[v2, [3]]]);
      await index().upsert([without(old, structuredPropertyFieldName(v1)), renewed]);
      await index().refresh();
      expect(structuredPropertyFieldName(v2)).toBe(
        `structuredProperties._versioned.io_${ns}_tier.20240614080000.number`,
      );
      expect(await query(and(c(name, 'EXISTS')))).toEqual([orders.urn]);
      expect(await query(and(c(name, 'GREATER_THAN', ['2'])))).toEqual([orders.urn]);
      expect(await query(and(c(structuredPropertyFieldName(v2), 'EQUAL', ['3.0'])))).toEqual([orders.urn]);
      const facets = await index().search(datasets({ facets: [name], count: 0 }));
      expect(countsOf(facets, name)).toEqual({ '3.0': 1 });
      await expect(
        index().search(
          datasets({
            filter: and(c(`structuredProperties._versioned.io_${ns}_tier.20230101000000.string`, 'EXISTS')),
          }),
        ),
      ).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining('not the active version'),
      });
    });

    it('maps values explicitly: values written before their definition are never mapped by guess', async () => {
      const ns = uniqueNamespace();
      const score = definition(ns, 'score', 'number');
      await seed(index(), []);
      // A document whose field has no definition yet (the indexer does not send one; a stale one may be
      // there): a string first must not make the field a keyword (or text) for good.
      const early = datasetDoc(ns, { name: 'early' });
      await index().upsert([
        { ...early, fields: { ...early.fields, [structuredPropertyFieldName(score)]: ['ninety'] } },
      ]);
      await index().refresh();
      await index().putStructuredProperties([score]);
      const late = withValues(datasetDoc(ns, { name: 'late' }), [[score, [90]]]);
      await index().upsert([withValues(early, [[score, [9]]]), late]);
      await index().refresh();
      const sp = `structuredProperties.${score.qualifiedName}`;
      const ranged = await index().search(
        datasets({ filter: and(c(sp, 'GREATER_THAN', ['10'])), facets: [sp] }),
      );
      expect(urnsOf(ranged)).toEqual([late.urn]);
      expect(countsOf(ranged, sp)).toEqual({ '90.0': 1 });
      expect(
        (await index().getDocument('dataset', late.urn))?.fields[structuredPropertyFieldName(score)],
      ).toEqual([90]);
    });

    it('keeps typed mappings when an index is recreated', async () => {
      const { retention, sp } = await setup();
      await index().deleteIndex('dataset');
      await index().ensureIndex(datasetSpec);
      const ns = uniqueNamespace();
      const again = withValues(datasetDoc(ns, { name: 'again' }), [[retention, [7]]]);
      await index().upsert([again]);
      await index().refresh();
      const res = await index().search(
        datasets({ filter: and(c(sp(retention), 'LESS_THAN', ['8'])), facets: [sp(retention)] }),
      );
      expect(urnsOf(res)).toEqual([again.urn]);
      expect(countsOf(res, sp(retention))).toEqual({ '7.0': 1 });
    });

    it('filters long values exactly, up to the 32766-byte term limit', async () => {
      const { ns, policy, sp } = await setup();
      const long = `${ns}${'x'.repeat(32_766 - ns.length)}`;
      const wide = `${'é'.repeat(10_000)}${ns}`;
      const doc = withValues(datasetDoc(ns, { name: 'long' }), [[policy, [long, wide]]]);
      await index().upsert([doc]);
      await index().refresh();
      expect(urnsOf(await index().search(datasets({ filter: and(c(sp(policy), 'EQUAL', [long])) })))).toEqual(
        [doc.urn],
      );
      expect(urnsOf(await index().search(datasets({ filter: and(c(sp(policy), 'EQUAL', [wide])) })))).toEqual(
        [doc.urn],
      );
      expect(
        urnsOf(
          await index().search(datasets({ filter: and(c(sp(policy), 'START_WITH', [long.slice(0, 20)])) })),
        ),
      ).toEqual([doc.urn]);
    });
  });
}
