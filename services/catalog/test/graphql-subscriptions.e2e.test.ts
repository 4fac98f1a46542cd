import { once } from 'node:events';
import { connect } from 'node:net';
import { partitionForKey } from '@catalog/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, graphqlData } from './graphql-client.js';
import {
  datasetUrn,
  ingest,
  logIn,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { openEventStream, resultOf, type EventStream, type ServerSentEvent } from './sse-client.js';
import { grantPolicy, signUpUser } from './test-users.js';

/**
 * Live subscriptions end to end: `subscription { entityChanged }` over Server-Sent Events, read by a
 * real HTTP client, streams the entity change events of PlatformEvent_v1 as the change-event producer
 * writes them, each with an SSE id that resumes the stream; events about entities the subscriber may not
 * read never reach it; streams per user are limited; credentials are required.
 */

interface Change {
  entityUrn: string;
  entityType: string;
  category: string;
  operation: string;
  modifier: string | null;
  auditStamp: { actor: string };
}

const SUBSCRIPTION = `subscription($filter: EntityChangedFilter) {
  entityChanged(filter: $filter) { entityUrn entityType category operation modifier auditStamp { actor } }
}`;
const MAX_STREAMS = 3;

const changesOf = (events: readonly ServerSentEvent[]): Change[] =>
  events
    .filter((e) => e.event === 'next')
    .map((e) => resultOf<{ entityChanged: Change }>(e).data?.entityChanged)
    .filter((c): c is Change => c !== undefined && c !== null);

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`GraphQL subscriptions over Server-Sent Events (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let reader: string;
    const open: EventStream[] = [];
    const run = Date.now().toString(36);

    const stream = async (authorization: string, filter: Record<string, unknown>, lastEventId?: string) => {
      const s = await openEventStream(base, SUBSCRIPTION, {
        authorization,
        variables: { filter },
        ...(lastEventId === undefined ? {} : { lastEventId }),
      });
      open.push(s);
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
      return s;
    };
    const tag = async (urn: string, ...tags: string[]) => {
      const res = await ingest(
        base,
        proposal(urn, 'globalTags', { tags: tags.map((t) => ({ tag: `urn:li:tag:${t}` })) }),
      );
      expect(res.status, res.text).toBe(200);
    };
    const tagAdded = (urn: string, tagName: string) => (events: readonly ServerSentEvent[]) =>
      changesOf(events).some(
        (c) =>
          c.entityUrn === urn &&
          c.category === 'TAG' &&
          c.operation === 'ADD' &&
          c.modifier === `urn:li:tag:${tagName}`,
      );

    /** The errors of a GraphQL read of the entity as `authorization`, undefined when it may read it. */
    const readAs = async (authorization: string, urn: string) =>
      (
        await graphql(
          base,
          'query($urn: String!) { getTimeline(input: {urn: $urn}) { changeTransactions { timestampMillis } } }',
          { urn },
          { headers: { Authorization: authorization } },
        )
      ).errors;
    const setViewAllPolicy = async (state: 'ACTIVE' | 'INACTIVE') => {
      const res = await graphql(
        base,
        'mutation ($input: PolicyUpdateInput!) { updatePolicy(urn: "urn:li:dataHubPolicy:view-entity-page-all", input: $input) }',
        {
          input: {
            type: 'METADATA',
            state,
            name: 'All Users - View Entity Page',
            description: 'Grants entity view to all users',
            privileges: [
              'VIEW_ENTITY_PAGE',
              'SEARCH_PRIVILEGE',
              'GET_ENTITY_PRIVILEGE',
              'GET_TIMELINE_PRIVILEGE',
            ],
            actors: { users: [], resourceOwners: false, allUsers: true, allGroups: false },
          },
        },
        { headers: { Authorization: admin } },
      );
      expect(res.errors).toBeUndefined();
    };

    beforeAll(async () => {
      catalog = await startTestCatalog({
        ...family.env(),
        GRAPHQL_SUBSCRIPTION_MAX_STREAMS_PER_USER: String(MAX_STREAMS),
        GRAPHQL_SUBSCRIPTION_HEARTBEAT_MS: '500',
        // Small, so that a stuck client overflows after a few hundred events (the others never hold 10).
        GRAPHQL_SUBSCRIPTION_BUFFER_EVENTS: '100',
      });
      base = catalog.baseUrl;
      admin = `Bearer ${await logIn(base)}`;
      noRole = await signUpUser(base, admin, `sse_norole_${run}@example.com`);
      reader = await signUpUser(base, admin, `sse_reader_${run}@example.com`, 'Reader');
    }, 120_000);
    afterAll(async () => {
      for (const s of open) s.close();
      await catalog?.dispose();
    });

    it('streams a tag added to a subscriber once the write is acknowledged, with an id and heartbeats', async () => {
      const urn = datasetUrn(`sse_${run}.live`);
      const s = await stream(admin, { urns: [urn], categories: ['TAG'] });
      await tag(urn, 'Live');
      const events = await s.waitFor(tagAdded(urn, 'Live'));
      const [change] = changesOf(events);
      expect(change).toEqual({
        entityUrn: urn,
        entityType: 'DATASET',
        category: 'TAG',
        operation: 'ADD',
        modifier: 'urn:li:tag:Live',
        auditStamp: { actor: 'urn:li:corpuser:__datahub_system' },
      });
      expect(events[0]?.id).toMatch(/^[A-Za-z0-9+/=]+$/);
      // Only what the filter asks for: the entity's creation event is not a TAG change.
      expect(changesOf(events).every((c) => c.category === 'TAG')).toBe(true);
      const beats = s.comments();
      await s.waitFor(() => s.comments() > beats + 1);
      s.close();
    });

    it('resumes after a disconnect with Last-Event-ID, receiving exactly the events in between', async () => {
      const urn = datasetUrn(`sse_${run}.resumed`);
      const filter = { urns: [urn], categories: ['TAG'] };
      const first = await stream(admin, filter);
      await tag(urn, 'One');
      const [received] = await first.waitFor(tagAdded(urn, 'One'));
      first.close();
      await first.ended;
      // Written while no client listens.
      await tag(urn, 'One', 'Two');
      await tag(urn, 'One', 'Two', 'Three');
      const resumed = await stream(admin, filter, received?.id);
      await tag(urn, 'One', 'Two', 'Three', 'Four');
      const events = await resumed.waitFor(tagAdded(urn, 'Four'));
      expect(changesOf(events).map((c) => c.modifier)).toEqual([
        'urn:li:tag:Two',
        'urn:li:tag:Three',
        'urn:li:tag:Four',
      ]);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      resumed.close();
    });

    it('serves EventSource clients on GET, with a bearer token or the login cookie (not from another site), subscriptions only', async () => {
      const urn = datasetUrn(`sse_${run}.get`);
      const s = await openEventStream(base, SUBSCRIPTION, {
        authorization: admin,
        method: 'GET',
        variables: { filter: { urns: [urn], categories: ['TAG'] } },
      });
      open.push(s);
      expect(s.status).toBe(200);
      await tag(urn, 'Got');
      await s.waitFor(tagAdded(urn, 'Got'));
      s.close();
      // A browser's EventSource: the login cookie, no header of its own; refused when another site sends it.
      const login = await fetch(`${base}/logIn`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'datahub', password: 'datahub' }),
      });
      const cookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith('PLAY_SESSION='))
        ?.split(';')[0];
      expect(cookie).toBeDefined();
      const browser = await openEventStream(base, SUBSCRIPTION, {
        method: 'GET',
        headers: { Cookie: cookie ?? '', 'Sec-Fetch-Site': 'same-origin' },
      });
      expect(browser.status).toBe(200);
      browser.close();
      const crossSite = await openEventStream(base, SUBSCRIPTION, {
        method: 'GET',
        headers: { Cookie: cookie ?? '', 'Sec-Fetch-Site': 'cross-site' },
      });
      expect(crossSite.status).toBe(403);
      const query = await fetch(
        `${base}/api/graphql?query=${encodeURIComponent('{ me { corpUser { urn } } }')}`,
        {
          headers: { Authorization: admin, Accept: 'text/event-stream' },
        },
      );
      expect(query.status).toBe(405);
    });

    it('never sends a no-role user an event about an entity it may not read, deciding on each event as privileges change; a Reader and an admin get it', async () => {
      const hidden = datasetUrn(`sse_${run}.hidden`);
      const adminStream = await stream(admin, { categories: ['TAG'] });
      const userStream = await stream(noRole, { categories: ['TAG'] });
      const readerStream = await stream(reader, { categories: ['TAG'] });
      // While every user may view every entity (the default policy), the user gets the hidden dataset's events.
      await tag(hidden, 'Before');
      await userStream.waitFor(tagAdded(hidden, 'Before'));
      // A dataset the user keeps reading through a grant of its own, on the hidden one's partition: its
      // event comes after the hidden one's in the log, so once the user has it, the stream has passed it.
      const [first] = adminStream.events;
      const partitions = Object.keys(
        JSON.parse(Buffer.from(first?.id ?? '', 'base64').toString('utf8')) as object,
      ).length;
      let marker = '';
      for (let i = 0; marker === ''; i++) {
        const candidate = datasetUrn(`sse_${run}.marker_${i}`);
        if (partitionForKey(candidate, partitions) === partitionForKey(hidden, partitions))
          marker = candidate;
      }
      await grantPolicy(base, admin, {
        privileges: ['VIEW_ENTITY_PAGE'],
        users: [`urn:li:corpuser:sse_norole_${run}@example.com`],
        resources: [marker],
      });
      await setViewAllPolicy('INACTIVE');
      try {
        await waitUntil(
          () => readAs(noRole, hidden),
          (errors) => errors !== undefined,
          20_000,
        );
        await waitUntil(
          () => readAs(noRole, marker),
          (errors) => errors === undefined,
          20_000,
        );
        await tag(hidden, 'Before', 'Hidden');
        await tag(marker, 'Marker');
        await adminStream.waitFor(tagAdded(hidden, 'Hidden'));
        await readerStream.waitFor(tagAdded(hidden, 'Hidden'));
        const userEvents = await userStream.waitFor(tagAdded(marker, 'Marker'));
        expect(
          changesOf(userEvents)
            .filter((c) => c.entityUrn === hidden)
            .map((c) => c.modifier),
        ).toEqual(['urn:li:tag:Before']);
      } finally {
        await setViewAllPolicy('ACTIVE');
        for (const s of [adminStream, userStream, readerStream]) s.close();
      }
    });

    it(`refuses a user's stream past ${MAX_STREAMS} open ones with 429 naming the limit, and counts a closed one out`, async () => {
      const user = await signUpUser(base, admin, `sse_limit_${run}@example.com`);
      const held = [await stream(user, {}), await stream(user, {}), await stream(user, {})];
      const refused = await openEventStream(base, SUBSCRIPTION, { authorization: user });
      expect(refused.status).toBe(429);
      const [error] = (await refused.waitFor((events) => events.length > 0)).map(resultOf);
      expect(error?.errors?.[0]?.message).toContain('GRAPHQL_SUBSCRIPTION_MAX_STREAMS_PER_USER');
      held[0]?.close();
      // The server sees the disconnect on its own time.
      const deadline = Date.now() + 20_000;
      let status = 429;
      while (status === 429 && Date.now() < deadline) {
        const again = await openEventStream(base, SUBSCRIPTION, { authorization: user });
        status = again.status;
        again.close();
        if (status === 429) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(200);
      for (const s of held) s.close();
    });

    it('disconnects a client that stops reading once more events wait than its buffer holds, with a last error event, freeing its slot', async () => {
      const user = await signUpUser(base, admin, `sse_slow_${run}@example.com`);
      const urn = datasetUrn(`sse_${run}.slow_${'x'.repeat(150)}`);
      // Large events, so that the sockets' buffers fill after a few thousand.
      const fields = Array.from({ length: 45 }, (_, i) => `u${i}: entityUrn`).join(' ');
      const body = JSON.stringify({
        query: `subscription { entityChanged(filter: {urns: ["${urn}"], categories: ["TAG"]}) { ${fields} } }`,
      });
      const socket = connect(catalog.port, '127.0.0.1');
      await once(socket, 'connect');
      const chunks: Buffer[] = [];
      let stuck = true;
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        // Reads the response's head, then nothing more until resumed: the client is stuck.
        if (stuck) socket.pause();
      });
      const closed = once(socket, 'close');
      socket.write(
        `POST /api/graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${user}\r\n` +
          'Accept: text/event-stream\r\nContent-Type: application/json\r\nConnection: close\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await waitUntil(
        async () => Buffer.concat(chunks).toString(),
        (text) => text.startsWith('HTTP/1.1 200'),
      );
      // The user's other slots are taken, so a new stream opens only once the stuck one is let go.
      const held = [
        await stream(user, { urns: [datasetUrn(`sse_${run}.idle`)] }),
        await stream(user, { urns: [datasetUrn(`sse_${run}.idle`)] }),
      ];
      const tags: string[] = [];
      let freed = false;
      for (let round = 0; round < 40 && !freed; round++) {
        for (let i = 0; i < 250; i++) tags.push(`Slow${round}_${i}`);
        await tag(urn, ...tags);
        const probe = await openEventStream(base, SUBSCRIPTION, { authorization: user });
        if (probe.status !== 200) await probe.ended;
        probe.close();
        freed = probe.status === 200;
      }
      expect(freed).toBe(true);
      stuck = false;
      socket.resume();
      await closed;
      const text = Buffer.concat(chunks).toString();
      expect(text).toContain('GRAPHQL_SUBSCRIPTION_BUFFER_EVENTS');
      expect(text).toContain('SlowConsumer');
      for (const s of held) s.close();
    });

    it('answers 401 without credentials, and 400 for a Last-Event-ID it cannot resume from', async () => {
      const anonymous = await fetch(`${base}/api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify({ query: SUBSCRIPTION }),
      });
      expect(anonymous.status).toBe(401);
      // Asked as plain JSON, a subscription is refused before it opens a stream (it would hold a slot).
      for (let i = 0; i <= MAX_STREAMS; i++) {
        const json = await fetch(`${base}/api/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: noRole },
          body: JSON.stringify({ query: SUBSCRIPTION }),
        });
        expect(json.status).toBe(406);
        expect(await json.text()).toContain('Accept: text/event-stream');
      }
      const bad = await openEventStream(base, SUBSCRIPTION, {
        authorization: noRole,
        lastEventId: 'not-a-position',
      });
      expect(bad.status).toBe(400);
      const [answer] = (await bad.waitFor((events) => events.length > 0)).map(resultOf);
      expect(answer?.errors?.[0]?.message).toContain('Last-Event-ID');
    });

    it('keeps the GraphQL limits on subscriptions (depth, aliases) and queries on POST as before', async () => {
      const aliased = Array.from({ length: 60 }, (_, i) => `a${i}: entityUrn`).join(' ');
      const tooMany = await openEventStream(base, `subscription { entityChanged { ${aliased} } }`, {
        authorization: admin,
      });
      const [answer] = (await tooMany.waitFor((events) => events.length > 0)).map(resultOf);
      expect(JSON.stringify(answer?.errors)).toMatch(/alias/i);
      const me = await graphqlData<{ me: { corpUser: { urn: string } } }>(
        base,
        '{ me { corpUser { urn } } }',
        {},
        { headers: { Authorization: admin } },
      );
      expect(me.me.corpUser.urn).toBe('urn:li:corpuser:datahub');
    });
  });
}
