import { randomUUID } from 'node:crypto';
import { aspectStoreContract, isSkipped, mongoForTests } from '@catalog/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, describe, it } from 'vitest';
import { openMongoAspectStore } from './mongo-aspect-store.js';

const service = await mongoForTests();

if (isSkipped(service)) {
  // No MongoDB-wire server here (no MONGODB_URI, no Docker): the suite reports why in its name.
  describe.skip(`AspectStore contract: MongoDB (${service.skip})`, () => {
    it('skipped', () => undefined);
  });
} else {
  // One fresh database for this file; every contract test uses URNs of its own inside it.
  const databaseName = `catalog_test_${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    const client = await MongoClient.connect(service.uri);
    await client.db(databaseName).dropDatabase();
    await client.close();
  });
  aspectStoreContract('MongoDB', async () => {
    const store = await openMongoAspectStore({ uri: service.uri, databaseName });
    return { store, cleanup: () => store.close() };
  });
}
