import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PolicyEngine,
  type AuthenticationChain,
  type AuthenticationInput,
  type AuthSettings,
  type PolicyRecord,
} from '@catalog/auth';
import {
  AUDIT_EVENT_TYPES,
  AUDIT_MAX_PAGE_SIZE,
  openSqliteAuditIndex,
  type AuditEvent,
  type AuditIndex,
  type SqliteAuditIndex,
} from '@catalog/search';
import { AccessPolicy } from '../../application/access-policy.js';
import { AuditSearch } from '../../application/audit-search.js';
import { authenticationMiddleware } from '../../auth/authentication-middleware.js';
import type { GatewayAuth } from '../../auth/gateway-auth.js';
import { auditEventsRouter } from './audit-search-router.js';

const logger = pino({ level: 'silent' });
const HOUR = 3_600_000;
const NOW = Date.now();
const PATH = '/openapi/v1/events/audit/search';
const user = (name: string) => `urn:li:corpuser:${name}`;
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)';

/**
 * alice may VIEW_ANALYTICS and read every entity (tokens too), carol holds MANAGE_SYSTEM_OPERATIONS,
 * dave VIEW_ANALYTICS alone, bob holds nothing.
 */
const POLICIES: PolicyRecord[] = [
  platformPolicy('analytics', ['VIEW_ANALYTICS', 'MANAGE_ACCESS_TOKENS'], user('alice')),
  platformPolicy('operations', ['MANAGE_SYSTEM_OPERATIONS'], user('carol')),
  platformPolicy('analytics-only', ['VIEW_ANALYTICS'], user('dave')),
  platformPolicy('analytics-tokenbot', ['VIEW_ANALYTICS'], user('tokenbot')),
  {
    urn: 'urn:li:dataHubPolicy:view',
    info: {
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: ['VIEW_ENTITY_PAGE'],
      resources: { allResources: true },
      actors: { users: [user('alice')] },
    },
  },
];

function platformPolicy(name: string, privileges: string[], actor: string): PolicyRecord {
  return {
    urn: `urn:li:dataHubPolicy:${name}`,
    info: { type: 'PLATFORM', state: 'ACTIVE', privileges, actors: { users: [actor] } },
  };
}

function event(
  id: string,
  eventType: string,
  hoursAgo: number,
  fields: Partial<AuditEvent> = {},
): AuditEvent {
  const timestamp = NOW - hoursAgo * HOUR;
  return {
    id,
    eventType,
    timestamp,
    actorUrn: user('jdoe'),
    rawUsageEvent: { type: eventType, timestamp, id },
    ...fields,
  };
}

const EVENTS: AuditEvent[] = [
  event('e1', 'UpdateAspectEvent', 1, {
    entityUrn: ORDERS,
    entityType: 'dataset',
    aspectName: 'ownership',
    eventSource: 'GRAPHQL',
    sourceIP: '203.0.113.7',
    userAgent: 'acryl-datahub/1.7',
    telemetryTraceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  }),
  event('e2', 'CreateUserEvent', 2, {
    actorUrn: user('__datahub_system'),
    entityUrn: user('newbie'),
    entityType: 'corpuser',
    aspectName: 'corpUserKey',
  }),
  // Same millisecond as e2: the id breaks the tie (descending).
  event('e3', 'UpdateUserEvent', 2, {
    actorUrn: user('__datahub_system'),
    entityUrn: user('newbie'),
    entityType: 'corpuser',
    aspectName: 'corpUserInfo',
  }),
  event('e4', 'LogInEvent', 3, { loginSource: 'passwordLogin', sourceIP: '198.51.100.1' }),
  event('e5', 'FailedLogInEvent', 4, {
    actorUrn: user('mallory'),
    loginSource: 'PASSWORD_LOGIN',
    loginDenialReason: 'BAD_CREDENTIALS',
  }),
  event('e6', 'LogInEvent', 5, { actorUrn: user('sso'), loginSource: 'ssoLogin' }),
  event('e6b', 'LogInEvent', 5.5, { actorUrn: user('odd'), loginSource: 'carrierPigeon' }),
  event('e9', 'DeleteEntityEvent', 6, {
    entityUrn: ORDERS,
    entityType: 'dataset',
    aspectName: 'status',
    eventSource: 'CARRIER_PIGEON',
  }),
  // Outside the default window: older than a day, and in the future.
  event('old', 'UpdatePolicyEvent', 25, { entityType: 'dataHubPolicy', aspectName: 'dataHubPolicyInfo' }),
  event('future', 'UpdatePolicyEvent', -1, { entityType: 'dataHubPolicy', aspectName: 'dataHubPolicyInfo' }),
  // 25 token events for scrolling, one second apart.
  ...Array.from({ length: 25 }, (_, i) =>
    event(`t${String(i).padStart(2, '0')}`, 'CreateAccessTokenEvent', 10 + i / 3600, {
      actorUrn: user('tokenbot'),
      entityUrn: `urn:li:dataHubAccessToken:${i}`,
      entityType: 'dataHubAccessToken',
      aspectName: 'dataHubAccessTokenKey',
    }),
  ),
];
const IN_WINDOW = EVENTS.filter((e) => e.timestamp >= NOW - 24 * HOUR && e.timestamp < NOW);

let audit: SqliteAuditIndex;
const servers: Server[] = [];
let base: string;

/** The slice behind the real authentication middleware and policy engine; `Bearer <name>` acts as that user. */
async function serve(index: AuditIndex, restApiAuthorization = true): Promise<string> {
  const chain = {
    authenticate: async (input: AuthenticationInput) => {
      const name = /^Bearer (\w+)$/.exec(input.authorization ?? '')?.[1];
      if (name === undefined) return { ok: false as const, reason: 'no credentials' };
      const isSystem = name === 'system';
      const actorId = isSystem ? '__datahub_system' : name;
      return {
        ok: true as const,
        authentication: { actorUrn: user(actorId), actorId, method: 'session-token' as const, isSystem },
      };
    },
  } as unknown as AuthenticationChain;
  const authorizer = new PolicyEngine({
    policies: { listPolicies: async () => POLICIES },
    actors: {
      actorState: async () => ({ exists: true, removed: false, suspended: false, groups: [], roles: [] }),
    },
    resources: {
      resourceAttributes: async (urn) => ({
        urn,
        type: '',
        owners: [],
        domains: [],
        containers: [],
        tags: [],
        glossaryTerms: [],
        dataPlatformInstances: [],
      }),
    },
    refreshIntervalMs: 60_000,
  });
  const auth = {
    settings: { restApiAuthorization } as AuthSettings,
    chain,
    authorizer,
  } as unknown as GatewayAuth;
  const app = express();
  app.use(authenticationMiddleware(auth, logger));
  app.use(
    '/openapi/v1/events/audit',
    auditEventsRouter({
      audit: new AuditSearch(index, new AccessPolicy(auth)),
      logger,
      maxBodyBytes: 1_000_000,
      now: () => NOW,
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Page {
  nextScrollId?: string;
  count: number;
  total: number;
  usageEvents: Record<string, unknown>[];
}

async function post(
  query: string,
  body?: unknown,
  options: { token?: string; url?: string; rawBody?: string } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${options.url ?? base}${PATH}${query}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${options.token ?? 'alice'}`,
      ...(body === undefined && options.rawBody === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(options.rawBody !== undefined
      ? { body: options.rawBody }
      : body === undefined
        ? {}
        : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function page(query: string, body?: unknown): Promise<Page> {
  const { status, json } = await post(query, body);
  expect(status, JSON.stringify(json)).toBe(200);
  return json as unknown as Page;
}

/** The ids (from rawUsageEvent) of a page, in order. */
const ids = (p: Page) => p.usageEvents.map((e) => (e['rawUsageEvent'] as { id: string }).id);
const newestFirst = (events: readonly AuditEvent[]) =>
  [...events].sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));

beforeAll(async () => {
  audit = openSqliteAuditIndex({ file: ':memory:' });
  await audit.ensure();
  await audit.write(EVENTS);
  base = await serve(audit);
});

afterAll(async () => {
  for (const server of servers) server.close();
  await audit.close();
});

describe('POST /openapi/v1/events/audit/search', () => {
  it('answers the newest 10 events of the last 24 hours by default, without a body', async () => {
    const result = await page('');
    expect(result.count).toBe(10);
    expect(result.total).toBe(IN_WINDOW.length);
    expect(result.nextScrollId).toEqual(expect.any(String));
    expect(ids(result)).toEqual(
      newestFirst(IN_WINDOW)
        .slice(0, 10)
        .map((e) => e.id),
    );
    expect(ids(result)).not.toContain('old');
    expect(ids(result)).not.toContain('future');
  });

  it('orders newest first, ties broken by id descending', async () => {
    const result = await page('?size=100', {});
    const timestamps = result.usageEvents.map((e) => e['timestamp'] as number);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => b - a));
    expect(ids(result).slice(0, 3)).toEqual(['e1', 'e3', 'e2']);
    expect(result.count).toBe(IN_WINDOW.length);
    expect(result.nextScrollId).toBeUndefined();
  });

  it('takes an explicit window: startTime inclusive, endTime exclusive', async () => {
    const old = EVENTS.find((e) => e.id === 'old')!;
    const future = EVENTS.find((e) => e.id === 'future')!;
    expect(ids(await page(`?startTime=${old.timestamp}&endTime=${old.timestamp + 1}`))).toEqual(['old']);
    expect(ids(await page(`?startTime=${old.timestamp + 1}&endTime=${NOW - 23 * HOUR}`))).toEqual([]);
    expect(ids(await page(`?startTime=${NOW}&endTime=${future.timestamp + 1}`))).toEqual(['future']);
    // Negative startTime and non-positive endTime are the defaults.
    const defaults = await page('?startTime=-1&endTime=0&size=100');
    expect(defaults.total).toBe(IN_WINDOW.length);
    // The whole range, old and future included.
    expect((await page(`?startTime=0&endTime=${NOW + 2 * HOUR}&size=100`)).total).toBe(EVENTS.length);
  });

  it('filters by each list, ANDs the lists and ORs inside one; empty lists and unknown keys do not filter', async () => {
    const q = '?size=100';
    expect(ids(await page(q, { eventTypes: ['LogInEvent', 'FailedLogInEvent'] })).sort()).toEqual(
      ['e4', 'e5', 'e6', 'e6b'].sort(),
    );
    expect(ids(await page(q, { entityTypes: ['dataset'] }))).toEqual(['e1', 'e9']);
    expect(ids(await page(q, { aspectTypes: ['corpUserKey', 'corpUserInfo'] }))).toEqual(['e3', 'e2']);
    expect(ids(await page(q, { actorUrns: [user('jdoe')] }))).toEqual(['e1', 'e4', 'e9']);
    expect(
      ids(
        await page(q, {
          actorUrns: [user('jdoe'), user('mallory')],
          eventTypes: ['LogInEvent', 'FailedLogInEvent'],
        }),
      ),
    ).toEqual(['e4', 'e5']);
    expect(ids(await page(q, { entityTypes: ['dataset'], aspectTypes: ['ownership'] }))).toEqual(['e1']);
    const unfiltered = await page(q, {
      eventTypes: [],
      entityTypes: [],
      aspectTypes: null,
      actorUrns: [],
      somethingElse: 42,
    });
    expect(unfiltered.total).toBe(IN_WINDOW.length);
    const tokens = await page('?size=3', { eventTypes: ['CreateAccessTokenEvent'] });
    expect(tokens.total).toBe(25);
    expect(tokens.count).toBe(3);
  });

  it('scrolls through every page; the last carries no nextScrollId', async () => {
    const body = { eventTypes: ['CreateAccessTokenEvent'] };
    const seen: string[] = [];
    const counts: number[] = [];
    let scrollId: string | undefined;
    for (let i = 0; i < 10; i++) {
      const result = await page(
        `?size=10${scrollId === undefined ? '' : `&scrollId=${encodeURIComponent(scrollId)}`}`,
        body,
      );
      expect(result.total).toBe(25);
      counts.push(result.count);
      seen.push(...ids(result));
      scrollId = result.nextScrollId;
      if (scrollId === undefined) break;
      // The token looks like the ecosystem's search_after token.
      const token = JSON.parse(Buffer.from(scrollId, 'base64').toString('utf8')) as Record<string, unknown>;
      expect(token).toEqual({
        sort: [expect.any(Number), expect.any(String)],
        pitId: null,
        expirationTime: 0,
      });
    }
    expect(counts).toEqual([10, 10, 5]);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `t${String(i).padStart(2, '0')}`));
    // A page that exactly ends the matches has no nextScrollId either.
    const exact = await page('?size=25', body);
    expect(exact.count).toBe(25);
    expect(exact.nextScrollId).toBeUndefined();
  });

  it('maps each event to the response fields, raw event included unless includeRaw=false', async () => {
    const all = await page('?size=100');
    const byId = new Map(all.usageEvents.map((e) => [(e['rawUsageEvent'] as { id: string }).id, e]));
    expect(byId.get('e1')).toEqual({
      eventType: 'UpdateAspectEvent',
      timestamp: NOW - HOUR,
      actorUrn: user('jdoe'),
      sourceIP: '203.0.113.7',
      eventSource: 'GRAPHQL',
      userAgent: 'acryl-datahub/1.7',
      telemetryTraceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      entityUrn: ORDERS,
      entityType: 'dataset',
      aspectName: 'ownership',
      rawUsageEvent: { type: 'UpdateAspectEvent', timestamp: NOW - HOUR, id: 'e1' },
    });
    // An eventSource outside the enum is left out.
    expect(byId.get('e9')).not.toHaveProperty('eventSource');
    const bare = await page('?size=100&includeRaw=false');
    expect(bare.count).toBe(all.count);
    for (const e of bare.usageEvents) expect(e).not.toHaveProperty('rawUsageEvent');
    const explicit = await page('?size=1&includeRaw=true');
    expect(explicit.usageEvents[0]).toHaveProperty('rawUsageEvent');
  });

  it('answers loginSource as the enum name, and the login fields only on login events', async () => {
    const logins = await page('?size=100', { eventTypes: ['LogInEvent', 'FailedLogInEvent'] });
    const byId = new Map(logins.usageEvents.map((e) => [(e['rawUsageEvent'] as { id: string }).id, e]));
    expect(byId.get('e4')).toMatchObject({ eventType: 'LogInEvent', loginSource: 'PASSWORD_LOGIN' });
    expect(byId.get('e4')).not.toHaveProperty('loginDenialReason');
    expect(byId.get('e5')).toMatchObject({
      eventType: 'FailedLogInEvent',
      loginSource: 'PASSWORD_LOGIN',
      loginDenialReason: 'BAD_CREDENTIALS',
    });
    expect(byId.get('e6')).toMatchObject({ loginSource: 'SSO_LOGIN' });
    expect(byId.get('e6b')).not.toHaveProperty('loginSource');
    for (const e of logins.usageEvents) {
      expect(e).not.toHaveProperty('entityUrn');
      expect(e).not.toHaveProperty('aspectName');
    }
    const entity = await page('?size=1', { aspectTypes: ['ownership'] });
    expect(entity.usageEvents[0]).not.toHaveProperty('loginSource');
  });

  it.each([
    ['?size=-1', 'size'],
    ['?size=1.5', 'size'],
    ['?size=ten', 'size'],
    [`?size=${AUDIT_MAX_PAGE_SIZE + 1}`, String(AUDIT_MAX_PAGE_SIZE)],
    ['?includeRaw=yes', 'includeRaw'],
    ['?includeRaw=1', 'includeRaw'],
    ['?startTime=yesterday', 'startTime'],
    ['?endTime=now', 'endTime'],
    ['?startTime=1.5', 'startTime'],
    [`?startTime=${NOW}&endTime=${NOW - 1}`, 'endTime'],
    [`?startTime=${NOW}&endTime=${NOW - 1}`, 'startTime'],
    ['?endTime=1000', 'startTime'],
    ['?scrollId=!!!', 'Invalid scrollId'],
    [`?scrollId=${Buffer.from('not json').toString('base64')}`, 'Invalid scrollId'],
    [`?scrollId=${Buffer.from('{"sort":[1]}').toString('base64')}`, 'Invalid scrollId'],
    [`?scrollId=${Buffer.from('{"sort":["1","a"]}').toString('base64')}`, 'Invalid scrollId'],
    [`?scrollId=${Buffer.from('{"sort":[1,2]}').toString('base64')}`, 'Invalid scrollId'],
    [`?scrollId=${Buffer.from('[1,"a"]').toString('base64')}`, 'Invalid scrollId'],
  ])('answers 400 for %s, naming %s', async (query, named) => {
    const { status, json } = await post(query, {});
    expect(status).toBe(400);
    expect(String(json['error'])).toContain(named);
  });

  it.each([
    [{ eventTypes: 'LogInEvent' }, 'eventTypes'],
    [{ entityTypes: [1] }, 'entityTypes'],
    [{ aspectTypes: [{}] }, 'aspectTypes'],
    [{ actorUrns: { urn: 'x' } }, 'actorUrns'],
    [['LogInEvent'], 'object'],
    ['LogInEvent', 'object'],
  ])('answers 400 for the body %j, naming %s', async (body, named) => {
    const { status, json } = await post('', body);
    expect(status).toBe(400);
    expect(String(json['error'])).toContain(named);
  });

  it('answers 400 naming an unknown event type and listing the known ones', async () => {
    const { status, json } = await post('', { eventTypes: ['LogInEvent', 'TeleportEvent'] });
    expect(status).toBe(400);
    expect(json['error']).toContain('TeleportEvent');
    for (const type of AUDIT_EVENT_TYPES) expect(json['error']).toContain(type);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { status, json } = await post('', undefined, { rawBody: '{"eventTypes": [' });
    expect(status).toBe(400);
    expect(json['error']).toBe('Invalid JSON format');
  });

  it('needs ANALYTICS READ: 403 with the ecosystem text otherwise, unless REST API authorization is off', async () => {
    const refused = await post('', {}, { token: 'bob' });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: 'urn:li:corpuser:bob is unauthorized to READ ANALYTICS.' });
    // Refused before the request is looked at.
    expect((await post('?size=-1', {}, { token: 'bob' })).status).toBe(403);
    expect((await post('', {}, { token: 'carol' })).status).toBe(200);
    expect((await post('', {}, { token: 'system' })).status).toBe(200);
    const unauthenticated = await fetch(`${base}${PATH}`, { method: 'POST' });
    expect(unauthenticated.status).toBe(401);
    const open = await serve(audit, false);
    expect((await post('', {}, { token: 'bob', url: open })).status).toBe(200);
  });

  it('answers 503 naming the audit index when it is down, 400 when it refuses the query', async () => {
    const failing = (error: Error): AuditIndex => ({
      ensure: async () => {},
      ping: async () => {},
      write: async () => {},
      search: async () => {
        throw error;
      },
      count: async () => {
        throw error;
      },
      refresh: async () => {},
      applyRetention: async () => 0,
      close: async () => {},
    });
    const down = await serve(failing(new Error('connect ECONNREFUSED 127.0.0.1:9200')));
    const unavailable = await post('', {}, { url: down });
    expect(unavailable.status).toBe(503);
    expect(String(unavailable.json['error'])).toContain('audit index');
    const refusing = await serve(failing(new RangeError('audit search: size must be an integer')));
    const refused = await post('', {}, { url: refusing });
    expect(refused.status).toBe(400);
    expect(String(refused.json['error'])).toContain('size must be an integer');
  });

  it('leaves out the events of entities the actor may not read, keeps its logins', async () => {
    const { status, json } = await post('?size=100', {}, { token: 'dave' });
    expect(status).toBe(200);
    const seen = ids(json as unknown as Page);
    expect(seen).toEqual(expect.arrayContaining(['e4', 'e5', 'e6']));
    for (const id of ['e1', 'e2', 'e3', 'e9', 't00']) expect(seen).not.toContain(id);
    // REST API authorization off: entities are readable, access tokens still only by their managers.
    const open = await serve(audit, false);
    const opened = ids((await post('?size=100', {}, { token: 'dave', url: open })).json as unknown as Page);
    expect(opened).toEqual(expect.arrayContaining(['e1', 'e2', 'e9']));
    expect(opened).not.toContain('t00');
  });

  it("keeps the actor's own actions on entities it may not read (its own access tokens)", async () => {
    const own = ids((await post('?size=100', {}, { token: 'tokenbot' })).json as unknown as Page);
    expect(own).toEqual(expect.arrayContaining(['t00', 't24']));
    // Someone else's token events stay hidden from it.
    const other = ids((await post('?size=100', {}, { token: 'dave' })).json as unknown as Page);
    expect(other).not.toContain('t00');
  });

  it('attack: a raw event of a credentials write carries no secret material, except to the system actor', async () => {
    const secrets = openSqliteAuditIndex({ file: ':memory:' });
    await secrets.ensure();
    await secrets.write([
      event('cred', 'UpdateUserEvent', 1, {
        actorUrn: user('__datahub_system'),
        entityUrn: user('newbie'),
        entityType: 'corpuser',
        aspectName: 'corpUserCredentials',
        rawUsageEvent: {
          type: 'UpdateUserEvent',
          entityUrn: user('newbie'),
          aspectName: 'corpUserCredentials',
          aspect: { salt: 'c2FsdA==', hashedPassword: 'aGFzaA==' },
        },
      }),
    ]);
    try {
      const url = await serve(secrets);
      const asAlice = await post('', {}, { url });
      expect(asAlice.status).toBe(200);
      expect(JSON.stringify(asAlice.json)).not.toMatch(/hashedPassword|salt/);
      expect((asAlice.json as unknown as Page).usageEvents[0]?.['rawUsageEvent']).toEqual({
        type: 'UpdateUserEvent',
        entityUrn: user('newbie'),
        aspectName: 'corpUserCredentials',
      });
      const asSystem = await post('', {}, { url, token: 'system' });
      expect(JSON.stringify(asSystem.json)).toContain('hashedPassword');
    } finally {
      await secrets.close();
    }
  });
});
