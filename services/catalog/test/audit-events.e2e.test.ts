import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '@catalog/search';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  logIn,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

const AGENT = 'audit-test/2.0';
const ROOT = 'urn:li:corpuser:datahub';
const SYSTEM = 'urn:li:corpuser:__datahub_system';

interface UsageEvent {
  readonly eventType: string;
  readonly timestamp: number;
  readonly actorUrn: string;
  readonly entityUrn?: string;
  readonly entityType?: string;
  readonly aspectName?: string;
  readonly sourceIP?: string;
  readonly eventSource?: string;
  readonly userAgent?: string;
  readonly telemetryTraceId?: string;
  readonly loginSource?: string;
  readonly rawUsageEvent?: Record<string, unknown>;
}

interface AuditResponse {
  readonly nextScrollId?: string;
  readonly count: number;
  readonly total: number;
  readonly usageEvents: UsageEvent[];
}

interface AuditFilter {
  eventTypes?: string[];
  entityTypes?: string[];
  aspectTypes?: string[];
  actorUrns?: string[];
}

/** A new W3C trace: its traceparent header and the trace id the audit trail must show. */
function newTrace(): { traceparent: string; traceId: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`audit events, recorded and searched (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let started: number;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      started = Date.now() - 1;
      admin = `Bearer ${await logIn(base)}`;
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    const search = async (
      filter: AuditFilter,
      query: Record<string, string | number | boolean> = {},
      authorization = admin,
    ) => {
      const params = new URLSearchParams(
        Object.entries({ startTime: started, ...query }).map(([k, v]) => [k, String(v)]),
      );
      return callAs(
        base,
        'POST',
        `/openapi/v1/events/audit/search?${params.toString()}`,
        authorization,
        filter,
      );
    };
    const events = async (filter: AuditFilter, query: Record<string, string | number> = {}) => {
      const res = await search(filter, { size: 1000, ...query });
      expect(res.status, res.text).toBe(200);
      return (res.body as AuditResponse).usageEvents;
    };
    /** Waits until the events matching `filter` satisfy `done` (the audit trail is eventually consistent). */
    const eventually = (filter: AuditFilter, done: (found: UsageEvent[]) => boolean, timeoutMs = 30_000) =>
      waitUntil(() => events(filter), done, timeoutMs);
    const gql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: admin, ...headers } });
    const ok = (res: GraphQLResponse) => {
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as Record<string, unknown>;
    };

    it('records a write through Rest.li, OpenAPI and GraphQL once each, with actor, address, agent, source and trace', async () => {
      const urn = datasetUrn(`audit_writes_${Date.now()}`);
      const restli = newTrace();
      const res = await callAs(
        base,
        'POST',
        '/aspects?action=ingestProposal',
        admin,
        { proposal: proposal(urn, 'datasetProperties', { name: 'a', customProperties: {} }) },
        { traceparent: restli.traceparent, 'User-Agent': AGENT },
      );
      expect(res.status, res.text).toBe(200);
      const openapi = newTrace();
      const put = await fetch(`${base}/openapi/v3/entity/dataset/${enc(urn)}/editableDatasetProperties`, {
        method: 'POST',
        headers: {
          Authorization: admin,
          'Content-Type': 'application/json',
          traceparent: openapi.traceparent,
          'User-Agent': AGENT,
        },
        body: JSON.stringify({ value: { description: 'audited' } }),
      });
      expect(put.status).toBe(200);
      const tag = `audit_${Date.now()}`;
      ok(await gql(`mutation { createTag(input: {id: "${tag}", name: "${tag}"}) }`, {}));
      const graph = newTrace();
      ok(
        await gql(
          `mutation { addTag(input: {tagUrn: "urn:li:tag:${tag}", resourceUrn: "${urn}"}) }`,
          {},
          { traceparent: graph.traceparent, 'User-Agent': AGENT },
        ),
      );

      const filter = { entityTypes: ['dataset'], eventTypes: ['UpdateAspectEvent'] };
      const mine = (found: UsageEvent[]) => found.filter((e) => e.entityUrn === urn);
      const written = ['datasetKey', 'datasetProperties', 'editableDatasetProperties', 'globalTags'];
      const found = mine(
        await eventually(filter, (f) => written.every((a) => mine(f).some((e) => e.aspectName === a))),
      );
      // The first write also created the entity's key aspect (and the defaults persistence derives,
      // browsePathsV2 and dataPlatformInstance): one event per aspect written, none twice.
      const aspects = found.map((e) => e.aspectName);
      expect(aspects).toEqual(expect.arrayContaining(written));
      expect(new Set(aspects).size).toBe(aspects.length);
      const expectations: [string, string, string][] = [
        ['datasetProperties', 'RESTLI', restli.traceId],
        ['editableDatasetProperties', 'OPENAPI', openapi.traceId],
        ['globalTags', 'GRAPHQL', graph.traceId],
      ];
      for (const [aspectName, eventSource, telemetryTraceId] of expectations) {
        const event = found.find((e) => e.aspectName === aspectName)!;
        expect(event).toMatchObject({
          eventType: 'UpdateAspectEvent',
          actorUrn: ROOT,
          entityUrn: urn,
          entityType: 'dataset',
          eventSource,
          telemetryTraceId,
          userAgent: AGENT,
        });
        expect(event.sourceIP).toMatch(/127\.0\.0\.1/);
        expect(event.timestamp).toBeGreaterThanOrEqual(started);
        expect(event.rawUsageEvent).toMatchObject({ type: 'UpdateAspectEvent', entityUrn: urn });
      }
      // Exactly once: a second look after the pipeline has settled finds no more.
      await new Promise((r) => setTimeout(r, 500));
      expect(mine(await events(filter))).toHaveLength(found.length);
    });

    it('records tokens created and revoked, and policies created, updated and deleted', async () => {
      const name = `audited token ${Date.now()}`;
      const trace = newTrace();
      const created = ok(
        await gql(
          `mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken metadata { id } } }`,
          { input: { type: 'PERSONAL', actorUrn: ROOT, duration: 'ONE_DAY', name } },
          { traceparent: trace.traceparent },
        ),
      ) as { createAccessToken: { metadata: { id: string } } };
      const tokenUrn = `urn:li:dataHubAccessToken:${created.createAccessToken.metadata.id}`;
      ok(
        await gql(`mutation($id: String!) { revokeAccessToken(tokenId: $id) }`, {
          id: created.createAccessToken.metadata.id,
        }),
      );

      const input = {
        type: 'METADATA',
        name: `audited policy ${Date.now()}`,
        state: 'ACTIVE',
        privileges: ['EDIT_ENTITY'],
        resources: { type: 'dataset', allResources: true },
        actors: { users: [ROOT], allUsers: false, allGroups: false, resourceOwners: false },
      };
      const policy = ok(
        await gql(`mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }`, { input }),
      ) as { createPolicy: string };
      const policyUrn = policy.createPolicy;
      ok(
        await gql(
          `mutation($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }`,
          {
            urn: policyUrn,
            input: { ...input, description: 'changed' },
          },
        ),
      );
      ok(await gql(`mutation { deletePolicy(urn: "${policyUrn}") }`, {}));

      const tokenEvents = (found: UsageEvent[]) => found.filter((e) => e.entityUrn === tokenUrn);
      const tokens = tokenEvents(
        await eventually(
          { eventTypes: ['CreateAccessTokenEvent', 'RevokeAccessTokenEvent'] },
          (f) => tokenEvents(f).length >= 2,
        ),
      );
      expect(tokens.map((e) => e.eventType).sort()).toEqual([
        'CreateAccessTokenEvent',
        'RevokeAccessTokenEvent',
      ]);
      expect(tokens.find((e) => e.eventType === 'CreateAccessTokenEvent')).toMatchObject({
        actorUrn: ROOT,
        entityType: 'dataHubAccessToken',
        aspectName: 'dataHubAccessTokenKey',
        eventSource: 'GRAPHQL',
        telemetryTraceId: trace.traceId,
      });

      const policyEvents = (found: UsageEvent[]) => found.filter((e) => e.entityUrn === policyUrn);
      const policies = policyEvents(
        await eventually({ entityTypes: ['dataHubPolicy'] }, (f) =>
          policyEvents(f).some((e) => e.eventType === 'DeletePolicyEvent'),
        ),
      );
      const types = policies.map((e) => e.eventType);
      expect(types.filter((t) => t === 'CreatePolicyEvent')).toHaveLength(1);
      // The info aspect written at creation and at the update.
      expect(types.filter((t) => t === 'UpdatePolicyEvent')).toHaveLength(2);
      expect(types.filter((t) => t === 'DeletePolicyEvent')).toHaveLength(1);
      expect(policies.filter((e) => e.actorUrn !== ROOT || e.eventSource !== 'GRAPHQL')).toEqual([]);
    });

    it('records a sign-up as the system user, and logins and failed logins with their source', async () => {
      const email = `audit_${Date.now()}@example.com`;
      const userUrn = `urn:li:corpuser:${email}`;
      const invite = ok(await gql('mutation { createInviteToken(input: {}) { inviteToken } }', {})) as {
        createInviteToken: { inviteToken: string };
      };
      const signUp = await callAs(base, 'POST', '/signUp', undefined, {
        fullName: 'Audited User',
        email,
        password: 'an audited password',
        inviteToken: invite.createInviteToken.inviteToken,
        title: 'Engineer',
      });
      expect(signUp.status, signUp.text).toBe(200);
      const trace = newTrace();
      const login = await callAs(
        base,
        'POST',
        '/logIn',
        undefined,
        { username: email, password: 'an audited password' },
        { traceparent: trace.traceparent, 'User-Agent': AGENT },
      );
      expect(login.status, login.text).toBe(200);
      const failed = await callAs(base, 'POST', '/logIn', undefined, { username: email, password: 'wrong' });
      expect(failed.status).toBe(400);

      const user = (found: UsageEvent[]) => found.filter((e) => e.entityUrn === userUrn);
      const changes = user(
        await eventually({ eventTypes: ['CreateUserEvent', 'UpdateUserEvent'] }, (f) =>
          ['corpUserKey', 'corpUserInfo', 'corpUserStatus', 'corpUserCredentials'].every((a) =>
            user(f).some((e) => e.aspectName === a),
          ),
        ),
      );
      expect(changes.find((e) => e.aspectName === 'corpUserKey')).toMatchObject({
        eventType: 'CreateUserEvent',
        actorUrn: SYSTEM,
        entityType: 'corpuser',
      });
      expect(changes.filter((e) => e.eventType === 'CreateUserEvent')).toHaveLength(1);
      expect(changes.find((e) => e.aspectName === 'corpUserInfo')?.eventType).toBe('UpdateUserEvent');

      const logins = await eventually(
        { actorUrns: [userUrn], eventTypes: ['LogInEvent', 'FailedLogInEvent'] },
        (f) =>
          f.some((e) => e.eventType === 'FailedLogInEvent') &&
          f.some((e) => e.telemetryTraceId === trace.traceId),
      );
      expect(logins.find((e) => e.telemetryTraceId === trace.traceId)).toMatchObject({
        eventType: 'LogInEvent',
        actorUrn: userUrn,
        loginSource: 'PASSWORD_LOGIN',
        userAgent: AGENT,
      });
      // The sign-up logs the new user in as well.
      expect(logins.some((e) => e.loginSource === 'SIGN_UP_LINK_LOGIN')).toBe(true);
      expect(logins.filter((e) => e.eventType === 'FailedLogInEvent')).toEqual([
        expect.objectContaining({ actorUrn: userUrn, loginSource: 'PASSWORD_LOGIN' }),
      ]);
    });

    it('records ingestion sources created and updated', async () => {
      const input = {
        name: 'audited source',
        type: 'mysql',
        schedule: { interval: '0 5 * * *', timezone: 'UTC' },
        config: { recipe: JSON.stringify({ source: { type: 'mysql', config: {} } }), executorId: 'default' },
      };
      const created = ok(
        await gql('mutation($input: UpdateIngestionSourceInput!) { createIngestionSource(input: $input) }', {
          input,
        }),
      ) as { createIngestionSource: string };
      const urn = created.createIngestionSource;
      ok(
        await gql(
          'mutation($urn: String!, $input: UpdateIngestionSourceInput!) { updateIngestionSource(urn: $urn, input: $input) }',
          { urn, input: { ...input, name: 'renamed source' } },
        ),
      );
      const mine = (found: UsageEvent[]) => found.filter((e) => e.entityUrn === urn);
      const found = mine(
        await eventually({ entityTypes: ['dataHubIngestionSource'] }, (f) => mine(f).length >= 3),
      );
      expect(found.map((e) => e.eventType).sort()).toEqual([
        'CreateIngestionSourceEvent',
        'UpdateIngestionSourceEvent',
        'UpdateIngestionSourceEvent',
      ]);
    });

    it('filters by every field, OR within a list and AND across lists, newest first', async () => {
      const all = await events({});
      expect(all.length).toBeGreaterThan(10);
      const times = all.map((e) => e.timestamp);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const cases: AuditFilter[] = [
        { eventTypes: ['UpdateAspectEvent'] },
        { eventTypes: ['LogInEvent', 'CreateUserEvent'] },
        { entityTypes: ['dataset', 'dataHubPolicy'] },
        { aspectTypes: ['globalTags'] },
        { actorUrns: [SYSTEM] },
        { actorUrns: [ROOT], entityTypes: ['dataset'], aspectTypes: ['datasetProperties', 'globalTags'] },
        { eventTypes: ['UpdateUserEvent'], actorUrns: [ROOT] },
        { eventTypes: [], entityTypes: [], aspectTypes: [], actorUrns: [] },
      ];
      const holds = (list: string[] | undefined, value: string | undefined) =>
        list === undefined || list.length === 0 || (value !== undefined && list.includes(value));
      for (const filter of cases) {
        const found = await events(filter, { endTime: all[0]!.timestamp + 1 });
        const expected = all.filter(
          (e) =>
            holds(filter.eventTypes, e.eventType) &&
            holds(filter.entityTypes, e.entityType) &&
            holds(filter.aspectTypes, e.aspectName) &&
            holds(filter.actorUrns, e.actorUrn),
        );
        expect(found, JSON.stringify(filter)).toEqual(expected);
      }
    });

    it('leaves the raw event out with includeRaw=false', async () => {
      const withRaw = await search({}, { size: 3 });
      expect((withRaw.body as AuditResponse).usageEvents.every((e) => e.rawUsageEvent !== undefined)).toBe(
        true,
      );
      const without = await search({}, { size: 3, includeRaw: false });
      expect(without.status).toBe(200);
      const found = (without.body as AuditResponse).usageEvents;
      expect(found).toHaveLength(3);
      expect(found.every((e) => e.rawUsageEvent === undefined)).toBe(true);
    });

    it('scrolls across 25 pages while writes continue, never repeating or skipping an event', async () => {
      const prefix = `audit_scroll_${Date.now()}`;
      const write = (i: number) =>
        callAs(base, 'POST', '/aspects?action=ingestProposal', admin, {
          proposal: proposal(datasetUrn(`${prefix}_${i}`), 'datasetProperties', {
            name: `s${i}`,
            customProperties: {},
          }),
        });
      for (let i = 0; i < 55; i++) expect((await write(i)).status).toBe(200);
      const filter = { aspectTypes: ['datasetProperties'] };
      await eventually(filter, (f) => f.filter((e) => e.entityUrn?.includes(prefix)).length === 55);
      const endTime = Date.now() + 60_000;
      const before = await events(filter, { endTime });
      let writing = true;
      let extra = 55;
      const writer = (async () => {
        while (writing) expect((await write(extra++)).status).toBe(200);
      })();
      const seen: UsageEvent[] = [];
      let scrollId: string | undefined;
      let pages = 0;
      try {
        do {
          const res = await search(filter, { size: 2, endTime, ...(scrollId ? { scrollId } : {}) });
          expect(res.status, res.text).toBe(200);
          const page = res.body as AuditResponse;
          expect(page.count).toBe(page.usageEvents.length);
          seen.push(...page.usageEvents);
          scrollId = page.nextScrollId;
          pages++;
        } while (scrollId !== undefined);
      } finally {
        writing = false;
        await writer;
      }
      expect(pages).toBeGreaterThanOrEqual(25);
      const key = (e: UsageEvent) => `${e.timestamp}|${e.entityUrn}|${e.aspectName}|${e.eventType}`;
      expect(new Set(seen.map(key)).size).toBe(seen.length);
      const seenKeys = new Set(seen.map(key));
      expect(before.filter((e) => !seenKeys.has(key(e)))).toEqual([]);
      const times = seen.map((e) => e.timestamp);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('counts the total up to 10,000 and pages within it', async () => {
      const actorUrn = `urn:li:corpuser:bulk_${Date.now()}`;
      const now = Date.now();
      const bulk: AuditEvent[] = Array.from({ length: 10_050 }, (_, i) => ({
        id: `bulk-${actorUrn}-${i}`,
        eventType: 'UpdateAspectEvent',
        timestamp: now - i,
        actorUrn,
        entityUrn: datasetUrn(`bulk_${i}`),
        entityType: 'dataset',
        aspectName: 'status',
        rawUsageEvent: { type: 'UpdateAspectEvent', actorUrn },
      }));
      for (let i = 0; i < bulk.length; i += 2_000) await catalog.audit.write(bulk.slice(i, i + 2_000));
      await catalog.audit.refresh();
      const res = await search(
        { actorUrns: [actorUrn] },
        { size: 50, startTime: now - 60_000, endTime: now + 1 },
      );
      expect(res.status, res.text).toBe(200);
      const page = res.body as AuditResponse;
      expect(page.total).toBe(10_000);
      expect(page.count).toBe(50);
      expect(page.usageEvents[0]!.timestamp).toBe(now);
      expect(page.nextScrollId).toBeDefined();
    });

    it('answers bad input with 400 naming it, and a caller without the analytics privilege with 403', async () => {
      const cases: [Record<string, string | number>, AuditFilter, string][] = [
        [{ size: -1 }, {}, 'size'],
        [{ size: 10_001 }, {}, 'size'],
        [{ scrollId: 'not-a-scroll-id' }, {}, 'scrollId'],
        [{ startTime: 2_000, endTime: 1_000 }, {}, 'endTime'],
        [{}, { eventTypes: ['NoSuchEvent'] }, 'NoSuchEvent'],
      ];
      for (const [query, filter, named] of cases) {
        const res = await search(filter, query);
        expect(res.status, `${JSON.stringify(query)} ${res.text}`).toBe(400);
        expect(res.text).toContain(named);
      }
      // The default policy grants VIEW_ANALYTICS to every user: without it, a user is refused.
      const email = `noanalytics_${Date.now()}@example.com`;
      const invite = ok(await gql('mutation { createInviteToken(input: {}) { inviteToken } }', {})) as {
        createInviteToken: { inviteToken: string };
      };
      const signUp = await callAs(base, 'POST', '/signUp', undefined, {
        fullName: 'No Analytics',
        email,
        password: 'a password for this',
        inviteToken: invite.createInviteToken.inviteToken,
      });
      expect(signUp.status, signUp.text).toBe(200);
      const session = `Bearer ${await logIn(base, email, 'a password for this')}`;
      expect((await search({}, {}, session)).status).toBe(200);
      const basePolicy = {
        type: 'PLATFORM',
        name: 'All Users - Base Platform Privileges',
        state: 'ACTIVE',
        actors: { allUsers: true, allGroups: false, resourceOwners: false },
      };
      const setBase = async (privileges: string[]) =>
        ok(
          await gql(
            `mutation($input: PolicyUpdateInput!) { updatePolicy(urn: "urn:li:dataHubPolicy:7", input: $input) }`,
            { input: { ...basePolicy, privileges } },
          ),
        );
      await setBase(['GENERATE_PERSONAL_ACCESS_TOKENS']);
      try {
        const refused = await search({}, {}, session);
        expect(refused.status, refused.text).toBe(403);
        expect(refused.body).toEqual({
          error: `urn:li:corpuser:${email} is unauthorized to READ ANALYTICS.`,
        });
      } finally {
        await setBase(['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS']);
      }
    });
  });
}
