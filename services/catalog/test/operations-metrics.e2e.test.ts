import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import {
  callAs,
  datasetUrn,
  enc,
  ingest,
  logIn,
  personalAccessToken,
  proposal,
  SYSTEM_CLIENT_AUTHORIZATION,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

/** The sum of a metric's samples whose labels include `labels` (a name is matched exactly). */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const brace = line.indexOf('{');
    const metric = brace < 0 ? line.split(' ')[0] : line.slice(0, brace);
    if (metric !== name) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      sum += Number(line.split(' ').at(-1));
  }
  return sum;
}

const bearer = (token: string) => `Bearer ${token}`;
const ME = 'query usageProbe { me { corpUser { urn } } }';

/**
 * The operations surface on each family: `GET /actuator/prometheus` (open, as the ecosystem's), with
 * the request, usage, consumer-lag, store and index and process metrics; the consumer-lag endpoints
 * under the ecosystem's consumer group names (for MANAGE_SYSTEM_OPERATIONS only); `/config?verbose=true`
 * with `userType`; and a signed-up user minting its own access token.
 */
for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping operations metrics e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`operations metrics on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    let root: string;
    let user: { urn: string; session: string };
    const run = `om${Math.random().toString(36).slice(2, 8)}`;
    const scrape = async (authorization?: string) => {
      const res = await callAs(base, 'GET', '/actuator/prometheus', authorization);
      expect(res.status).toBe(200);
      return { text: res.text, contentType: res.contentType };
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      root = bearer(await logIn(base));
      const invite = await callAs(base, 'POST', '/api/graphql', root, {
        query: 'query { getInviteToken(input: {}) { inviteToken } }',
      });
      const inviteToken = (invite.body as { data: { getInviteToken: { inviteToken: string } } }).data
        .getInviteToken.inviteToken;
      const id = `metrics_${run}`;
      const signUp = await callAs(base, 'POST', '/auth/signUp', SYSTEM_CLIENT_AUTHORIZATION, {
        userUrn: `urn:li:corpuser:${id}`,
        fullName: id,
        email: `${id}@example.com`,
        password: 'metrics password 1',
        inviteToken,
        title: 'Operator',
      });
      expect(signUp.status, signUp.text).toBe(200);
      user = { urn: `urn:li:corpuser:${id}`, session: await logIn(base, id, 'metrics password 1') };
    });
    afterAll(async () => catalog?.dispose());

    it('serves the metrics in the text format to anyone, with no entity or user in them', async () => {
      for (const authorization of [undefined, bearer(user.session), root]) {
        const { text, contentType } = await scrape(authorization);
        expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
        expect(text).toContain('# TYPE http_server_requests_seconds histogram');
        expect(text).not.toContain('urn:li:');
      }
    });

    it('reports request latency by route template, and process memory', async () => {
      const urn = datasetUrn(`${run}.latency`);
      await callAs(base, 'GET', `/openapi/v3/entity/dataset/${enc(urn)}`, root);
      const { text } = await scrape();
      expect(
        total(text, 'http_server_requests_seconds_count', {
          method: 'GET',
          uri: '/openapi/v3/entity/{type}/{*rest}',
          status: '404',
          outcome: 'CLIENT_ERROR',
        }),
      ).toBeGreaterThanOrEqual(1);
      expect(total(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(total(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    });

    it('times the store and index calls by operation', async () => {
      const urn = datasetUrn(`${run}.timed`);
      expect((await ingest(base, proposal(urn, 'datasetProperties', { description: 'timed' }))).status).toBe(
        200,
      );
      await callAs(base, 'POST', '/entities?action=search', root, {
        entity: 'dataset',
        input: '*',
        start: 0,
        count: 1,
      });
      const { text } = await scrape();
      expect(total(text, 'catalog_store_operation_seconds_count', { outcome: 'success' })).toBeGreaterThan(0);
      expect(
        total(text, 'catalog_index_operation_seconds_count', { index: 'search', operation: 'search' }),
      ).toBeGreaterThanOrEqual(1);
    });

    it("reports each consumer group's lag under the ecosystem's names, in the metrics and the lag endpoints", async () => {
      const { text } = await scrape();
      for (const group of [
        'generic-mce-consumer-job-client',
        'generic-mae-consumer-job-client',
        'datahub-usage-event-consumer-job-client',
      ])
        expect(text).toMatch(
          new RegExp(`^messaging_consumer_lag_records\\{[^}]*consumer_group="${group}"`, 'm'),
        );
      const expected: Record<string, string> = {
        mcp: 'generic-mce-consumer-job-client',
        mcl: 'generic-mae-consumer-job-client',
        'mcl-timeseries': 'generic-mae-consumer-job-client',
        'usage-events': 'datahub-usage-event-consumer-job-client',
      };
      for (const [kind, group] of Object.entries(expected)) {
        const path = `/openapi/operations/messaging/${kind}/consumer/lag?detailed=true`;
        const lag = await callAs(base, 'GET', path, root);
        expect(lag.status, lag.text).toBe(200);
        expect(Object.keys((lag.body as { consumerGroups: object }).consumerGroups)).toEqual([group]);
        // A user without MANAGE_SYSTEM_OPERATIONS is refused; without credentials, 401.
        expect((await callAs(base, 'GET', path, bearer(user.session))).status).toBe(403);
        expect((await callAs(base, 'GET', path, undefined)).status).toBe(401);
      }
    });

    it('counts usage by actor class, API and channel: a signed-up user mints its own token and reads', async () => {
      // A signed-up user holds GENERATE_PERSONAL_ACCESS_TOKENS through the all-users policy.
      const pat = await personalAccessToken(base, {
        authorization: bearer(user.session),
        actorUrn: user.urn,
        name: `own ${run}`,
      });
      const labels = {
        usage_operation: 'metadata_query',
        request_api: 'graphql',
        actor_class: 'regular',
        auth_channel: 'pat',
      };
      const before = await scrape();
      const res = await callAs(base, 'POST', '/api/graphql', bearer(pat), {
        query: ME,
        operationName: 'usageProbe',
      });
      expect((res.body as { data: { me: { corpUser: { urn: string } } } }).data.me.corpUser.urn).toBe(
        user.urn,
      );
      const after = await waitUntil(
        () => scrape(),
        (s) =>
          total(s.text, 'datahub_request_count_total', labels) >
          total(before.text, 'datahub_request_count_total', labels),
        10_000,
      );
      const output =
        total(after.text, 'datahub_usage_output_bytes_total', labels) -
        total(before.text, 'datahub_usage_output_bytes_total', labels);
      expect(output).toBe(Buffer.byteLength(res.text));
      const input =
        total(after.text, 'datahub_usage_input_bytes_total', labels) -
        total(before.text, 'datahub_usage_input_bytes_total', labels);
      expect(input).toBe(Buffer.byteLength(JSON.stringify({ query: ME, operationName: 'usageProbe' })));
      expect(
        total(after.text, 'datahub_usage_active_identities', {
          identity_metric: 'active_users',
          actor_class: 'regular',
        }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        total(after.text, 'datahub_usage_active_identities', {
          identity_metric: 'active_readers',
          actor_class: 'regular',
        }),
      ).toBeGreaterThanOrEqual(1);
    });

    it('classifies a support user as support once its corpUserInfo says so', async () => {
      const info = await callAs(base, 'GET', `/openapi/v3/entity/corpuser/${enc(user.urn)}`, root);
      const value =
        (info.body as { corpUserInfo?: { value: Record<string, unknown> } }).corpUserInfo?.value ?? {};
      const write = await callAs(
        base,
        'POST',
        `/openapi/v3/entity/corpuser/${enc(user.urn)}/corpUserInfo?async=false&createIfNotExists=false`,
        root,
        { value: { active: true, ...value, isSupportUser: true } },
      );
      expect(write.status, write.text).toBeLessThan(300);
      const support = { usage_operation: 'metadata_query', request_api: 'graphql', actor_class: 'support' };
      await waitUntil(
        async () => {
          await callAs(base, 'POST', '/api/graphql', bearer(user.session), { query: ME });
          return total((await scrape()).text, 'datahub_request_count_total', support);
        },
        (count) => count >= 1,
        20_000,
      );
      const { text } = await scrape();
      expect(
        total(text, 'datahub_request_count_total', { ...support, auth_channel: 'session' }),
      ).toBeGreaterThanOrEqual(1);
    });

    it('throttles synchronous API writes while the manual throttle is on, for operators to switch', async () => {
      const path = '/openapi/operations/throttle/requests';
      const manual = `${path}/manual?enabled=`;
      // Who may read and switch it: no credentials or a bad token 401, an ordinary user 403.
      expect((await callAs(base, 'GET', path, undefined)).status).toBe(401);
      expect((await callAs(base, 'GET', path, 'Bearer invalid.jwt.token')).status).toBe(401);
      expect((await callAs(base, 'GET', path, bearer(user.session))).status).toBe(403);
      expect((await callAs(base, 'POST', `${manual}true`, bearer(user.session))).status).toBe(403);
      const idle = await callAs(base, 'GET', path, root);
      expect([idle.status, idle.body]).toEqual([200, {}]);
      expect((await callAs(base, 'POST', `${manual}maybe`, root)).status).toBe(400);

      const on = await callAs(base, 'POST', `${manual}true`, root);
      expect(on.body).toEqual({
        '[MANUAL]': { activeThrottles: ['MANUAL'], disabledThrottles: [], throttled: true },
      });
      expect((await callAs(base, 'GET', path, root)).body).toEqual(on.body);
      const urn = datasetUrn(`${run}.throttled`);
      const write = (description: string, query: string, userAgent: string) =>
        callAs(
          base,
          'POST',
          `/aspects?action=ingestProposal${query}`,
          root,
          { proposal: proposal(urn, 'datasetProperties', { description }) },
          { 'User-Agent': userAgent },
        );
      const held = await write('held', '', 'python-requests/2.32');
      expect(held.status, held.text).toBe(429);
      expect(
        (await callAs(base, 'GET', `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`, root)).status,
      ).toBe(404);
      // An asynchronous write only queues; a browser's edit is the UI's: neither is held back.
      expect(
        (
          await callAs(
            base,
            'POST',
            '/aspects?action=ingestProposal',
            root,
            {
              proposal: proposal(urn, 'datasetProperties', { description: 'queued' }),
              async: 'true',
            },
            { 'User-Agent': 'python-requests/2.32' },
          )
        ).status,
      ).toBe(200);
      expect((await write('from the UI', '', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0')).status).toBe(
        200,
      );

      const off = await callAs(base, 'POST', `${manual}false`, root);
      expect(off.body).toEqual({});
      expect((await write('after', '', 'python-requests/2.32')).status).toBe(200);
    });

    it('aggregates time-series values with /analytics?action=getTimeseriesStats', async () => {
      const day = 86_400_000;
      const t0 = Math.floor(Date.now() / day) * day - 3 * day + 3_600_000;
      const a = datasetUrn(`${run}.stats_a`);
      const b = datasetUrn(`${run}.stats_b`);
      const profiles: [string, number, number][] = [
        [a, t0, 10],
        [a, t0 + 60_000, 12],
        [a, t0 + day, 15],
        [b, t0, 100],
      ];
      for (const [urn, at, rowCount] of profiles) {
        const res = await ingest(
          base,
          proposal(urn, 'datasetProfile', { timestampMillis: at, rowCount, columnCount: 3 }),
        );
        expect(res.status, res.text).toBe(200);
      }
      const query = {
        entityName: 'dataset',
        aspectName: 'datasetProfile',
        filter: {
          or: [
            {
              and: [
                { field: 'timestampMillis', condition: 'GREATER_THAN_OR_EQUAL_TO', values: [String(t0)] },
              ],
            },
          ],
        },
        metrics: [
          { fieldPath: 'rowCount', aggregationType: 'LATEST' },
          { fieldPath: 'rowCount', aggregationType: 'SUM' },
        ],
        buckets: [
          { key: 'urn', type: 'STRING_GROUPING_BUCKET' },
          {
            key: 'timestampMillis',
            type: 'DATE_GROUPING_BUCKET',
            timeWindowSize: { multiple: 1, unit: 'DAY' },
          },
        ],
      };
      const ask = (authorization: string | undefined, body: unknown = query) =>
        callAs(base, 'POST', '/analytics?action=getTimeseriesStats', authorization, body);
      const answered = await waitUntil(
        async () => (await ask(root)).body as { value?: { table?: { rows?: string[][] } } },
        (body) => (body.value?.table?.rows ?? []).filter((r) => r[0] === a || r[0] === b).length === 3,
        30_000,
      );
      const table = answered.value!.table as {
        columnNames: string[];
        columnTypes: string[];
        rows: string[][];
      };
      expect(table.columnNames).toEqual(['urn', 'timestampMillis', 'latest_rowCount', 'sum_rowCount']);
      expect(table.columnTypes).toEqual(['string', 'long', 'long', 'double']);
      const dayOf = (t: number) => String(Math.floor(t / day) * day);
      expect(table.rows.filter((r) => r[0] === a || r[0] === b)).toEqual([
        [a, dayOf(t0), '12', '22'],
        [a, dayOf(t0 + day), '15', '15'],
        [b, dayOf(t0), '100', '100'],
      ]);
      expect((await ask(undefined)).status).toBe(401);
      const bad = await ask(root, {
        ...query,
        metrics: [{ fieldPath: 'nosuch', aggregationType: 'LATEST' }],
      });
      expect([bad.status, (bad.body as { message?: string }).message]).toEqual([
        400,
        'Unknown field nosuch of aspect datasetProfile',
      ]);
      expect((await ask(root, { ...query, aspectName: 'datasetProperties' })).status).toBe(400);
    });

    it('answers the analytics highlights from the login events and the search index', async () => {
      const owned = datasetUrn(`${run}.owned`);
      await ingest(
        base,
        proposal(owned, 'ownership', { owners: [{ owner: user.urn, type: 'TECHNICAL_OWNER' }] }),
      );
      await ingest(base, proposal(owned, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
      await ingest(base, proposal(datasetUrn(`${run}.bare`), 'datasetProperties', { name: 'bare' }));
      type Card = { title: string; value: number; body: string };
      const cardsAs = async (authorization: string) =>
        (
          (
            await callAs(base, 'POST', '/api/graphql', authorization, {
              query: '{ getHighlights { title value body } }',
            })
          ).body as { data: { getHighlights: Card[] } }
        ).data.getHighlights;
      const searchTotal = async (filter?: string) => {
        const res = await callAs(base, 'POST', '/entities?action=search', root, {
          entity: 'dataset',
          input: '*',
          start: 0,
          count: 0,
          ...(filter
            ? { filter: { or: [{ and: [{ field: filter, value: 'true', condition: 'EQUAL' }] }] } }
            : {}),
        });
        return (res.body as { value: { numEntities: number } }).value.numEntities;
      };
      // Once the owned dataset is indexed, the cards read the same index.
      await waitUntil(
        () => searchTotal('hasOwners'),
        (n) => n >= 1,
        30_000,
      );
      const cards = await waitUntil(
        () => cardsAs(bearer(user.session)),
        (c) => (c.find((x) => x.title === 'Datasets')?.value ?? 0) >= 2,
        30_000,
      );
      const byTitle = new Map(cards.map((c) => [c.title, c]));
      // The root user and the signed-up user logged in this week (each login is an audit event).
      expect(byTitle.get('Weekly Active Users')?.value).toBeGreaterThanOrEqual(2);
      expect(byTitle.get('Monthly Active Users')?.value).toBeGreaterThanOrEqual(2);
      const datasets = byTitle.get('Datasets')!;
      const total = await searchTotal();
      expect(datasets.value).toBe(total);
      const share = (n: number) => `${((100 * n) / total).toFixed(2)}%`;
      expect(datasets.body).toBe(
        `${share(await searchTotal('hasOwners'))} have owners, ${share(await searchTotal('hasTags'))} have tags, ` +
          `${share(await searchTotal('hasGlossaryTerms'))} have glossary terms, ` +
          `${share(await searchTotal('hasDescription'))} have description, ` +
          `${share(await searchTotal('hasDomain'))} have domain assigned!`,
      );
      expect(await searchTotal('hasOwners')).toBeGreaterThanOrEqual(1);
      // Entity types without entities have no card.
      expect(byTitle.has('Pipelines')).toBe(false);
      expect(
        (await callAs(base, 'POST', '/api/graphql', undefined, { query: '{ getHighlights { title } }' }))
          .status,
      ).toBe(401);
    });

    it('answers /config?verbose=true with userType: anonymous without credentials, user with them', async () => {
      const anonymous = await callAs(base, 'GET', '/config?verbose=true', undefined);
      expect((anonymous.body as Record<string, unknown>)['userType']).toBe('anonymous');
      for (const authorization of [bearer(user.session), root]) {
        const known = await callAs(base, 'GET', '/config?verbose=true', authorization);
        expect((known.body as Record<string, unknown>)['userType']).toBe('user');
      }
      const plain = await callAs(base, 'GET', '/config', root);
      expect(plain.body).not.toHaveProperty('userType');
    });
  });
}
