import { randomUUID } from 'node:crypto';
import { aspectStoreContract, isSkipped, mongoForTests } from '@catalog/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, describe } from 'vitest';
import { openMongoAspectStore } from './mongo-aspect-store.js';

const service = await mongoForTests();
// No MongoDB-wire server here (no MONGODB_URI, no Docker): say why, as the other real-service suites do.
if (isSkipped(service)) console.warn(`skipping the MongoDB aspect-store contract: ${service.skip}`);

describe.skipIf(isSkipped(service))('MongoDB aspect store', () => {
  if (isSkipped(service)) return;
  const { uri } = service;
  // One fresh database for this file; every contract test uses URNs of its own inside it.
  const databaseName = `catalog_test_${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    const client = await MongoClient.connect(uri);
    await client.db(databaseName).dropDatabase();
    await client.close();
  });
  aspectStoreContract('MongoDB', async () => {
    const store = await openMongoAspectStore({ uri, databaseName });
    return { store, cleanup: () => store.close() };
  });
});
