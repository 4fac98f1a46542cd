import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  post,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

let catalog: TestCatalog;
let base: string;
const LIMIT = 4096;

beforeAll(async () => {
  catalog = await startTestCatalog({ MAX_RESPONSE_BYTES: String(LIMIT) });
  base = catalog.baseUrl;
});
afterAll(async () => catalog?.dispose());

describe('the response size limit of the Rest.li and OpenAPI routes', () => {
  const urns = Array.from({ length: 20 }, (_, i) => datasetUrn(`size_limit.table_${i}`));

  beforeAll(async () => {
    const written = await post(base, '/aspects?action=ingestProposalBatch', {
      proposals: urns.map((urn) =>
        proposal(urn, 'datasetProperties', { description: 'x'.repeat(400), customProperties: {} }),
      ),
      async: 'false',
    });
    expect(written.status, written.text).toBe(200);
  });

  it('a batch read that would answer more than MAX_RESPONSE_BYTES gets 400 naming the limit, not the page', async () => {
    const ids = `List(${urns.map(enc).join(',')})`;
    const read = await get(base, `/entitiesV2?ids=${ids}&aspects=List(datasetProperties)`);
    expect(read.status, read.text).toBe(400);
    expect(read.text).toContain('MAX_RESPONSE_BYTES');
    expect(read.text).not.toContain('x'.repeat(400));
    // The list is the search index's: once it has the datasets (a loaded machine indexes later), the page
    // is over the limit.
    const openapi = await waitUntil(
      () => get(base, `/openapi/v3/entity/dataset?count=20&aspects=datasetProperties`),
      (res) => res.status !== 200 || !res.text.includes('"entities":[]'),
      30_000,
    );
    expect(openapi.status, openapi.text).toBe(400);
    expect(openapi.text).toContain('MAX_RESPONSE_BYTES');
  });

  it('answers what fits as before', async () => {
    const read = await get(base, `/entitiesV2/${enc(urns[0]!)}?aspects=List(datasetProperties)`);
    expect(read.status, read.text).toBe(200);
    expect(read.text).toContain('x'.repeat(400));
  });
});
