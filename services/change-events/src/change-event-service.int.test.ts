import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodePlatformEvent,
  defaultTopicNames,
  encodeMcl,
  genericAspectFromJson,
  openEmbeddedEventLog,
  type EventLog,
  type LogRecord,
  type MetadataChangeLog,
  type ProduceRecord,
} from '@catalog/events';
import { CHANGE_LOG_HEADERS, deadLetterTopicOf } from '@catalog/runtime';
import { capturingLogger, readTopic, waitFor } from '@catalog/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChangeEventProducer, type ChangeEventProducer } from './change-event-service.js';
import { CHANGE_EVENT_ID_HEADER } from './change-events-of.js';

const topics = defaultTopicNames;
const GROUP = 'change_events';
const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

function tagChange(urn: string, requestId: string, previous: string[], current: string[]): ProduceRecord {
  const tags = (names: string[]) =>
    genericAspectFromJson({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });
  const mcl: MetadataChangeLog = {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'globalTags',
    aspect: tags(current),
    ...(previous.length > 0 ? { previousAspectValue: tags(previous) } : {}),
    created: { time: Date.now(), actor: 'urn:li:corpuser:jdoe' },
  };
  return { key: urn, value: encodeMcl(mcl), headers: { [CHANGE_LOG_HEADERS.requestId]: requestId } };
}

interface Seen {
  readonly id: string;
  readonly key: string;
  readonly event: { entityUrn: string; category: string; operation: string; modifier?: string };
}

const seenOf = (records: readonly LogRecord[]): Seen[] =>
  records
    .filter((r) => r.headers[CHANGE_EVENT_ID_HEADER])
    .map((r) => ({
      id: r.headers[CHANGE_EVENT_ID_HEADER]!,
      key: r.key,
      event: JSON.parse(decodePlatformEvent(r.value).payload.value.toString('utf8')) as Seen['event'],
    }));

/** The change events on the topic once `atLeast` arrived (or 3 s passed: asking for one more proves none came). */
async function changeEvents(log: EventLog, atLeast: number): Promise<Seen[]> {
  return seenOf(await readTopic(log, topics.platformEvent, atLeast, 3_000));
}

describe('change event producer', () => {
  let dir: string;
  let log: EventLog;
  const running: ChangeEventProducer[] = [];
  const { logger } = capturingLogger('silent');

  const start = async (eventLog: EventLog = log) => {
    const producer = await startChangeEventProducer({
      log: eventLog,
      topics,
      logger,
      groupId: GROUP,
      maxBatchSize: 50,
      maxAttempts: 2,
    });
    running.push(producer);
    await producer.ready;
    return producer;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'change-events-'));
    log = await openEmbeddedEventLog({ directory: dir, pollIntervalMs: 20, retryInitialMs: 20 });
  });
  afterEach(async () => {
    for (const producer of running.splice(0)) await producer.stop();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('produces one event per semantic change, keyed by the entity, in the order of its change logs', async () => {
    await start();
    const urn = urnOf('orders');
    await log.produce(topics.metadataChangeLogVersioned, [
      tagChange(urn, 'r1', [], ['pii']),
      tagChange(urn, 'r2', ['pii'], ['gold']),
    ]);
    let seen: Seen[] = [];
    await waitFor(async () => (seen = await changeEvents(log, 3)).length === 3);
    expect(seen.map((s) => s.key)).toEqual([urn, urn, urn]);
    expect(seen.map((s) => [s.event.operation, s.event.modifier])).toEqual([
      ['ADD', 'urn:li:tag:pii'],
      ['ADD', 'urn:li:tag:gold'],
      ['REMOVE', 'urn:li:tag:pii'],
    ]);
  });

  it('produces nothing twice when an acknowledged produce is reported as failed and the batch is redelivered', async () => {
    let failOnce = true;
    const flaky = new Proxy(log, {
      get(target, property) {
        if (property === 'produce') {
          return async (topic: string, records: readonly ProduceRecord[]) => {
            const positions = await target.produce(topic, records);
            if (topic === topics.platformEvent && failOnce) {
              failOnce = false;
              throw Object.assign(new Error('connection lost after the broker acknowledged'), {
                name: 'KafkaJSConnectionError',
                retriable: true,
              });
            }
            return positions;
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    await start(flaky);
    await log.produce(topics.metadataChangeLogVersioned, [
      tagChange(urnOf('a'), 'r1', [], ['pii', 'gold']),
      tagChange(urnOf('b'), 'r2', [], ['pii']),
    ]);
    await waitFor(() => !failOnce);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const seen = await changeEvents(log, 4);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.id)).size).toBe(3);
  });

  it('produces nothing twice after a restart that processes change logs again (a kill before the commit)', async () => {
    const first = await start();
    await log.produce(topics.metadataChangeLogVersioned, [
      tagChange(urnOf('a'), 'r1', [], ['pii']),
      tagChange(urnOf('b'), 'r2', [], ['gold']),
    ]);
    await waitFor(async () => (await changeEvents(log, 2)).length === 2);
    await first.stop();
    // The group goes back to the start, as it would had the process died before committing.
    const rewind = await log.consume({
      groupId: GROUP,
      topics: [topics.metadataChangeLogVersioned],
      handler: () => Promise.reject(new Error('hold')),
    });
    await rewind.ready;
    for (const { partition, start: from } of await log.offsets(topics.metadataChangeLogVersioned)) {
      await rewind.seek(topics.metadataChangeLogVersioned, partition, from);
    }
    await rewind.stop();
    await start();
    // The same change log produced again by persistence for the same proposal is the same change too.
    await log.produce(topics.metadataChangeLogVersioned, [
      tagChange(urnOf('a'), 'r1', [], ['pii']),
      tagChange(urnOf('c'), 'r3', [], ['new']),
    ]);
    let seen: Seen[] = [];
    await waitFor(async () => (seen = await changeEvents(log, 3)).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    seen = await changeEvents(log, 4);
    expect(seen.map((s) => s.event.modifier).sort()).toEqual([
      'urn:li:tag:gold',
      'urn:li:tag:new',
      'urn:li:tag:pii',
    ]);
  });

  it('dead-letters a change log that cannot be diffed and goes on with the next', async () => {
    const producer = await start();
    const urn = urnOf('broken');
    const broken: MetadataChangeLog = {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'globalTags',
      aspect: { value: Buffer.from('{not json'), contentType: 'application/json' },
    };
    await log.produce(topics.metadataChangeLogVersioned, [
      { key: urn, value: encodeMcl(broken) },
      tagChange(urn, 'r2', [], ['pii']),
    ]);
    let seen: Seen[] = [];
    await waitFor(async () => (seen = await changeEvents(log, 1)).length === 1);
    expect(seen[0]!.event.modifier).toBe('urn:li:tag:pii');
    const dead = await readTopic(log, deadLetterTopicOf(GROUP), 1, 10_000);
    expect(dead).toHaveLength(1);
    expect(producer.failures().deadLettered).toBe(1);
  });
});
