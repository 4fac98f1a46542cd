import { randomBytes } from 'node:crypto';
import { entityRegistry } from '@catalog/model';
import { isSkipped, opensearchForTests } from '@catalog/testkit';
import { Client } from '@opensearch-project/opensearch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument } from '../port.js';
import { structuredPropertyFieldName } from '../structured-property-fields.js';
import { AliasedIndices } from './aliased-index.js';
import { BulkWriteError } from './bulk-writer.js';
import { silentOpenSearchLogger } from './logger.js';
import { openOpenSearch, type OpenSearchAdapters } from './open-opensearch.js';

const found = await opensearchForTests();
const skip = isSkipped(found) ? found.skip : undefined;
if (skip) console.warn(`[opensearch-index-rebuild.int] skipped: ${skip}`);

const datasetSpec = indexSpecFor(entityRegistry.requireEntity('dataset'));

function dataset(
  key: string,
  fields: Record<string, string | number | boolean | string[]> = {},
): EntityDocument {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${key},PROD)`;
  return {
    urn,
    entityType: 'dataset',
    fields: { urn, _entityType: 'dataset', removed: false, name: key, ...fields },
  };
}

/** Whether a failure is the write block of an index being rebuilt (the caller retries those). */
function refusedByBlock(error: unknown): boolean {
  return error instanceof BulkWriteError && error.failures.every((f) => f.status === 403);
}

describe.skipIf(skip !== undefined)(`OpenSearch index rebuild${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let raw: Client;
  let adapters: OpenSearchAdapters;
  let prefix: string;
  let alias: string;
  const concreteOf = async (name: string): Promise<string[]> => {
    const response = await raw.indices.get({ index: name }, { ignore: [404] });
    return response.statusCode === 404 ? [] : Object.keys(response.body as object);
  };

  beforeEach(async () => {
    if (isSkipped(found)) return;
    prefix = `it_rb_${randomBytes(4).toString('hex')}`;
    alias = `${prefix}_datasetindex_v2`;
    raw = new Client({ node: found.node });
    adapters = await openOpenSearch({ node: found.node, indexPrefix: prefix, replicas: 0 });
    await adapters.search.ensureIndex(datasetSpec);
  });
  afterEach(async () => {
    await adapters?.close();
    await raw?.indices.delete({ index: `${prefix}_*` }, { ignore: [404] });
    await raw?.close();
  });

  it('removes a leftover field from the real mapping, behind the same alias, and drops the old index', async () => {
    const tier = {
      urn: `urn:li:structuredProperty:io.${prefix}.tier`,
      qualifiedName: `io.${prefix}.tier`,
      valueType: 'string' as const,
      removed: false,
    };
    const field = structuredPropertyFieldName(tier);
    await adapters.search.putStructuredProperties([tier]);
    const [before] = await concreteOf(alias);
    const mappingText = async () => JSON.stringify((await raw.indices.getMapping({ index: alias })).body);
    expect(await mappingText()).toContain(`"${field.split('.')[1]}"`);
    await adapters.search.upsert([dataset('kept', { description: 'stays' })]);
    await adapters.search.deleteStructuredProperties([tier.urn]);

    const report = await adapters.search.cleanupStructuredPropertyMappings();
    expect(report.removedFields).toEqual({ dataset: [field] });
    const [after] = await concreteOf(alias);
    expect(after).not.toBe(before);
    expect(await concreteOf(before!)).toEqual([]);
    expect(await mappingText()).not.toContain(`"${field.split('.')[1]}"`);
    const settings = JSON.stringify((await raw.indices.getSettings({ index: after! })).body);
    expect(settings).not.toContain('"blocks"');
    expect(await adapters.search.getDocument('dataset', dataset('kept').urn)).toEqual(
      dataset('kept', { description: 'stays' }),
    );
  });

  it('loses no write made through the alias while it rebuilds: refused ones land once retried', async () => {
    const base = Array.from({ length: 3_000 }, (_, i) => dataset(`base${i}`, { description: `row ${i}` }));
    await adapters.search.upsert(base);
    await adapters.search.refresh();
    const expected = new Map<string, EntityDocument | null>(base.map((d) => [d.urn, d]));
    const [index] = await concreteOf(alias);
    const indices = new AliasedIndices(raw, silentOpenSearchLogger);
    let done = false;
    let during = 0;
    let refused = 0;
    const rebuilding = indices
      .rebuild({ alias, index: index!, mappings: (current) => current })
      .finally(() => (done = true));
    // A writer that retries what the block refuses, as the indexer's redelivered batches do.
    const writer = (async () => {
      for (let i = 0; !done || i < during + 20; i++) {
        if (!done) during = i + 1;
        // Documents there before the rebuild are changed and deleted, others made and remade.
        const key = i % 7 === 3 || i % 7 === 5 ? `base${i}` : `hot${i % 150}`;
        const op =
          i % 7 === 3 || i % 11 === 4
            ? { kind: 'delete' as const, urn: dataset(key).urn }
            : { kind: 'upsert' as const, doc: dataset(key, { description: `version ${i}` }) };
        for (;;) {
          try {
            if (op.kind === 'delete') await adapters.search.delete([{ entityType: 'dataset', urn: op.urn }]);
            else await adapters.search.upsert([op.doc]);
            break;
          } catch (error) {
            if (!refusedByBlock(error)) throw error;
            refused++;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        if (op.kind === 'delete') expected.set(op.urn, null);
        else expected.set(op.doc.urn, op.doc);
      }
    })();
    const [outcome] = await Promise.all([rebuilding, writer]);
    expect(outcome.rebuilt).toBe(true);
    expect(during).toBeGreaterThan(0);
    expect(await concreteOf(alias)).toEqual([outcome.index]);
    await adapters.search.refresh();
    for (const [urn, doc] of expected) expect(await adapters.search.getDocument('dataset', urn)).toEqual(doc);
    const live = [...expected.values()].filter((d) => d !== null).length;
    const total = await adapters.search.search({ entityTypes: ['dataset'], input: '*', start: 0, count: 0 });
    expect(total.total).toBe(live);
    console.info(
      `[opensearch-index-rebuild.int] ${during} writes during the rebuild, ${refused} refused once`,
    );
  });

  it('leaves the index as it was when the check under the write block says no', async () => {
    const [index] = await concreteOf(alias);
    const indices = new AliasedIndices(raw, silentOpenSearchLogger);
    let blockedWrite: unknown;
    const outcome = await indices.rebuild({
      alias,
      index: index!,
      mappings: (current) => current,
      confirm: async () => {
        blockedWrite = await adapters.search.upsert([dataset('blocked')]).then(
          () => undefined,
          (error: unknown) => error,
        );
        return false;
      },
    });
    expect(outcome).toEqual({ rebuilt: false, index });
    expect(refusedByBlock(blockedWrite)).toBe(true);
    expect(await concreteOf(`${alias}_*`)).toEqual([index]);
    await adapters.search.upsert([dataset('after')]);
    expect(await adapters.search.getDocument('dataset', dataset('after').urn)).toEqual(dataset('after'));
  });

  it('lifts the write block an interrupted rebuild left, then rebuilds', async () => {
    const [index] = await concreteOf(alias);
    await adapters.search.upsert([dataset('before')]);
    await raw.indices.putSettings({ index: index!, body: { index: { blocks: { write: true } } } });
    const indices = new AliasedIndices(raw, silentOpenSearchLogger);
    const outcome = await indices.rebuild({ alias, index: index!, mappings: (current) => current });
    expect(outcome.rebuilt).toBe(true);
    await adapters.search.upsert([dataset('after')]);
    await adapters.search.refresh();
    expect(await adapters.search.getDocument('dataset', dataset('before').urn)).toEqual(dataset('before'));
    expect(await adapters.search.getDocument('dataset', dataset('after').urn)).toEqual(dataset('after'));
  });
});
