import { randomUUID } from 'node:crypto';
import { genericAspectFromJson, type MetadataChangeProposal } from '@catalog/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyProposals } from './apply-proposals.js';
import { proposalRecord } from './proposal-records.testing.js';
import { openSqliteUnderTest, type StoreUnderTest } from './stores.testing.js';

/** A testInfo proposal as a Kafka producer might send it, straight onto the log. */
function testInfo(urn: string, json: string): MetadataChangeProposal {
  return {
    entityType: 'test',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'testInfo',
    aspect: genericAspectFromJson({ name: 'n', category: 'c', definition: { type: 'JSON', json } }),
  };
}

describe('testInfo definitions arriving on the log', () => {
  let underTest: StoreUnderTest;
  beforeEach(async () => {
    underTest = await openSqliteUnderTest();
  });
  afterEach(() => underTest.cleanup());

  it('stores a definition that parses and refuses one that does not, with the reason', async () => {
    const good = `urn:li:test:good_${randomUUID().slice(0, 8)}`;
    const bad = `urn:li:test:bad_${randomUUID().slice(0, 8)}`;
    const definition = (operator: string) =>
      JSON.stringify({ on: { types: ['dataset'] }, rules: { property: 'datasetProperties.name', operator } });
    const badId = randomUUID();
    const effects = await applyProposals(
      [
        proposalRecord(testInfo(good, definition('exists'))),
        proposalRecord(testInfo(bad, definition('nearly')), badId),
      ],
      underTest.store,
    );
    expect(effects.outcomes.find((o) => o.requestId === badId)).toMatchObject({
      ok: false,
      code: 'VALIDATION',
      message: expect.stringContaining('Invalid test definition: Unsupported operation nearly'),
    });
    expect(effects.failed).toEqual([expect.objectContaining({ key: bad })]);
    expect(await underTest.store.get(good, 'testInfo')).not.toBeNull();
    expect(await underTest.store.get(bad, 'testInfo')).toBeNull();
  });
});
