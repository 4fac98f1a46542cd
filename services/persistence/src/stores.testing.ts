import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { openMongoAspectStore } from '@catalog/store/mongodb';

/** A store a suite runs on, and how to let it go. */
export interface StoreUnderTest {
  readonly store: AspectStore;
  cleanup(): Promise<void>;
}

/** A fresh embedded store in a directory of its own, removed by cleanup. */
export async function openSqliteUnderTest(): Promise<StoreUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'persistence-store-'));
  const store = await openSqliteAspectStore({ file: join(dir, 'aspects.db') });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The MongoDB driver, the store's own dependency (this package has none of its own), to drop the database. */
interface MongoDriver {
  readonly MongoClient: {
    connect(uri: string): Promise<{
      db(name: string): { dropDatabase(): Promise<unknown> };
      close(): Promise<void>;
    }>;
  };
}

/**
 * One fresh MongoDB-wire database for a test file (every test uses URNs of its own inside it): stores
 * opened on it, and `drop` for the file's afterAll.
 */
export function mongoDatabaseUnderTest(uri: string): {
  open(): Promise<StoreUnderTest>;
  drop(): Promise<void>;
} {
  const databaseName = `catalog_test_${randomUUID().slice(0, 8)}`;
  return {
    async open() {
      const store = await openMongoAspectStore({ uri, databaseName });
      return { store, cleanup: () => store.close() };
    },
    async drop() {
      const require = createRequire(new URL('../../../packages/store/package.json', import.meta.url));
      const { MongoClient } = require('mongodb') as MongoDriver;
      const client = await MongoClient.connect(uri);
      await client.db(databaseName).dropDatabase();
      await client.close();
    },
  };
}
