import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openEmbeddedSearch,
  type EmbeddedSearch,
  type SearchIndex,
  type StructuredPropertySearchDefinition,
} from '@catalog/search';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureReadModels } from './ensure-read-models.js';
import { EntityProjector } from './entity-projector.js';

const ACTOR = 'urn:li:corpuser:tester';
const score = 'urn:li:structuredProperty:io.p.score';
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,p.${name},PROD)`;
const definition = (extra: Record<string, unknown> = {}) => ({
  qualifiedName: 'io.p.score',
  valueType: 'urn:li:dataType:datahub.number',
  entityTypes: ['urn:li:entityType:datahub.dataset'],
  ...extra,
});
const values = (n: number) => ({ properties: [{ propertyUrn: score, values: [{ double: n }] }] });

describe('EntityProjector and the structured property definitions view', () => {
  let dir: string;
  let store: AspectStore;
  let models: EmbeddedSearch;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'projector-'));
    store = await openSqliteAspectStore({ file: join(dir, 'aspects.db') });
    models = await openEmbeddedSearch({ file: join(dir, 'search.db') });
    await ensureReadModels(models);
  });
  afterEach(async () => {
    await models.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (urn: string, aspect: string, value: Record<string, unknown>, time: number) =>
    store.applyBatch([
      { requestId: randomUUID(), mode: 'UPSERT', urn, aspect, value, created: { time, actor: ACTOR } },
    ]);
  const fields = async (urn: string) => (await models.search.getDocument('dataset', urn))?.fields ?? {};

  it('learns a definition from the store and then fixes documents indexed before it existed', async () => {
    const projector = new EntityProjector(store, models.search, models.graph);
    await write(dataset('early'), 'structuredProperties', values(1), 1_000);
    await projector.project([{ urn: dataset('early') }]);
    expect(await fields(dataset('early'))).not.toHaveProperty(['structuredProperties.io_p_score']);

    // The definition is stored but its own change log not consumed yet; another entity's values are.
    await write(score, 'propertyDefinition', definition(), 2_000);
    await write(dataset('late'), 'structuredProperties', values(2), 3_000);
    await projector.project([{ urn: dataset('late') }]);
    expect((await fields(dataset('late')))['structuredProperties.io_p_score']).toEqual([2]);
    expect((await fields(dataset('early')))['structuredProperties.io_p_score']).toEqual([1]);
    expect((await models.search.getStructuredProperties([score])).get(score)).toMatchObject({
      valueType: 'number',
    });
  });

  it('rebuilds a document built with a definition that changed while it was written', async () => {
    await write(score, 'propertyDefinition', definition(), 1_000);
    await write(dataset('racing'), 'structuredProperties', values(3), 5_000);
    // Another indexer moves the view to a new version just after this one read it, and its own
    // rebuild ran before this document was written (it did not find it).
    const v2: StructuredPropertySearchDefinition = {
      urn: score,
      qualifiedName: 'io.p.score',
      valueType: 'number',
      version: '20240614080000',
      versionSince: 4_000,
      removed: false,
    };
    let moved = false;
    const racing: SearchIndex = Object.create(models.search) as SearchIndex;
    racing.upsert = async (documents) => {
      await models.search.upsert(documents);
      if (!moved) {
        moved = true;
        await models.search.putStructuredProperties([v2]);
      }
    };
    await new EntityProjector(store, models.search, models.graph).project([{ urn: score }]);
    const projector = new EntityProjector(store, racing, models.graph);
    await projector.project([{ urn: dataset('racing') }]);
    const doc = await fields(dataset('racing'));
    expect(doc['structuredProperties._versioned.io_p_score.20240614080000.number']).toEqual([3]);
    expect(doc).not.toHaveProperty(['structuredProperties.io_p_score']);
  });

  it('keeps values assigned before a new version out, whatever the order they are projected in', async () => {
    await write(score, 'propertyDefinition', definition(), 1_000);
    await write(dataset('old'), 'structuredProperties', values(1), 2_000);
    await write(
      score,
      'propertyDefinition',
      definition({ version: '20240614080000', description: 'v2' }),
      3_000,
    );
    await write(
      score,
      'propertyDefinition',
      definition({ version: '20240614080000', description: 'v2, edited' }),
      4_000,
    );
    await write(dataset('new'), 'structuredProperties', values(2), 3_500);
    const field = 'structuredProperties._versioned.io_p_score.20240614080000.number';
    for (const order of [
      [dataset('old'), dataset('new'), score],
      [score, dataset('new'), dataset('old')],
    ]) {
      await models.search.deleteStructuredProperties([score]);
      const projector = new EntityProjector(store, models.search, models.graph);
      for (const urn of order) await projector.project([{ urn }]);
      expect((await models.search.getStructuredProperties([score])).get(score)?.versionSince).toBe(3_000);
      expect((await fields(dataset('old')))[field]).toBeUndefined();
      expect((await fields(dataset('new')))[field]).toEqual([2]);
    }
  });
});
