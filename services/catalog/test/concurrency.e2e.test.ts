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
  catalog = await startTestCatalog();
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
