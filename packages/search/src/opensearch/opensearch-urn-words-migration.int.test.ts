import { randomBytes } from 'node:crypto';
import { entityRegistry } from '@catalog/model';
import { isSkipped, opensearchForTests } from '@catalog/testkit';
import { Client } from '@opensearch-project/opensearch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument, EntityIndexSpec } from '../port.js';
import { PENDING_SUBFIELDS_META } from './added-subfields.js';
import { entityIndexMappings, entityIndexSettings, WORD_ANALYZER } from './entity-mappings.js';
import { openOpenSearch, type OpenSearchAdapters } from './open-opensearch.js';

const found = await opensearchForTests();
const skip = isSkipped(found) ? found.skip : undefined;
if (skip) console.warn(`[opensearch-urn-words-migration.int] skipped: ${skip}`);

const datasetSpec = indexSpecFor(entityRegistry.requireEntity('dataset'));
/** The dataset spec as indices were made before the urn was searched by its words. */
const previousSpec: EntityIndexSpec = {
  ...datasetSpec,
  fields: datasetSpec.fields.map((f) => (f.name === 'urn' ? { name: 'urn', type: 'KEYWORD' } : f)),
};

/** The previous index: `urn` a keyword whose `text` subfield had the plain word analyzer. */
function previousMappings(): Record<string, unknown> {
  const mappings = entityIndexMappings(previousSpec) as unknown as { properties: Record<string, unknown> };
  mappings.properties['urn'] = {
    type: 'keyword',
    ignore_above: 8191,
    fields: {
      lowercase: { type: 'keyword', ignore_above: 8191, normalizer: 'catalog_lowercase' },
      text: { type: 'text', analyzer: WORD_ANALYZER },
    },
  };
  return mappings;
}

/** A dataset known only by its urn (its name words are not in it). */
function runOnly(ns: string, run: string): EntityDocument {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${ns}.pipeline-run-${run},PROD)`;
  return { urn, entityType: 'dataset', fields: { urn, _entityType: 'dataset', removed: false } };
}

describe.skipIf(skip !== undefined)(
  `OpenSearch indices made before urn words${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let raw: Client;
    let adapters: OpenSearchAdapters;
    let prefix: string;
    let alias: string;
    const concrete = `previous`;

    beforeEach(async () => {
      if (isSkipped(found)) return;
      prefix = `it_uw_${randomBytes(4).toString('hex')}`;
      alias = `${prefix}_datasetindex_v2`;
      raw = new Client({ node: found.node });
      await raw.indices.create({
        index: `${alias}_${concrete}`,
        body: {
          settings: entityIndexSettings({ shards: 1, replicas: 0 }),
          mappings: previousMappings(),
          aliases: { [alias]: { is_write_index: true } },
        } as never,
      });
      adapters = await openOpenSearch({ node: found.node, indexPrefix: prefix, replicas: 0 });
    });
    afterEach(async () => {
      await adapters?.close();
      await raw?.indices.delete({ index: `${prefix}_*` }, { ignore: [404] });
      await raw?.close();
    });

    const searchRun = async (run: string) =>
      (
        await adapters.search.search({ entityTypes: ['dataset'], input: `run-${run}`, start: 0, count: 10 })
      ).hits.map((h) => h.urn);
    const metaOf = async (): Promise<Record<string, unknown>> => {
      const body = (await raw.indices.getMapping({ index: alias })).body as Record<
        string,
        { mappings: { _meta: Record<string, unknown> } }
      >;
      return Object.values(body)[0]!.mappings._meta;
    };

    it('ensuring the index adds the urn words in place and indexes them for the documents already there', async () => {
      const ns = `zq${randomBytes(4).toString('hex')}`;
      const docs = [runOnly(ns, '4821'), runOnly(ns, '4822')];
      await adapters.search.upsert(docs);
      await adapters.search.refresh();
      expect(await searchRun('4821')).toEqual([]);

      await adapters.search.ensureIndex(datasetSpec);
      expect(await searchRun('4821')).toEqual([docs[0]!.urn]);
      expect(await searchRun('4822')).toEqual([docs[1]!.urn]);
      // The same index behind the alias (no rebuild), its spec updated and no backfill left pending.
      expect(Object.keys((await raw.indices.get({ index: alias })).body as object)).toEqual([
        `${alias}_${concrete}`,
      ]);
      expect((await metaOf())[PENDING_SUBFIELDS_META]).toBeUndefined();
      // Documents written from now on have them too; ensuring again changes nothing.
      const later = runOnly(ns, '4823');
      await adapters.search.upsert([later]);
      await adapters.search.ensureIndex(datasetSpec);
      await adapters.search.refresh();
      expect(await searchRun('4823')).toEqual([later.urn]);
    });

    it('finishes a backfill a stopped process left pending', async () => {
      const ns = `zq${randomBytes(4).toString('hex')}`;
      const doc = runOnly(ns, '5100');
      await adapters.search.upsert([doc]);
      await adapters.search.refresh();
      // The mapping update went through, the backfill did not.
      const wanted = entityIndexMappings(datasetSpec) as unknown as {
        properties: Record<string, unknown>;
        _meta: Record<string, unknown>;
      };
      await raw.indices.putMapping({
        index: alias,
        body: {
          properties: { urn: wanted.properties['urn'] },
          _meta: { ...wanted._meta, [PENDING_SUBFIELDS_META]: ['urn.delimited'] },
        } as never,
      });

      await adapters.search.ensureIndex(datasetSpec);
      expect(await searchRun('5100')).toEqual([doc.urn]);
      expect((await metaOf())[PENDING_SUBFIELDS_META]).toBeUndefined();
    });
  },
);
