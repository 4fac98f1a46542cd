import { randomBytes } from 'node:crypto';
import {
  graphIndexContract,
  isSkipped,
  opensearchForTests,
  searchIndexContract,
  timeseriesIndexContract,
} from '@catalog/testkit';
import { Client } from '@opensearch-project/opensearch';
import { describe } from 'vitest';
import { openOpenSearch, type OpenSearchAdapters } from './open-opensearch.js';

const found = await opensearchForTests();
const skip = isSkipped(found) ? found.skip : undefined;
if (skip) console.warn(`[opensearch-contracts.int] skipped: ${skip}`);

/** Every test gets its own index prefix; its indices are dropped when it ends. */
async function fresh(): Promise<{ adapters: OpenSearchAdapters; cleanup(): Promise<void> }> {
  if (isSkipped(found)) throw new Error(found.skip);
  const prefix = `it_ct_${randomBytes(5).toString('hex')}`;
  const adapters = await openOpenSearch({ node: found.node, indexPrefix: prefix, replicas: 0 });
  return {
    adapters,
    cleanup: async () => {
      const raw = new Client({ node: found.node });
      try {
        await raw.indices.delete({ index: `${prefix}_*` }, { ignore: [404] });
      } finally {
        await raw.close();
        await adapters.close();
      }
    },
  };
}

describe.skipIf(skip !== undefined)(`OpenSearch adapters${skip ? ` (skipped: ${skip})` : ''}`, () => {
  searchIndexContract('opensearch', async () => {
    const { adapters, cleanup } = await fresh();
    return { index: adapters.search, cleanup };
  });
  graphIndexContract('opensearch', async () => {
    const { adapters, cleanup } = await fresh();
    return { graph: adapters.graph, cleanup };
  });
  timeseriesIndexContract('opensearch', async () => {
    const { adapters, cleanup } = await fresh();
    return { timeseries: adapters.timeseries, cleanup };
  });
});
