import { randomBytes } from 'node:crypto';
import { entityRegistry } from '@catalog/model';
import { isSkipped, opensearchForTests } from '@catalog/testkit';
import { Client, type Types } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument } from '../port.js';
import { BulkWriteError } from './bulk-writer.js';
import { entityIndexMappings, entityIndexSettings } from './entity-mappings.js';
import { META_FIELD } from './field-paths.js';
import { openOpenSearch, type OpenSearchAdapters } from './open-opensearch.js';

const found = await opensearchForTests();
const skip = isSkipped(found) ? found.skip : undefined;
if (skip) console.warn(`[opensearch-lifecycle.int] skipped: ${skip}`);

const datasetSpec = indexSpecFor(entityRegistry.requireEntity('dataset'));
const prefix = `it_lc_${randomBytes(4).toString('hex')}`;

function dataset(
  name: string,
  extra: Record<string, string | number | boolean | string[]> = {},
): EntityDocument {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
  return {
    urn,
    entityType: 'dataset',
    fields: { urn, _entityType: 'dataset', removed: false, name, ...extra },
  };
}

describe.skipIf(skip !== undefined)(`OpenSearch index lifecycle${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let raw: Client;
  let adapters: OpenSearchAdapters;
  const alias = `${prefix}_datasetindex_v2`;
  const concreteOf = async (name: string): Promise<string[]> => {
    const response = await raw.indices.get({ index: name }, { ignore: [404] });
    return response.statusCode === 404 ? [] : Object.keys(response.body as object);
  };

  beforeAll(async () => {
    if (isSkipped(found)) return;
    raw = new Client({ node: found.node });
    adapters = await openOpenSearch({ node: found.node, indexPrefix: prefix, replicas: 0 });
  });
  afterAll(async () => {
    await adapters?.close();
    await raw?.indices.delete({ index: `${prefix}_*` }, { ignore: [404] });
    await raw?.close();
  });

  it('creates the entity index behind an alias, with mappings derived from the spec', async () => {
    await adapters.search.ensureIndex(datasetSpec);
    const aliases = await raw.indices.getAlias({ name: alias });
    const concrete = Object.keys(aliases.body as object);
    expect(concrete).toHaveLength(1);
    expect(concrete[0]).toMatch(new RegExp(`^${alias}_[0-9a-f]{12}$`));
    const mapping = await raw.indices.getMapping({ index: alias });
    const mappings = (
      mapping.body as Record<string, { mappings: { properties: Record<string, unknown>; _meta: unknown } }>
    )[concrete[0]!]!.mappings;
    expect(mappings.properties['name']).toMatchObject({
      type: 'text',
      fields: { keyword: { type: 'keyword' }, lowercase: { type: 'keyword' }, ngram: { type: 'text' } },
    });
    expect(mappings.properties['platform']).toMatchObject({
      type: 'keyword',
      fields: { text: { type: 'text' } },
    });
    expect(mappings.properties['removed']).toMatchObject({ type: 'boolean' });
    expect(mappings.properties['createdAt']).toMatchObject({ type: 'date' });
    expect(mappings.properties['browsePaths']).toMatchObject({
      type: 'keyword',
      fields: { hierarchy: { type: 'text' } },
    });
    expect(mappings.properties['_entityName']).toBeUndefined();
    expect(mappings._meta).toMatchObject({ catalog: { spec: { entityType: 'dataset' } } });
  });

  it('ensures idempotently and adds new fields to the same concrete index', async () => {
    const before = await concreteOf(alias);
    await adapters.search.ensureIndex(datasetSpec);
    expect(await concreteOf(alias)).toEqual(before);
    const extended = {
      ...datasetSpec,
      fields: [...datasetSpec.fields, { name: 'rowCount', type: 'COUNT' as const }],
    };
    await adapters.search.ensureIndex(extended);
    expect(await concreteOf(alias)).toEqual(before);
    const mapping = await raw.indices.getMapping({ index: alias });
    expect(JSON.stringify(mapping.body)).toContain('"rowCount":{"type":"long"}');
  });

  it('reads the spec back from the index in a process that never ensured it', async () => {
    const reader = await openOpenSearch({ node: (found as { node: string }).node, indexPrefix: prefix });
    try {
      await adapters.search.upsert([dataset('spec_reader', { description: 'written by the first process' })]);
      await adapters.search.refresh();
      const result = await reader.search.search({
        entityTypes: ['dataset'],
        input: 'first process',
        start: 0,
        count: 5,
      });
      expect(result.hits.map((h) => h.urn)).toEqual([dataset('spec_reader').urn]);
    } finally {
      await reader.close();
    }
  });

  it('upserts and deletes in bulk and gets documents by id, long URNs included', async () => {
    const long = dataset(`long_${'x'.repeat(600)}`);
    const docs = [dataset('bulk_a', { tags: ['urn:li:tag:a'] }), dataset('bulk_b'), long];
    await adapters.search.upsert(docs);
    expect(await adapters.search.getDocument('dataset', docs[0]!.urn)).toEqual(docs[0]);
    expect(await adapters.search.getDocument('dataset', long.urn)).toEqual(long);
    await adapters.search.delete([
      { entityType: 'dataset', urn: docs[1]!.urn },
      { entityType: 'dataset', urn: dataset('never_written').urn },
      { entityType: 'chart', urn: 'urn:li:chart:(looker,none)' },
    ]);
    expect(await adapters.search.getDocument('dataset', docs[1]!.urn)).toBeNull();
    expect(await concreteOf(`${prefix}_chartindex_v2`)).toEqual([]);
  });

  it('throws with the item details when a bulk item fails', async () => {
    const bad = dataset('bad_date', { createdAt: 'not a date' });
    const error: unknown = await adapters.search.upsert([dataset('fine'), bad]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BulkWriteError);
    expect((error as BulkWriteError).failures).toHaveLength(1);
    expect((error as BulkWriteError).message).toMatch(/createdAt|mapper_parsing_exception|date/);
    expect(await adapters.search.getDocument('dataset', dataset('fine').urn)).not.toBeNull();
  });

  it('makes writes visible at once with the wait_for refresh policy', async () => {
    const waiting = await openOpenSearch({
      node: (found as { node: string }).node,
      indexPrefix: prefix,
      refresh: 'wait_for',
    });
    try {
      const doc = dataset('visible_now', { description: 'zqvisible' });
      await waiting.search.upsert([doc]);
      const result = await waiting.search.search({
        entityTypes: ['dataset'],
        input: 'zqvisible',
        start: 0,
        count: 5,
      });
      expect(result.hits.map((h) => h.urn)).toEqual([doc.urn]);
    } finally {
      await waiting.close();
    }
  });

  it('sorts an index made before the sort aliases, and adds them on ensureIndex without a reindex', async () => {
    const old = `${prefix}_old`;
    const oldAlias = `${old}_datasetindex_v2`;
    const mappings = entityIndexMappings(datasetSpec);
    const meta = mappings.properties![META_FIELD] as Types.Common_Mapping.ObjectProperty;
    const withoutSort = Object.fromEntries(
      Object.entries(meta.properties ?? {}).filter(([k]) => k !== 'sort'),
    );
    await raw.indices.create({
      index: `${oldAlias}_before`,
      body: {
        settings: entityIndexSettings({ shards: 1, replicas: 0 }),
        mappings: {
          ...mappings,
          properties: { ...mappings.properties, [META_FIELD]: { ...meta, properties: withoutSort } },
        },
        aliases: { [oldAlias]: { is_write_index: true } },
      },
    });
    const node = (found as { node: string }).node;
    const sortedNames = async () => {
      const reader = await openOpenSearch({ node, indexPrefix: old });
      try {
        const result = await reader.search.search({
          entityTypes: ['dataset'],
          input: '*',
          start: 0,
          count: 10,
          sort: [{ field: '_entityName', order: 'DESCENDING' }],
          searchAfter: '',
        });
        return result.hits.map((h) => h.sortValues);
      } finally {
        await reader.close();
      }
    };
    const writer = await openOpenSearch({ node, indexPrefix: old, refresh: 'wait_for' });
    try {
      const docs = [dataset('old_b'), dataset('old_c'), dataset('old_a')];
      await writer.search.upsert(docs);
      const expected = ['old_c', 'old_b', 'old_a'].map((n) => [n, dataset(n).urn]);
      expect(await sortedNames()).toEqual(expected);
      await writer.search.ensureIndex(datasetSpec);
      expect(await concreteOf(oldAlias)).toEqual([`${oldAlias}_before`]);
      const mapping = JSON.stringify((await raw.indices.getMapping({ index: oldAlias })).body);
      expect(mapping).toContain('"_entityName":{"type":"alias","path":"name.keyword"}');
      expect(await sortedNames()).toEqual(expected);
    } finally {
      await writer.close();
      await raw.indices.delete({ index: `${old}_*` }, { ignore: [404] });
    }
  });

  it('maps structured property fields explicitly in the entity indices, and indexes a refused document without them', async () => {
    await adapters.search.ensureIndex(datasetSpec);
    const score = {
      urn: 'urn:li:structuredProperty:io.lc.score',
      qualifiedName: 'io.lc.score',
      valueType: 'number' as const,
      removed: false,
    };
    await adapters.search.putStructuredProperties([score]);
    const mapping = (await raw.indices.getMapping({ index: alias })).body as Record<
      string,
      {
        mappings: { properties: Record<string, { dynamic?: unknown; properties?: Record<string, unknown> }> };
      }
    >;
    const structured = Object.values(mapping)[0]!.mappings.properties['structuredProperties'];
    expect(String(structured?.dynamic)).toBe('false');
    expect(structured?.properties?.['io_lc_score']).toEqual({ type: 'double' });

    // A value the mapping cannot take (here: text in a number field) must not fail the write forever.
    const refused = dataset('refused', {
      'structuredProperties.io_lc_score': 'many',
      owners: 'urn:li:corpuser:x',
    });
    await adapters.search.upsert([refused, dataset('accepted', { 'structuredProperties.io_lc_score': 3 })]);
    const stored = await adapters.search.getDocument('dataset', refused.urn);
    expect(stored?.fields['owners']).toBe('urn:li:corpuser:x');
    expect(stored?.fields['structuredProperties.io_lc_score']).toBeUndefined();
    await adapters.search.deleteIndex('dataset');
  });

  it('names graph and time-series indices with the prefix, and drops indices', async () => {
    await adapters.graph.ensure();
    await adapters.timeseries.ensure('dataset', 'datasetProfile');
    expect(await concreteOf(`${prefix}_graph_service_v1`)).toHaveLength(1);
    expect(await concreteOf(`${prefix}_dataset_datasetprofileaspect_v1`)).toHaveLength(1);
    await adapters.search.deleteIndex('dataset');
    expect(await concreteOf(alias)).toEqual([]);
    await adapters.search.deleteIndex('dataset');
  });
});
