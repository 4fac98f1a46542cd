import { randomUUID } from 'node:crypto';
import { genericAspectFromJson, type MetadataChangeProposal } from '@catalog/events';
import type { AspectStore } from '@catalog/store';
import { isSkipped, mongoForTests } from '@catalog/testkit';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyProposals } from './apply-proposals.js';
import { proposalRecord } from './proposal-records.testing.js';
import { RetentionPolicies } from './retention-policies.js';
import { mongoDatabaseUnderTest, openSqliteUnderTest, type StoreUnderTest } from './stores.testing.js';

function upsert(
  entityType: string,
  urn: string,
  aspectName: string,
  value: Record<string, unknown>,
): MetadataChangeProposal {
  return {
    entityType,
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: genericAspectFromJson(value),
  };
}

function retentionPolicy(
  entity: string,
  aspect: string,
  retention: Record<string, unknown>,
): MetadataChangeProposal {
  return upsert(
    'dataHubRetention',
    `urn:li:dataHubRetention:(${entity},${aspect})`,
    'dataHubRetentionConfig',
    {
      retention,
    },
  );
}

function retentionSuite(open: () => Promise<StoreUnderTest>): void {
  let underTest: StoreUnderTest | undefined;
  const store = (): AspectStore => {
    if (underTest === undefined) throw new Error('store not opened');
    return underTest.store;
  };
  beforeEach(async () => {
    underTest = await open();
  });
  afterEach(async () => {
    await underTest?.cleanup();
    underTest = undefined;
  });

  /** Applies the proposals one batch each, with the policies in force at each batch, as persistence does. */
  async function applyAll(
    policies: RetentionPolicies,
    mcps: readonly MetadataChangeProposal[],
  ): Promise<void> {
    for (const mcp of mcps) {
      const effects = await applyProposals([proposalRecord(mcp)], store(), undefined, {
        retention: await policies.resolver(store()),
      });
      expect(effects.failed).toEqual([]);
      if (effects.versioned.some((c) => c.mcl.entityType === 'dataHubRetention')) policies.invalidate();
    }
  }

  const versionsOf = async (urn: string, aspect: string) =>
    (await store().listVersions(urn, aspect)).map((v) => v.value['status'] ?? v.value['description']);

  it("keeps only version 0 of an execution request's result, as the ecosystem's boot policy says", async () => {
    const policies = new RetentionPolicies({ refreshMs: 60_000 });
    const urn = `urn:li:dataHubExecutionRequest:${randomUUID()}`;
    await applyAll(
      policies,
      ['PENDING', 'RUNNING', 'COMPLETED'].map((status) =>
        upsert('dataHubExecutionRequest', urn, 'dataHubExecutionRequestResult', { status }),
      ),
    );
    expect(await versionsOf(urn, 'dataHubExecutionRequestResult')).toEqual(['COMPLETED']);
    expect(await store().get(urn, 'dataHubExecutionRequestResult', 2)).toBeNull();
  });

  it('keeps 20 earlier versions of any other aspect by default', async () => {
    const policies = new RetentionPolicies({ refreshMs: 60_000 });
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,retention.${randomUUID().slice(0, 8)},PROD)`;
    const writes = Array.from({ length: 23 }, (_, i) =>
      upsert('dataset', urn, 'datasetProperties', { description: `d${i + 1}` }),
    );
    await applyAll(policies, writes);
    const kept = await versionsOf(urn, 'datasetProperties');
    expect(kept).toHaveLength(21);
    expect(kept[0]).toBe('d23');
    expect(kept.at(-1)).toBe('d3');
  });

  it('applies a stored dataHubRetention policy from the next batch on, the most specific key first', async () => {
    const policies = new RetentionPolicies({ refreshMs: 60_000 });
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,stored.${randomUUID().slice(0, 8)},PROD)`;
    await applyAll(policies, [
      retentionPolicy('dataset', '*', { version: { maxVersions: 2 } }),
      retentionPolicy('*', 'datasetProperties', { version: { maxVersions: 5 } }),
    ]);
    await applyAll(
      policies,
      [1, 2, 3, 4, 5].map((i) => upsert('dataset', urn, 'datasetProperties', { description: `d${i}` })),
    );
    // (dataset, *) comes before (*, datasetProperties), as in the ecosystem's RetentionService.
    expect(await versionsOf(urn, 'datasetProperties')).toEqual(['d5', 'd4', 'd3']);
  });

  it('keeps every version without policies', async () => {
    const urn = `urn:li:dataHubExecutionRequest:${randomUUID()}`;
    for (const status of ['PENDING', 'RUNNING', 'COMPLETED']) {
      await applyProposals(
        [proposalRecord(upsert('dataHubExecutionRequest', urn, 'dataHubExecutionRequestResult', { status }))],
        store(),
      );
    }
    expect(await versionsOf(urn, 'dataHubExecutionRequestResult')).toHaveLength(3);
  });
}

describe('retention policies through persistence, on the embedded SQLite store', () => {
  retentionSuite(openSqliteUnderTest);
});

const mongo = await mongoForTests();
if (isSkipped(mongo)) console.warn(`skipping the MongoDB-wire retention suite: ${mongo.skip}`);

describe.skipIf(isSkipped(mongo))('retention policies through persistence, on the MongoDB-wire store', () => {
  if (isSkipped(mongo)) return;
  const database = mongoDatabaseUnderTest(mongo.uri);
  afterAll(() => database.drop());
  retentionSuite(() => database.open());
});
