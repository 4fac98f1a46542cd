import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entityRegistry } from '@catalog/model';
import {
  indexSpecFor,
  openEmbeddedSearch,
  type EmbeddedSearch,
  type SearchRequest,
  type StructuredPropertySearchDefinition,
} from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStructuredPropertyChecks } from './structured-property-filter-check.js';

const QUALIFIED = 'io.check.retention';
const URN = `urn:li:structuredProperty:${QUALIFIED}`;
const ACTIVE: StructuredPropertySearchDefinition = {
  urn: URN,
  qualifiedName: QUALIFIED,
  valueType: 'number',
  removed: false,
};

/** A store holding only this property's aspects (what the check reads). */
function storeWith(aspects: Readonly<Record<string, Readonly<Record<string, unknown>>>>): AspectStore {
  const stored = Object.entries(aspects).map(
    ([aspect, value]) => ({ urn: URN, aspect, version: 0, value }) as unknown as StoredAspect,
  );
  return {
    getLatestMany: async (urns: readonly string[]) =>
      new Map(urns.filter((u) => u === URN && stored.length > 0).map((u) => [u, stored])),
  } as unknown as AspectStore;
}

const request = (field: string): SearchRequest => ({
  entityTypes: ['dataset'],
  input: '*',
  start: 0,
  count: 10,
  filter: { or: [{ and: [{ field, values: [], condition: 'EXISTS' }] }] },
});

/**
 * Spec 3.2 and 7 while the search side's definitions view lags the store (the distributed family's
 * indexer consumes the change log after the write is answered): the store decides.
 */
describe('structured property filters checked against the store', () => {
  let dir: string;
  let opened: EmbeddedSearch;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sp-filter-check-'));
    opened = await openEmbeddedSearch({ file: join(dir, 'search.sqlite') });
    await opened.search.ensureIndex(
      indexSpecFor(entityRegistry.entities().find((e) => e.name === 'dataset')!),
    );
    // The view still holds the property as active.
    await opened.search.putStructuredProperties([ACTIVE]);
  });
  afterEach(async () => {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a filter, facet or sort on a property soft-deleted in the store, in either name form', async () => {
    const index = withStructuredPropertyChecks(
      opened.search,
      storeWith({ propertyDefinition: { qualifiedName: QUALIFIED }, status: { removed: true } }),
    );
    const denied = { code: 'VALIDATION', message: `Cannot filter on deleted Structured Property [${URN}]` };
    for (const field of [`structuredProperties.${QUALIFIED}`, 'structuredProperties.io_check_retention'])
      await expect(index.search(request(field))).rejects.toMatchObject(denied);
    await expect(
      index.search({
        ...request('removed'),
        filter: undefined,
        facets: [`structuredProperties.${QUALIFIED}`],
      }),
    ).rejects.toMatchObject(denied);
    await expect(
      index.browse({
        entityType: 'dataset',
        path: '/',
        start: 0,
        limit: 10,
        filter: request(`structuredProperties.${QUALIFIED}`).filter!,
      }),
    ).rejects.toMatchObject(denied);
    // The unchecked view alone still answers: the check is what refuses.
    await expect(opened.search.search(request(`structuredProperties.${QUALIFIED}`))).resolves.toMatchObject({
      total: 0,
    });
  });

  it('refuses a property hard-deleted in the store as unknown, and answers an active one', async () => {
    const gone = withStructuredPropertyChecks(opened.search, storeWith({}));
    await expect(gone.search(request(`structuredProperties.${QUALIFIED}`))).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining(QUALIFIED),
    });
    const active = withStructuredPropertyChecks(
      opened.search,
      storeWith({ propertyDefinition: { qualifiedName: QUALIFIED }, status: { removed: false } }),
    );
    await expect(active.search(request(`structuredProperties.${QUALIFIED}`))).resolves.toMatchObject({
      total: 0,
    });
    // Other methods pass through to the index.
    expect((await active.getStructuredProperties([URN])).get(URN)).toEqual(ACTIVE);
  });
});
