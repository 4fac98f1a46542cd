import { describe, expect, it } from 'vitest';
import {
  normalizedPropertyName,
  structuredPropertyFieldName,
  type SearchIndex,
  type StructuredPropertySearchDefinition,
} from '@catalog/search';
import { countsOf, datasetDoc, datasets, seed, uniqueNamespace, urnsOf } from './search-index-fixtures.js';
import { and, c, definition, without, withValues } from './search-index-structured-property-fixtures.js';

/** What a cleanup that finds nothing to do reports. */
const NOTHING = { cleanedEntityTypes: [], removedFields: {}, forgotten: [], kept: [] };

/**
 * Hard-deleted structured properties (spec 3.2): retired from the view with their name held while
 * their field mappings remain, their leftovers counted per entity index, and the mapping cleanup that
 * removes a mapping only once no document of that index holds a value in it, then frees the name, so
 * that a property of the same name (of another type) can be made; active definitions are untouched.
 * The contract's entity indices are dataset, chart and dataJob (seed).
 */
export function searchStructuredPropertyCleanupCases(index: () => SearchIndex): void {
  describe('structured property retirement and mapping cleanup', () => {
    const sp = (d: StructuredPropertySearchDefinition) => `structuredProperties.${d.qualifiedName}`;

    it('retires a hard-deleted property: out of the view, its name held in either spelling', async () => {
      const ns = uniqueNamespace();
      const tier = definition(ns, 'tier', 'string');
      const score = definition(ns, 'score', 'number');
      await seed(index(), []);
      await index().putStructuredProperties([tier, score]);
      const doc = withValues(datasetDoc(ns, { name: 'orders' }), [[tier, ['gold']]]);
      await index().upsert([doc]);
      await index().refresh();

      const before = Date.now();
      await index().deleteStructuredProperties([tier.urn, `urn:li:structuredProperty:io.${ns}.absent`]);
      const after = Date.now();
      await index().deleteStructuredProperties([tier.urn]);
      expect([...(await index().getStructuredProperties([tier.urn, score.urn])).keys()]).toEqual([score.urn]);
      await expect(index().search(datasets({ filter: and(c(sp(tier), 'EXISTS')) }))).rejects.toMatchObject({
        code: 'VALIDATION',
      });
      // Retiring rewrites no document.
      expect(await index().getDocument('dataset', doc.urn)).toEqual(doc);

      const name = normalizedPropertyName(tier.qualifiedName);
      expect(normalizedPropertyName(`io_${ns}_tier`)).toBe(name);
      const retired = { urn: tier.urn, qualifiedName: tier.qualifiedName, normalizedName: name };
      expect(await index().structuredPropertyNameHolders([name])).toEqual([{ ...retired, state: 'retired' }]);
      await index().putStructuredProperties([{ ...score, removed: true }]);
      expect(
        await index().structuredPropertyNameHolders([
          normalizedPropertyName(score.qualifiedName),
          name,
          `io_${ns}_nothing`,
        ]),
      ).toEqual([
        {
          urn: score.urn,
          qualifiedName: score.qualifiedName,
          normalizedName: normalizedPropertyName(score.qualifiedName),
          state: 'removed',
        },
        { ...retired, state: 'retired' },
      ]);

      const field = structuredPropertyFieldName(tier);
      const leftovers = await index().leftoverStructuredProperties();
      expect(leftovers).toEqual([
        {
          ...retired,
          retiredAt: expect.any(Number),
          mappedFields: { dataset: { [field]: 1 }, chart: { [field]: 0 }, dataJob: { [field]: 0 } },
        },
      ]);
      expect(leftovers[0]!.retiredAt).toBeGreaterThanOrEqual(before);
      expect(leftovers[0]!.retiredAt).toBeLessThanOrEqual(after);
    });

    it('keeps a mapping while a document holds a value, removes it once none does, then frees the name', async () => {
      const ns = uniqueNamespace();
      const tier = definition(ns, 'tier', 'string');
      const field = structuredPropertyFieldName(tier);
      const name = normalizedPropertyName(tier.qualifiedName);
      await seed(index(), []);
      await index().putStructuredProperties([tier]);
      const doc = withValues(datasetDoc(ns, { name: 'orders' }), [[tier, ['gold']]]);
      await index().upsert([doc]);
      await index().refresh();
      await index().deleteStructuredProperties([tier.urn]);

      const first = await index().cleanupStructuredPropertyMappings();
      expect(first).toEqual({
        cleanedEntityTypes: ['chart', 'dataJob'],
        removedFields: { chart: [field], dataJob: [field] },
        forgotten: [],
        kept: [expect.objectContaining({ urn: tier.urn, mappedFields: { dataset: { [field]: 1 } } })],
      });
      expect((await index().structuredPropertyNameHolders([name])).map((h) => h.state)).toEqual(['retired']);
      expect(await index().getDocument('dataset', doc.urn)).toEqual(doc);

      // The asynchronous value removal: the indexer rebuilds the document without the value.
      const cleared = without(doc, field);
      await index().upsert([cleared]);
      await index().refresh();
      expect((await index().leftoverStructuredProperties())[0]?.mappedFields).toEqual({
        dataset: { [field]: 0 },
      });
      expect(await index().cleanupStructuredPropertyMappings()).toEqual({
        cleanedEntityTypes: ['dataset'],
        removedFields: { dataset: [field] },
        forgotten: [tier.urn],
        kept: [],
      });
      expect(await index().structuredPropertyNameHolders([name])).toEqual([]);
      expect(await index().leftoverStructuredProperties()).toEqual([]);
      expect(await index().cleanupStructuredPropertyMappings()).toEqual(NOTHING);
      expect(await index().getDocument('dataset', doc.urn)).toEqual(cleared);
      expect(urnsOf(await index().search(datasets({ input: 'orders' })))).toEqual([doc.urn]);
    });

    it('lets a property of the same name, of another type, be made after the cleanup', async () => {
      const ns = uniqueNamespace();
      const tier = definition(ns, 'tier', 'string');
      await seed(index(), []);
      await index().putStructuredProperties([tier]);
      const old = withValues(datasetDoc(ns, { name: 'old' }), [[tier, ['gold']]]);
      await index().upsert([old]);
      await index().refresh();
      await index().deleteStructuredProperties([tier.urn]);
      await index().upsert([without(old, structuredPropertyFieldName(tier))]);
      await index().refresh();
      expect((await index().cleanupStructuredPropertyMappings()).forgotten).toEqual([tier.urn]);

      // Its field is the same document field: a leftover keyword mapping would make 42 a term.
      const again = { ...definition(ns, 'tier', 'number'), urn: `urn:li:structuredProperty:${ns}-again` };
      expect(structuredPropertyFieldName(again)).toBe(structuredPropertyFieldName(tier));
      await index().putStructuredProperties([again]);
      const high = withValues(datasetDoc(ns, { name: 'high' }), [[again, [42]]]);
      const low = withValues(datasetDoc(ns, { name: 'low' }), [[again, [7]]]);
      await index().upsert([high, low]);
      await index().refresh();
      const ranged = await index().search(
        datasets({ filter: and(c(sp(again), 'GREATER_THAN', ['10'])), facets: [sp(again)] }),
      );
      expect(urnsOf(ranged)).toEqual([high.urn]);
      expect(countsOf(ranged, sp(again))).toEqual({ '42.0': 1 });
      const sorted = await index().search(datasets({ sort: [{ field: sp(again), order: 'ASCENDING' }] }));
      expect(urnsOf(sorted)).toEqual([low.urn, high.urn, old.urn]);
      expect(
        (await index().structuredPropertyNameHolders([normalizedPropertyName(tier.qualifiedName)])).map(
          (h) => [h.urn, h.state],
        ),
      ).toEqual([[again.urn, 'active']]);
    });

    it('makes a retired urn active again when it is put: its mappings and values are its own', async () => {
      const ns = uniqueNamespace();
      const score = definition(ns, 'score', 'number');
      await seed(index(), []);
      await index().putStructuredProperties([score]);
      const doc = withValues(datasetDoc(ns, { name: 'orders' }), [[score, [5]]]);
      await index().upsert([doc]);
      await index().refresh();
      await index().deleteStructuredProperties([score.urn]);
      expect((await index().leftoverStructuredProperties()).map((l) => l.urn)).toEqual([score.urn]);

      await index().putStructuredProperties([score]);
      expect((await index().getStructuredProperties([score.urn])).get(score.urn)).toEqual(score);
      expect(
        (await index().structuredPropertyNameHolders([normalizedPropertyName(score.qualifiedName)])).map(
          (h) => h.state,
        ),
      ).toEqual(['active']);
      expect(await index().leftoverStructuredProperties()).toEqual([]);
      expect(await index().cleanupStructuredPropertyMappings()).toEqual(NOTHING);
      const found = await index().search(datasets({ filter: and(c(sp(score), 'EQUAL', ['5'])) }));
      expect(urnsOf(found)).toEqual([doc.urn]);
    });

    it('removes only unclaimed mappings: active definitions, their documents and filters stay', async () => {
      const ns = uniqueNamespace();
      const kept = definition(ns, 'kept', 'number');
      const tier = definition(ns, 'tier', 'string');
      const gone = definition(ns, 'gone', 'date');
      await seed(index(), []);
      await index().putStructuredProperties([kept, tier, gone]);
      const a = withValues(datasetDoc(ns, { name: 'a' }), [
        [kept, [3]],
        [tier, ['x']],
      ]);
      const b = withValues(datasetDoc(ns, { name: 'b' }), [[kept, [9]]]);
      await index().upsert([a, b]);
      // A new version re-homes tier's field; the indexer rebuilds its documents.
      const tier2 = { ...tier, valueType: 'number' as const, version: '20240614080000', versionSince: 5_000 };
      await index().putStructuredProperties([tier2]);
      const a2 = withValues(datasetDoc(ns, { name: 'a' }), [
        [kept, [3]],
        [tier2, [1]],
      ]);
      await index().upsert([a2]);
      await index().refresh();
      await index().deleteStructuredProperties([gone.urn]);

      const removed = [structuredPropertyFieldName(gone), structuredPropertyFieldName(tier)].sort();
      expect(await index().cleanupStructuredPropertyMappings()).toEqual({
        cleanedEntityTypes: ['chart', 'dataJob', 'dataset'],
        removedFields: { chart: removed, dataJob: removed, dataset: removed },
        forgotten: [gone.urn],
        kept: [],
      });
      expect(await index().getDocument('dataset', a2.urn)).toEqual(a2);
      expect(await index().getDocument('dataset', b.urn)).toEqual(b);
      const filtered = await index().search(
        datasets({ filter: and(c(sp(kept), 'GREATER_THAN', ['5'])), facets: [sp(kept)] }),
      );
      expect(urnsOf(filtered)).toEqual([b.urn]);
      expect(countsOf(await index().search(datasets({ facets: [sp(kept)] })), sp(kept))).toEqual({
        '3.0': 1,
        '9.0': 1,
      });
      expect(urnsOf(await index().search(datasets({ filter: and(c(sp(tier), 'EQUAL', ['1'])) })))).toEqual([
        a2.urn,
      ]);
      expect(await index().cleanupStructuredPropertyMappings()).toEqual(NOTHING);
      // Writes after the cleanup are indexed with the mappings that stayed.
      const c2 = withValues(datasetDoc(ns, { name: 'c' }), [[kept, [11]]]);
      await index().upsert([c2]);
      await index().refresh();
      const after = await index().search(datasets({ filter: and(c(sp(kept), 'GREATER_THAN', ['5'])) }));
      expect([...urnsOf(after)].sort()).toEqual([b.urn, c2.urn].sort());
    });

    it('keeps the mappings and the record of a retired property the caller names', async () => {
      const ns = uniqueNamespace();
      const tier = definition(ns, 'tier', 'string');
      const field = structuredPropertyFieldName(tier);
      await seed(index(), []);
      await index().putStructuredProperties([tier]);
      await index().deleteStructuredProperties([tier.urn]);
      const everywhere = { dataset: { [field]: 0 }, chart: { [field]: 0 }, dataJob: { [field]: 0 } };
      expect(await index().cleanupStructuredPropertyMappings({ keep: [tier.urn] })).toEqual({
        ...NOTHING,
        kept: [expect.objectContaining({ urn: tier.urn, mappedFields: everywhere })],
      });
      expect(await index().cleanupStructuredPropertyMappings()).toEqual({
        cleanedEntityTypes: ['chart', 'dataJob', 'dataset'],
        removedFields: { chart: [field], dataJob: [field], dataset: [field] },
        forgotten: [tier.urn],
        kept: [],
      });
    });
  });
}
