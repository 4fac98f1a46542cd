import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFailedMcp, encodeMcl, openEmbeddedEventLog, type EventLog } from '@catalog/events';
import { createLogger, DEAD_LETTER_HEADERS } from '@catalog/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadLetteredChangeLog, FailedWriteLog, refusedProposal } from './failed-write-log.js';

const TOPIC = 'FailedMetadataChangeProposal_v1';
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)';
const logger = createLogger({ name: 'failed-proposals-test', level: 'silent' });

const failure = (traceId: string, aspectName: string, error: string, urn = URN) => ({
  key: urn,
  value: encodeFailedMcp({
    metadataChangeProposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName,
      systemMetadata: { properties: { telemetryTraceId: traceId } },
    },
    error,
  }),
});

describe('the refused proposals a gateway reads for the write trace', () => {
  let dir: string;
  let log: EventLog;
  const readers: FailedWriteLog[] = [];
  const start = async (maxEntries?: number, settleMs?: number) => {
    const reader = await FailedWriteLog.start({
      log,
      topic: TOPIC,
      decode: refusedProposal,
      groupId: `gateway-failed-proposals-${readers.length}`,
      logger,
      pollMs: 5,
      ...(maxEntries === undefined ? {} : { maxEntries }),
      ...(settleMs === undefined ? {} : { settleMs }),
    });
    readers.push(reader);
    return reader;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'failed-proposals-'));
    log = await openEmbeddedEventLog({ directory: dir, pollIntervalMs: 5, retentionCheckIntervalMs: 20 });
    await log.ensureTopics([{ name: TOPIC, partitions: 3, retentionMs: 60_000 }]);
  });
  afterEach(async () => {
    for (const reader of readers.splice(0)) await reader.stop();
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds failures produced before and after it started, by trace id, urn and aspect', async () => {
    await log.produce(TOPIC, [failure('a'.repeat(32), 'status', 'refused before')]);
    const reader = await start();
    await log.produce(TOPIC, [
      failure('b'.repeat(32), 'glossaryTerms', 'Expected version 3, actual version 1'),
    ]);
    expect(await reader.caughtUp(5_000)).toBe(true);
    expect(reader.find('a'.repeat(32), URN, 'status')?.error).toBe('refused before');
    expect(reader.find('b'.repeat(32), URN, 'glossaryTerms')?.error).toBe(
      'Expected version 3, actual version 1',
    );
    expect(reader.find('b'.repeat(32), URN, 'status')).toBeUndefined();
    expect(reader.find('c'.repeat(32), URN, 'glossaryTerms')).toBeUndefined();
  });

  it('is caught up at once over an empty topic, and reads what is produced later', async () => {
    const reader = await start();
    expect(await reader.caughtUp(0)).toBe(true);
    await log.produce(TOPIC, [failure('d'.repeat(32), 'status', 'late')]);
    // Read within the wait it is given.
    expect(await reader.caughtUp(5_000)).toBe(true);
    expect(reader.find('d'.repeat(32), URN, 'status')?.error).toBe('late');
  });

  it('keeps the newest failures up to its bound', async () => {
    const reader = await start(2);
    await log.produce(
      TOPIC,
      ['1', '2', '3'].map((n) => failure(n.repeat(32), 'status', `failure ${n}`)),
    );
    expect(await reader.caughtUp(5_000)).toBe(true);
    expect(reader.find('1'.repeat(32), URN, 'status')).toBeUndefined();
    expect(reader.find('3'.repeat(32), URN, 'status')?.error).toBe('failure 3');
  });

  it('passes over a record that is not a failed proposal', async () => {
    await log.produce(TOPIC, [
      { key: URN, value: Buffer.from('not avro') },
      failure('e'.repeat(32), 'status', 'ok'),
    ]);
    const reader = await start();
    expect(await reader.caughtUp(5_000)).toBe(true);
    expect(reader.find('e'.repeat(32), URN, 'status')?.error).toBe('ok');
  });

  it('is caught up once settled over partitions whose failures retention removed (they are never delivered)', async () => {
    // Records a minute past the topic's retention: the log deletes them, its end offsets stay.
    await log.produce(TOPIC, [
      { ...failure('f'.repeat(32), 'status', 'expired'), timestamp: Date.now() - 120_000 },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reader = await start(undefined, 100);
    expect(await reader.caughtUp(2_000)).toBe(true);
    expect(reader.find('f'.repeat(32), URN, 'status')).toBeUndefined();
  });

  it("reads a consumer group's dead-lettered change logs: the stored version's trace id and the reason", async () => {
    const deadLetters = 'DeadLetter_indexer_v1';
    const mcl = (traceId: string) =>
      encodeMcl({
        entityType: 'dataset',
        entityUrn: URN,
        changeType: 'UPSERT',
        aspectName: 'globalTags',
        systemMetadata: { properties: { telemetryTraceId: traceId } },
      });
    await log.ensureTopics([{ name: deadLetters }]);
    await log.produce(deadLetters, [
      {
        key: URN,
        value: mcl('9'.repeat(32)),
        headers: { [DEAD_LETTER_HEADERS.error]: 'mapping conflict on tags' },
      },
      { key: URN, value: mcl('8'.repeat(32)) },
    ]);
    const reader = await FailedWriteLog.start({
      log,
      topic: deadLetters,
      decode: deadLetteredChangeLog,
      groupId: 'gateway-indexer-dead-letters',
      logger,
      pollMs: 5,
    });
    readers.push(reader);
    expect(await reader.caughtUp(5_000)).toBe(true);
    expect(reader.find('9'.repeat(32), URN, 'globalTags')?.error).toBe('mapping conflict on tags');
    expect(reader.find('8'.repeat(32), URN, 'globalTags')?.error).toBe('The change log could not be applied');
  });
});
