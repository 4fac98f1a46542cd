import { randomUUID } from 'node:crypto';
import { aspectStoreContract, isSkipped, mongoForTests, type SystemMetadataEdit } from '@catalog/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, describe } from 'vitest';
import type { SystemMetadata } from '../port.js';
import type { AspectDocument } from './aspect-document.js';
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
  aspectStoreContract('MongoDB', async (options = {}) => {
    const store = await openMongoAspectStore({ uri, databaseName, ...options });
    return {
      store,
      cleanup: () => store.close(),
      /** Through a client of its own, as another process (an older release) would write the documents. */
      async editSystemMetadata(urn: string, aspect: string, edit: SystemMetadataEdit) {
        const client = await MongoClient.connect(uri);
        try {
          const aspects = client.db(databaseName).collection<AspectDocument>('aspects');
          for (const doc of await aspects.find({ urn, aspect }).toArray()) {
            const stored =
              doc.systemMetadata === null ? null : (JSON.parse(doc.systemMetadata) as SystemMetadata);
            const edited = edit(stored);
            await aspects.updateOne(
              { _id: doc._id },
              { $set: { systemMetadata: edited === null ? null : JSON.stringify(edited) } },
            );
          }
        } finally {
          await client.close();
        }
      },
    };
  });
});
