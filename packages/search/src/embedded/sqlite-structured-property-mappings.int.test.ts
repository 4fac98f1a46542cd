import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { entityRegistry } from '@catalog/model';
import { datasetDoc, datasetSpec, uniqueNamespace } from '@catalog/testkit';
import { indexSpecFor } from '../index-spec-for.js';
import { structuredPropertyFieldName } from '../structured-property-fields.js';
import { openEmbeddedSearch } from './open-embedded-search.js';

const chartSpec = indexSpecFor(entityRegistry.requireEntity('chart'));
let dir: string | undefined;

afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('structured property mappings of a file made before they were kept', () => {
  it('are filled on open from the view and from the values documents hold', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sp-mappings-'));
    const file = join(dir, 'search.sqlite');
    const ns = uniqueNamespace();
    const tier = {
      urn: `urn:li:structuredProperty:io.${ns}.tier`,
      qualifiedName: `io.${ns}.tier`,
      valueType: 'string' as const,
      removed: false,
    };
    const old = { ...tier, urn: `urn:li:structuredProperty:io.${ns}.old`, qualifiedName: `io.${ns}.old` };
    const first = await openEmbeddedSearch({ file });
    await first.search.ensureIndex(datasetSpec);
    await first.search.ensureIndex(chartSpec);
    await first.search.putStructuredProperties([tier, old]);
    const doc = datasetDoc(ns, { name: 'orders' });
    await first.search.upsert([
      { ...doc, fields: { ...doc.fields, [structuredPropertyFieldName(old)]: ['kept'] } },
    ]);
    await first.close();

    // What an older version left: no mapping bookkeeping, and `old` hard-deleted from the view.
    const raw = new Database(file);
    raw.exec('DROP TABLE structured_property_mappings');
    raw.prepare('DELETE FROM structured_properties WHERE urn = ?').run(old.urn);
    raw.close();

    const reopened = await openEmbeddedSearch({ file });
    try {
      await reopened.search.deleteStructuredProperties([tier.urn]);
      const tierField = structuredPropertyFieldName(tier);
      const oldField = structuredPropertyFieldName(old);
      expect(await reopened.search.leftoverStructuredProperties()).toEqual([
        expect.objectContaining({
          urn: tier.urn,
          mappedFields: { chart: { [tierField]: 0 }, dataset: { [tierField]: 0 } },
        }),
      ]);
      // The value of a property deleted before retirement was kept: its mapping stays while it is held.
      const report = await reopened.search.cleanupStructuredPropertyMappings();
      expect(report.removedFields).toEqual({ chart: [tierField], dataset: [tierField] });
      expect(report.forgotten).toEqual([tier.urn]);
      await reopened.search.upsert([doc]);
      expect((await reopened.search.cleanupStructuredPropertyMappings()).removedFields).toEqual({
        dataset: [oldField],
      });
    } finally {
      await reopened.close();
    }
  });
});
