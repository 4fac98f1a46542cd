import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  datasetUrn,
  ingest,
  proposal,
  readAllVersions,
  startTestCatalog,
  type TestCatalog,
} from './harness.js';

let catalog: TestCatalog;

beforeAll(async () => {
  // Every version is counted: the history is kept whole (by default the ecosystem's retention keeps 20).
  catalog = await startTestCatalog({ ENTITY_SERVICE_ENABLE_RETENTION: 'false' });
});
afterAll(async () => catalog.dispose());

it('fifty concurrent writes to one aspect give exactly fifty versions, none lost, none doubled', async () => {
  const urn = datasetUrn('db.contended');
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      ingest(catalog.baseUrl, proposal(urn, 'datasetProperties', { description: `value ${i}` })),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
  const versions = await readAllVersions(
    catalog.baseUrl,
    urn,
    'datasetProperties',
    'com.linkedin.dataset.DatasetProperties',
  );
  expect(versions).toHaveLength(50);
  const descriptions = versions.map((v) => (v as { description: string }).description).sort();
  expect(descriptions).toEqual(Array.from({ length: 50 }, (_, i) => `value ${i}`).sort());
});
