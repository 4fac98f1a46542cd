import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { datasetUrn, enc, get, request, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * An ownership write stores its `ownerTypes` (the owners by ownership type), as the ecosystem's write
 * hook materializes it, also when the same owners are written again without it.
 */
for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping ownerTypes on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`ownership ownerTypes on ${family.name}`, () => {
    let catalog: TestCatalog;
    const urn = datasetUrn(`ot${Math.random().toString(36).slice(2, 8)}.orders`);
    const path = `/openapi/v3/entity/dataset/${enc(urn)}/ownership`;
    const owners = {
      owners: [
        { owner: 'urn:li:corpuser:datahub', type: 'TECHNICAL_OWNER' },
        { owner: 'urn:li:corpGroup:stewards', type: 'CUSTOM', typeUrn: 'urn:li:ownershipType:stewards' },
      ],
      lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('materializes ownerTypes on every write of the owners, a repeated one included', async () => {
      for (const query of [
        'createIfNotExists=false&createEntityIfNotExists=true&async=false',
        'createIfNotExists=false&async=false',
      ]) {
        const res = await request(catalog.baseUrl, 'POST', `${path}?${query}`, { value: owners });
        expect(res.status, res.text).toBeLessThan(300);
      }
      const read = await get(catalog.baseUrl, `${path}?systemMetadata=false`);
      expect((read.body as { value: Record<string, unknown> }).value['ownerTypes']).toEqual({
        'urn:li:ownershipType:__system__technical_owner': ['urn:li:corpuser:datahub'],
        'urn:li:ownershipType:stewards': ['urn:li:corpGroup:stewards'],
      });
    });
  });
}
