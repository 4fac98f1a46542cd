import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeFailedMcp,
  decodeMcl,
  defaultTopicNames,
  genericAspectFromJson,
  openEmbeddedEventLog,
  type EventLog,
} from '@catalog/events';
import {
  DEAD_LETTER_HEADERS,
  InProcessOutcomeChannel,
  proposalRecord,
  replayDeadLetters,
  type ProposalOutcome,
} from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import { capturingLogger, readTopic, waitFor } from '@catalog/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPersistence, type PersistenceService } from './persistence-service.js';
import { openSqliteUnderTest, type StoreUnderTest } from './stores.testing.js';

const topics = defaultTopicNames;
const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

function statusProposal(urn: string, requestId: string) {
  return proposalRecord(
    {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: genericAspectFromJson({ removed: false }),
    },
    requestId,
    'urn:li:corpuser:tester',
  );
}

describe('persistence dead letters', () => {
  let dir: string;
  let log: EventLog;
  let underTest: StoreUnderTest;
  let service: PersistenceService | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'persistence-dlq-'));
    log = await openEmbeddedEventLog({ directory: dir, retryInitialMs: 5, retryMaxMs: 20 });
    underTest = await openSqliteUnderTest();
  });

  afterEach(async () => {
    await service?.stop();
    service = undefined;
    await log.close();
    await underTest.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets aside a proposal that keeps failing, moves on, and applies it once when replayed after the fix', async () => {
    const { store } = underTest;
    const poison = urnOf(`poison_${randomUUID().slice(0, 8)}`);
    let broken = true;
    let poisonAttempts = 0;
    // A store that fails, for an unknown reason, every write of one entity until it is fixed.
    const flaky: AspectStore = new Proxy(store, {
      get(target, property) {
        if (property === 'applyBatch') {
          return async (writes: Parameters<AspectStore['applyBatch']>[0]) => {
            if (broken && writes.some((w) => w.urn === poison)) {
              poisonAttempts += 1;
              throw new Error('odd storage failure');
            }
            return target.applyBatch(writes);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const outcomes = new InProcessOutcomeChannel();
    const seen: ProposalOutcome[] = [];
    const publish = outcomes.publish.bind(outcomes);
    outcomes.publish = (list) => {
      seen.push(...list);
      return publish(list);
    };
    const before = urnOf(`before_${randomUUID().slice(0, 8)}`);
    const after = urnOf(`after_${randomUUID().slice(0, 8)}`);
    await log.ensureTopics([{ name: topics.metadataChangeProposal }]);
    await log.produce(topics.metadataChangeProposal, [
      statusProposal(before, 'r-before'),
      statusProposal(poison, 'r-poison'),
      statusProposal(after, 'r-after'),
    ]);
    const { logger, lines } = capturingLogger('debug');
    service = await startPersistence({
      log,
      store: flaky,
      outcomes,
      topics,
      logger,
      groupId: 'persistence-dlq',
      maxBatchSize: 100,
      maxAttempts: 3,
    });
    await service.ready;

    // The entities around it are stored; the poison is retried three times, then dead-lettered.
    await waitFor(async () => (await store.get(after, 'status')) !== null);
    expect(await store.get(before, 'status')).not.toBeNull();
    const [letter, ...more] = await readTopic(log, topics.failedMetadataChangeProposal, 1);
    expect(more).toEqual([]);
    // Once in the whole batch, then alone three times.
    expect(poisonAttempts).toBe(4);
    expect(letter!.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.group]: 'persistence-dlq',
      [DEAD_LETTER_HEADERS.topic]: topics.metadataChangeProposal,
      [DEAD_LETTER_HEADERS.failureClass]: 'unknown',
      [DEAD_LETTER_HEADERS.attempts]: '3',
      requestId: 'r-poison',
    });
    const failed = decodeFailedMcp(letter!.value);
    expect(failed.metadataChangeProposal.entityUrn).toBe(poison);
    expect(failed.error).toMatch(/odd storage failure/);
    // The waiting writer hears of it at once, as an outage, never as its own mistake.
    expect(seen).toContainEqual(
      expect.objectContaining({ requestId: 'r-poison', ok: false, code: 'UNAVAILABLE' }),
    );
    expect(lines()).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'record dead-lettered; the partition moves on' }),
    );
    expect(await store.get(poison, 'status')).toBeNull();

    // Fixed: the replay produces it again for this group, which applies it, once.
    broken = false;
    const first = await replayDeadLetters({
      log,
      groupId: 'persistence-dlq',
      deadLetterTopic: topics.failedMetadataChangeProposal,
      format: 'proposals',
      logger,
    });
    expect(first.replayed).toEqual({ [topics.metadataChangeProposal]: 1 });
    await waitFor(async () => (await store.get(poison, 'status')) !== null);
    const second = await replayDeadLetters({
      log,
      groupId: 'persistence-dlq',
      deadLetterTopic: topics.failedMetadataChangeProposal,
      format: 'proposals',
      logger,
    });
    expect(second.replayed).toEqual({});
    expect(await store.listVersions(poison, 'status')).toHaveLength(1);
  });

  it('leaves the previous value out of a change log that would not fit with it, and says so', async () => {
    await log.close();
    log = await openEmbeddedEventLog({ directory: dir, maxMessageBytes: 300_000 });
    const urn = urnOf(`big_${randomUUID().slice(0, 8)}`);
    const description = (fill: string) =>
      proposalRecord(
        {
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'datasetProperties',
          aspect: genericAspectFromJson({ description: fill.repeat(200_000) }),
        },
        randomUUID(),
        'urn:li:corpuser:tester',
      );
    await log.ensureTopics([{ name: topics.metadataChangeProposal }]);
    await log.produce(topics.metadataChangeProposal, [description('a'), description('b')]);
    const { logger, lines } = capturingLogger('debug');
    service = await startPersistence({
      log,
      store: underTest.store,
      outcomes: new InProcessOutcomeChannel(),
      topics,
      logger,
      groupId: 'persistence-big',
      maxBatchSize: 100,
      maxMessageBytes: 300_000,
    });
    // The two writes' change logs (the first write also made the entity's default aspects).
    let decoded: ReturnType<typeof decodeMcl>[] = [];
    await waitFor(async () => {
      const changeLogs = await readTopic(log, topics.metadataChangeLogVersioned, 10, 300);
      decoded = changeLogs.map((r) => decodeMcl(r.value)).filter((m) => m.aspectName === 'datasetProperties');
      return decoded.length >= 2;
    });
    expect(decoded.map((m) => m.previousAspectValue === undefined)).toEqual([true, true]);
    expect(decoded[1]!.aspect!.value.toString('utf8')).toContain('b'.repeat(100));
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'change log left out the previous value: with it the record exceeds the message-size limit',
      }),
    );
    expect(await readTopic(log, topics.failedMetadataChangeProposal, 0, 500)).toEqual([]);
  });
});
