import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest } from '@catalog/auth';
import {
  encodePlatformEvent,
  JSON_CONTENT_TYPE,
  type EventLog,
  type LogRecord,
  type PartitionOffsets,
} from '@catalog/events';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { graphqlContext } from './admin-fakes.testing.js';
import {
  compileChangeEventFilter,
  matchesChangeEvent,
  type StreamedChangeEvent,
} from './change-event-filter.js';
import type { ChangeEventFeed, ChangeEventListener, ChangeEventRun } from './change-event-stream.js';
import { ChangeSubscriptions, type StreamItem } from './change-subscriptions.js';
import { decodeOffsetId } from './events-poll.js';

const TOPIC = 'PlatformEvent_v1';
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const [OPEN, HIDDEN] = [dataset('open'), dataset('hidden')];
const USER = 'urn:li:corpuser:jdoe';

const change = (entityUrn: string, modifier: string, category = 'TAG'): StreamedChangeEvent => ({
  entityType: 'dataset',
  entityUrn,
  category,
  operation: 'ADD',
  modifier,
  auditStamp: { time: 1, actor: 'urn:li:corpuser:datahub' },
  version: 0,
});

describe('a change event filter', () => {
  it('narrows by each list it is given, to any of its values; an empty filter matches everything', () => {
    const event = change(OPEN, 'urn:li:tag:a');
    expect(matchesChangeEvent(compileChangeEventFilter({}), event)).toBe(true);
    expect(matchesChangeEvent(compileChangeEventFilter({ urns: [OPEN, HIDDEN] }), event)).toBe(true);
    expect(matchesChangeEvent(compileChangeEventFilter({ urns: [HIDDEN] }), event)).toBe(false);
    expect(matchesChangeEvent(compileChangeEventFilter({ entityTypes: ['chart'] }), event)).toBe(false);
    expect(matchesChangeEvent(compileChangeEventFilter({ categories: ['TAG', 'OWNERSHIP'] }), event)).toBe(
      true,
    );
    expect(matchesChangeEvent(compileChangeEventFilter({ operations: ['REMOVE'] }), event)).toBe(false);
    expect(
      matchesChangeEvent(
        compileChangeEventFilter({ categories: ['TAG'], actors: ['urn:li:corpuser:x'] }),
        event,
      ),
    ).toBe(false);
  });

  it.each([
    [{ categories: ['TAGS'] }, /filter.categories: unknown value "TAGS"/],
    [{ operations: ['DROP'] }, /filter.operations: unknown value "DROP"/],
    [{ urns: ['orders'] }, /filter.urns: "orders" is not a urn/],
    [{ actors: ['jdoe'] }, /filter.actors: "jdoe" is not a urn/],
  ])('refuses %j with a 400 naming the field and the value', (filter, message) => {
    expect(() => compileChangeEventFilter(filter)).toThrow(message);
  });
});

/** A feed whose runs the test hands out, over a log of one partition whose records the test appends. */
function fakeFeed() {
  const records: LogRecord[] = [];
  const listeners = new Set<ChangeEventListener>();
  const record = (event: StreamedChangeEvent): LogRecord => ({
    topic: TOPIC,
    partition: 0,
    offset: String(records.length),
    key: event.entityUrn,
    headers: {},
    timestamp: 1,
    value: encodePlatformEvent({
      header: { timestampMillis: 1 },
      name: 'entityChangeEvent',
      payload: { value: Buffer.from(JSON.stringify(event)), contentType: JSON_CONTENT_TYPE },
    }),
  });
  const log = {
    offsets: async (): Promise<PartitionOffsets[]> => [
      { partition: 0, start: '0', end: String(records.length) },
    ],
    read: async (_topic: string, from: ReadonlyMap<number, string>, options: { maxRecords: number }) =>
      records.slice(Number(from.get(0) ?? '0'), Number(from.get(0) ?? '0') + options.maxRecords),
  } as unknown as EventLog;
  const feed = {
    topic: TOPIC,
    log,
    listen: async (listener: ChangeEventListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as ChangeEventFeed;
  return {
    feed,
    listeners,
    /** Appends events to the log without the live tail seeing them (written while nobody listened). */
    store(...events: StreamedChangeEvent[]): void {
      for (const event of events) records.push(record(event));
    },
    /** Appends events and hands them to the listeners as one run. */
    publish(...events: StreamedChangeEvent[]): void {
      const first = records.length;
      this.store(...events);
      const run: ChangeEventRun = {
        partition: 0,
        first: BigInt(first),
        next: BigInt(records.length),
        events: events.map((event, i) => ({ partition: 0, offset: BigInt(first + i), event })),
      };
      for (const listener of listeners) listener.onRun(run);
    },
  };
}

/** An actor that may read everything but what `hidden` holds at the time of asking. */
function policy(hidden: Set<string>): AccessPolicy {
  const auth = {
    settings: { restApiAuthorization: true },
    authorizer: {
      isAllowed: async (request: AuthorizationRequest) => !hidden.has(request.resourceUrn ?? ''),
    },
  } as unknown as GatewayAuth;
  return new AccessPolicy(auth);
}

const changes = (items: StreamItem[]) =>
  items.map((i) => (i.kind === 'change' ? `${i.event.entityUrn} ${i.event.modifier ?? ''}` : 'overflow'));

async function take(stream: AsyncIterator<StreamItem>, n: number): Promise<StreamItem[]> {
  const out: StreamItem[] = [];
  while (out.length < n) {
    const next = await stream.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

describe('a live subscription', () => {
  it('sends only the events of entities the actor may read, deciding each when it is sent', async () => {
    const log = fakeFeed();
    const hidden = new Set([HIDDEN]);
    const subscriptions = new ChangeSubscriptions(log.feed, policy(hidden));
    const stream = await subscriptions.subscribe(graphqlContext(USER), { filter: {} });
    log.publish(change(HIDDEN, 'a'), change(OPEN, 'b'));
    expect(changes(await take(stream, 1))).toEqual([`${OPEN} b`]);
    // Read access granted since the stream opened applies to the next event.
    hidden.clear();
    log.publish(change(HIDDEN, 'c'));
    expect(changes(await take(stream, 1))).toEqual([`${HIDDEN} c`]);
    hidden.add(HIDDEN);
    log.publish(change(HIDDEN, 'd'), change(OPEN, 'e'));
    expect(changes(await take(stream, 1))).toEqual([`${OPEN} e`]);
    await stream.return?.();
  });

  it('gives each event the position after it, from which a new stream resumes with exactly the later events', async () => {
    const log = fakeFeed();
    const subscriptions = new ChangeSubscriptions(log.feed, policy(new Set()));
    const first = await subscriptions.subscribe(graphqlContext(USER), { filter: { urns: [OPEN] } });
    log.publish(change(OPEN, 'a'), change(HIDDEN, 'x'), change(OPEN, 'b'));
    const received = await take(first, 2);
    expect(changes(received)).toEqual([`${OPEN} a`, `${OPEN} b`]);
    const [a] = received;
    expect(a?.kind === 'change' && decodeOffsetId(a.position, TOPIC)).toEqual(new Map([[0, '1']]));
    await first.return?.();
    // Written while disconnected, then live after the resume.
    log.store(change(OPEN, 'c'), change(OPEN, 'd'));
    const resumed = await subscriptions.subscribe(graphqlContext(USER), {
      filter: { urns: [OPEN] },
      ...(a?.kind === 'change' ? { after: a.position } : {}),
    });
    log.publish(change(OPEN, 'e'));
    expect(changes(await take(resumed, 4))).toEqual([`${OPEN} b`, `${OPEN} c`, `${OPEN} d`, `${OPEN} e`]);
    await resumed.return?.();
  });

  it('ends a stream whose client lets more events wait than its buffer holds, with a last overflow item', async () => {
    const log = fakeFeed();
    const subscriptions = new ChangeSubscriptions(log.feed, policy(new Set()), {
      maxBufferedEvents: 3,
      maxStreamsPerUser: 5,
    });
    let overflowed = 0;
    const stream = await subscriptions.subscribe(graphqlContext(USER), {
      filter: {},
      onOverflow: () => overflowed++,
    });
    for (const m of ['a', 'b', 'c', 'd', 'e', 'f']) log.publish(change(OPEN, m));
    // At once, whether or not the client ever reads again: nothing more is buffered, the slot is free.
    expect(overflowed).toBe(1);
    expect(log.listeners.size).toBe(0);
    expect(subscriptions.openStreams(USER)).toBe(0);
    expect(changes(await take(stream, 5))).toEqual(['overflow']);
    expect((await stream.next()).done).toBe(true);
  });

  it('refuses a stream past the per-user limit, naming it, and counts closed or aborted streams out', async () => {
    const log = fakeFeed();
    const subscriptions = new ChangeSubscriptions(log.feed, policy(new Set()), {
      maxBufferedEvents: 10,
      maxStreamsPerUser: 2,
    });
    const ctx = graphqlContext(USER);
    const aborted = new AbortController();
    const first = await subscriptions.subscribe(ctx, { filter: {}, signal: aborted.signal });
    await subscriptions.subscribe(ctx, { filter: {} });
    await expect(subscriptions.subscribe(ctx, { filter: {} })).rejects.toThrow(
      /GRAPHQL_SUBSCRIPTION_MAX_STREAMS_PER_USER = 2/,
    );
    // Another user is not held by this one's streams.
    await subscriptions.subscribe(graphqlContext('urn:li:corpuser:other'), { filter: {} });
    aborted.abort();
    expect((await first.next()).done).toBe(true);
    await subscriptions.subscribe(ctx, { filter: {} });
  });

  it('refuses a Last-Event-ID that is not a position of the stream with a 400 naming it', async () => {
    const subscriptions = new ChangeSubscriptions(fakeFeed().feed, policy(new Set()));
    await expect(
      subscriptions.subscribe(graphqlContext(USER), { filter: {}, after: 'bogus!' }),
    ).rejects.toThrow(/Last-Event-ID/);
    expect(subscriptions.openStreams(USER)).toBe(0);
  });
});
