import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  datasetUrn,
  ingest,
  logIn,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { grantPolicy, signUpUser } from './test-users.js';
import {
  HANG,
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from './webhook-receiver.js';

/**
 * Webhook subscriptions end to end: managed through GraphQL, delivered by the dispatcher from the
 * platform events the change event producer writes, to real HTTP destinations on loopback. Retries and
 * suspension run with short pauses (the WEBHOOK_* settings below); nothing asserts how long they take.
 */

/** Fast retries so a failing destination settles quickly; loopback destinations allowed (the embedded default). */
const DISPATCH_ENV = {
  WEBHOOK_REFRESH_MS: '100',
  WEBHOOK_BACKOFF_BASE_MS: '20',
  WEBHOOK_BACKOFF_MAX_MS: '100',
  WEBHOOK_MAX_ATTEMPTS: '5',
  WEBHOOK_SUSPEND_AFTER: '2',
  WEBHOOK_STATE_FLUSH_MS: '50',
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
};

const WEBHOOK_FIELDS = `urn name url status suspendedReason consecutiveFailures lastError
  filter { urns entityTypes categories operations }
  deadLetters { webhookId entityUrn event error attempts }`;

interface WebhookView {
  urn: string;
  status: string;
  suspendedReason: string | null;
  consecutiveFailures: number;
  deadLetters: { webhookId: string; entityUrn: string; event: string; error: string; attempts: number }[];
}

interface ChangeEventBody {
  entityUrn: string;
  category: string;
  operation: string;
  modifier?: string;
}

const tagsValue = (tags: readonly string[]) => ({ tags: tags.map((t) => ({ tag: `urn:li:tag:${t}` })) });

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`webhooks (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let receiver: WebhookReceiver;
    /** Paths answered 500 while listed. */
    const down = new Set<string>();
    const run = Date.now().toString(36);

    const gql = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });
    const data = <T>(res: GraphQLResponse): T => {
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as T;
    };
    const create = async (input: Record<string, unknown>) =>
      data<{ createWebhook: { secret: string | null; webhook: WebhookView } }>(
        await gql(
          admin,
          `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${WEBHOOK_FIELDS} } } }`,
          { input },
        ),
      ).createWebhook;
    const webhook = async (urn: string) =>
      data<{ webhook: WebhookView }>(
        await gql(admin, `query($urn: String!) { webhook(urn: $urn) { ${WEBHOOK_FIELDS} } }`, { urn }),
      ).webhook;
    const tag = async (urn: string, tags: readonly string[]) => {
      const res = await ingest(base, proposal(urn, 'globalTags', tagsValue(tags)));
      expect(res.status, res.text).toBe(200);
    };
    const eventOf = (r: ReceivedWebhook) => JSON.parse(r.body) as ChangeEventBody;

    beforeAll(async () => {
      receiver = await startWebhookReceiver(
        (path, seen) => {
          if (down.has(path)) return 500;
          if (path === '/flaky') return seen < 3 ? 503 : 200;
          if (path === '/hangs') return HANG;
          if (path === '/busy') return seen < 1 ? 429 : 200;
          return 200;
        },
        (path): Record<string, string> => (path === '/busy' ? { 'Retry-After': '2' } : {}),
      );
      catalog = await startTestCatalog({ ...family.env(), ...DISPATCH_ENV });
      base = catalog.baseUrl;
      admin = `Bearer ${await logIn(base)}`;
    }, 120_000);
    afterAll(async () => {
      await catalog?.dispose();
      await receiver?.close();
    });

    it('lets only holders of the platform-settings privilege manage webhooks: a no-role user and a reader are refused and nothing is created', async () => {
      const noRole = await signUpUser(base, admin, `wh_norole_${run}@example.com`);
      const reader = await signUpUser(base, admin, `wh_reader_${run}@example.com`, 'Reader');
      for (const user of [noRole, reader]) {
        const res = await gql(
          user,
          'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }',
          { input: { name: 'mine', url: receiver.url('/refused') } },
        );
        expect(res.errors?.[0]?.extensions?.['code']).toBe(403);
        const listed = await gql(user, '{ webhooks { urn } }');
        expect(listed.errors?.[0]?.extensions?.['code']).toBe(403);
      }
      const all = data<{ webhooks: { url: string }[] }>(await gql(admin, '{ webhooks { url } }')).webhooks;
      expect(all.some((w) => w.url.endsWith('/refused'))).toBe(false);
    });

    it('refuses a destination that is not http or https, or is a link-local (metadata) address, with a 400 naming it', async () => {
      for (const [url, problem] of [
        ['ftp://example.com/hook', 'http or https'],
        ['http://169.254.169.254/latest/meta-data', 'link-local'],
        ['not a url', 'not a valid URL'],
      ] as const) {
        const res = await gql(
          admin,
          'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }',
          {
            input: { name: 'bad', url },
          },
        );
        expect(res.errors?.[0]?.extensions?.['code'], url).toBe(400);
        expect(res.errors?.[0]?.message).toContain(problem);
      }
    });

    it('signs every delivery as Standard Webhooks says (verified by the standardwebhooks package), with the given or a generated secret that is never answered again', async () => {
      const dataset = datasetUrn(`wh_signed_${run}`);
      const given = `a given secret ${run} with some length`;
      const withGiven = await create({
        name: 'given',
        url: receiver.url('/given'),
        secret: given,
        filter: { urns: [dataset] },
      });
      expect(withGiven.secret).toBeNull();
      const generated = await create({
        name: 'generated',
        url: receiver.url('/generated'),
        filter: { urns: [dataset] },
      });
      expect(generated.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      await tag(dataset, ['Signed']);
      await tag(dataset, ['Signed', 'Twice']);
      for (const path of ['/given', '/generated'])
        await waitUntil(
          async () => receiver.delivered(path).length,
          (n) => n >= 3,
          60_000,
        );

      const verifiers = {
        '/given': new Webhook(Buffer.from(given, 'utf8'), { format: 'raw' }),
        '/generated': new Webhook(generated.secret!),
      };
      for (const [path, verifier] of Object.entries(verifiers)) {
        for (const r of receiver.delivered(path)) {
          expect(r.headers['webhook-signature']).toMatch(/^v1,/);
          const verified = verifier.verify(r.body, r.headers) as ChangeEventBody;
          expect(verified.entityUrn).toBe(dataset);
        }
        // A wrong key does not verify: the check above can fail.
        const other = new Webhook(Buffer.from('some other secret entirely'), { format: 'raw' });
        expect(() =>
          other.verify(receiver.delivered(path)[0]!.body, receiver.delivered(path)[0]!.headers),
        ).toThrow();
      }
      // The same event to two subscriptions: two different webhook ids.
      const ids = (path: string) => new Set(receiver.delivered(path).map((r) => r.headers['webhook-id']));
      expect([...ids('/given')].some((id) => ids('/generated').has(id))).toBe(false);

      const listing = await gql(admin, `{ webhooks { ${WEBHOOK_FIELDS} } }`);
      const text = JSON.stringify(listing);
      expect(text).toContain(withGiven.webhook.urn);
      expect(text).not.toContain(given);
      expect(text).not.toContain(generated.secret!.slice('whsec_'.length));
      const single = JSON.stringify(
        await gql(admin, `query($urn: String!) { webhook(urn: $urn) { ${WEBHOOK_FIELDS} } }`, {
          urn: generated.webhook.urn,
        }),
      );
      expect(single).not.toContain(generated.secret!.slice('whsec_'.length));
      // The stored (encrypted) secret is a restricted aspect: not even an admin reads it through the entity API.
      const raw = await fetch(
        `${base}/openapi/v3/entity/webhook/${encodeURIComponent(generated.webhook.urn)}`,
        {
          headers: { Authorization: admin },
        },
      );
      expect(await raw.text()).not.toContain('webhookSecret');
    });

    it('delivers every event exactly once by webhook-id, in each entity’s order, to a destination that fails three times with 503 and then recovers', async () => {
      const datasets = [datasetUrn(`wh_flaky_a_${run}`), datasetUrn(`wh_flaky_b_${run}`)];
      await create({
        name: 'flaky',
        url: receiver.url('/flaky'),
        filter: { urns: datasets, categories: ['TAG'], operations: ['ADD'] },
      });
      const tags = ['T0', 'T1', 'T2', 'T3', 'T4'];
      for (let i = 0; i < tags.length; i += 1) for (const d of datasets) await tag(d, tags.slice(0, i + 1));

      await waitUntil(
        async () => receiver.delivered('/flaky').length,
        (n) => n >= datasets.length * tags.length,
        60_000,
      );
      const attempts = receiver.received.filter((r) => r.path === '/flaky');
      expect(attempts.slice(0, 3).map((r) => r.status)).toEqual([503, 503, 503]);
      // Retries carry the id of the first attempt.
      expect(new Set(attempts.slice(0, 4).map((r) => r.headers['webhook-id'])).size).toBe(1);
      const delivered = receiver.delivered('/flaky');
      const byId = new Map<string, number>();
      for (const r of delivered)
        byId.set(r.headers['webhook-id']!, (byId.get(r.headers['webhook-id']!) ?? 0) + 1);
      expect([...byId.values()].every((n) => n === 1)).toBe(true);
      expect(byId.size).toBe(datasets.length * tags.length);
      for (const d of datasets) {
        const order = delivered
          .map(eventOf)
          .filter((e) => e.entityUrn === d)
          .map((e) => e.modifier);
        expect(order).toEqual(tags.map((t) => `urn:li:tag:${t}`));
      }
    });

    it('waits as long as a 429’s Retry-After asks before the next attempt', async () => {
      const dataset = datasetUrn(`wh_busy_${run}`);
      await create({
        name: 'busy',
        url: receiver.url('/busy'),
        filter: { urns: [dataset], categories: ['TAG'] },
      });
      await tag(dataset, ['B0']);
      await waitUntil(
        async () => receiver.delivered('/busy').length,
        (n) => n >= 1,
        60_000,
      );
      const [refused, accepted] = receiver.received.filter((r) => r.path === '/busy');
      expect(refused!.status).toBe(429);
      expect(accepted!.headers['webhook-id']).toBe(refused!.headers['webhook-id']);
      // The backoff alone would have waited at most WEBHOOK_BACKOFF_MAX_MS (100 ms).
      expect(accepted!.at - refused!.at).toBeGreaterThanOrEqual(1_900);
    });

    it('suspends a subscription that keeps failing and says so, keeps its dead letters with the last error, and after a resume delivers what came meanwhile and replays the dead letters', async () => {
      const dataset = datasetUrn(`wh_down_${run}`);
      down.add('/down');
      const { webhook: created } = await create({
        name: 'down',
        url: receiver.url('/down'),
        filter: { urns: [dataset], categories: ['TAG'] },
      });
      await tag(dataset, ['D0']);
      await tag(dataset, ['D0', 'D1']);
      const suspended = await waitUntil(
        () => webhook(created.urn),
        (w) => w.status === 'SUSPENDED',
        60_000,
      );
      expect(suspended.suspendedReason).toContain('destination answered 500');
      expect(suspended.deadLetters.map((d) => d.error)).toEqual([
        'destination answered 500',
        'destination answered 500',
      ]);
      expect(suspended.deadLetters.every((d) => d.attempts === 5)).toBe(true);
      expect(suspended.deadLetters.map((d) => (JSON.parse(d.event) as ChangeEventBody).modifier)).toEqual([
        'urn:li:tag:D0',
        'urn:li:tag:D1',
      ]);
      const attemptsWhenSuspended = receiver.received.filter((r) => r.path === '/down').length;
      expect(attemptsWhenSuspended).toBe(10);

      // Written while suspended: held, not skipped.
      await tag(dataset, ['D0', 'D1', 'D2']);
      down.delete('/down');
      data(
        await gql(admin, 'mutation($urn: String!) { resumeWebhook(urn: $urn) { status } }', {
          urn: created.urn,
        }),
      );
      await waitUntil(
        async () =>
          receiver
            .delivered('/down')
            .map(eventOf)
            .map((e) => e.modifier),
        (m) => m.includes('urn:li:tag:D2'),
        60_000,
      );
      const replayed = data<{ replayWebhookDeadLetters: number }>(
        await gql(admin, 'mutation($urn: String!) { replayWebhookDeadLetters(urn: $urn) }', {
          urn: created.urn,
        }),
      ).replayWebhookDeadLetters;
      expect(replayed).toBe(2);
      await waitUntil(
        async () => receiver.delivered('/down').length,
        (n) => n >= 3,
        60_000,
      );
      const after = await waitUntil(
        () => webhook(created.urn),
        (w) => w.deadLetters.length === 0,
        60_000,
      );
      expect(after.status).toBe('ACTIVE');
      const modifiers = receiver
        .delivered('/down')
        .map(eventOf)
        .map((e) => e.modifier);
      expect(modifiers.sort()).toEqual(['urn:li:tag:D0', 'urn:li:tag:D1', 'urn:li:tag:D2']);
      // Replayed with the ids they had.
      const deadIds = suspended.deadLetters.map((d) => d.webhookId);
      const deliveredIds = receiver.delivered('/down').map((r) => r.headers['webhook-id']);
      for (const id of deadIds) expect(deliveredIds).toContain(id);
    });

    it('holds events while paused and delivers them on resume, to the url an update gave; testWebhook sends one signed message; a deleted webhook is gone', async () => {
      const dataset = datasetUrn(`wh_pause_${run}`);
      const { webhook: created, secret } = await create({
        name: 'paused',
        url: receiver.url('/before-update'),
        filter: { urns: [dataset], categories: ['TAG'] },
      });
      const paused = data<{ pauseWebhook: { status: string } }>(
        await gql(admin, 'mutation($urn: String!) { pauseWebhook(urn: $urn) { status } }', {
          urn: created.urn,
        }),
      );
      expect(paused.pauseWebhook.status).toBe('PAUSED');
      const updated = data<{ updateWebhook: { url: string; status: string } }>(
        await gql(
          admin,
          'mutation($input: UpdateWebhookInput!) { updateWebhook(input: $input) { url status } }',
          {
            input: { urn: created.urn, url: receiver.url('/after-update') },
          },
        ),
      );
      expect(updated.updateWebhook).toEqual({ url: receiver.url('/after-update'), status: 'PAUSED' });
      await tag(dataset, ['P0']);
      data(
        await gql(admin, 'mutation($urn: String!) { resumeWebhook(urn: $urn) { status } }', {
          urn: created.urn,
        }),
      );
      await waitUntil(
        async () => receiver.delivered('/after-update').length,
        (n) => n >= 1,
        60_000,
      );
      expect(eventOf(receiver.delivered('/after-update')[0]!).modifier).toBe('urn:li:tag:P0');
      expect(receiver.received.filter((r) => r.path === '/before-update')).toEqual([]);

      const tested = data<{ testWebhook: { delivered: boolean; statusCode: number; error: string | null } }>(
        await gql(
          admin,
          'mutation($urn: String!) { testWebhook(urn: $urn) { delivered statusCode error } }',
          {
            urn: created.urn,
          },
        ),
      );
      expect(tested.testWebhook).toEqual({ delivered: true, statusCode: 200, error: null });
      const test = receiver
        .delivered('/after-update')
        .find((r) => r.headers['webhook-id']!.startsWith('msg_test_'))!;
      expect(new Webhook(secret!).verify(test.body, test.headers)).toMatchObject({ type: 'webhook.test' });

      expect(
        data<{ deleteWebhook: boolean }>(
          await gql(admin, 'mutation($urn: String!) { deleteWebhook(urn: $urn) }', { urn: created.urn }),
        ).deleteWebhook,
      ).toBe(true);
      const listed = data<{ webhooks: { urn: string }[] }>(await gql(admin, '{ webhooks { urn } }')).webhooks;
      expect(listed.map((w) => w.urn)).not.toContain(created.urn);
      const gone = await gql(admin, 'query($urn: String!) { webhook(urn: $urn) { urn } }', {
        urn: created.urn,
      });
      expect(gone.errors?.[0]?.extensions?.['code']).toBe(404);
    });

    it('keeps delivering to one subscription while another one’s destination does not answer', async () => {
      const datasets = [datasetUrn(`wh_slow_a_${run}`), datasetUrn(`wh_slow_b_${run}`)];
      const filter = { urns: datasets, categories: ['TAG'] };
      await create({ name: 'hangs', url: receiver.url('/hangs'), filter });
      await create({ name: 'answers', url: receiver.url('/answers'), filter });
      await tag(datasets[0]!, ['S0']);
      await waitUntil(
        async () => receiver.hung.has('/hangs'),
        (hung) => hung,
        60_000,
      );
      for (let i = 1; i <= 3; i += 1) for (const d of datasets) await tag(d, [`S${i}`]);
      // 7 events, while the other destination still holds its first request (WEBHOOK_TIMEOUT_MS is 10 s).
      await waitUntil(
        async () => receiver.delivered('/answers').length,
        (n) => n >= 7,
        60_000,
      );
      expect(receiver.received.filter((r) => r.path === '/hangs')).toEqual([]);
    });

    it('delivers nothing about entities the creator may not read', async () => {
      const manager = await signUpUser(base, admin, `wh_settings_${run}@example.com`);
      // The privilege to manage webhooks.
      data(
        await gql(admin, 'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }', {
          input: {
            type: 'PLATFORM',
            name: `webhook managers ${run}`,
            state: 'ACTIVE',
            privileges: ['MANAGE_GLOBAL_SETTINGS'],
            actors: {
              users: [`urn:li:corpuser:wh_settings_${run}@example.com`],
              allUsers: false,
              allGroups: false,
              resourceOwners: false,
            },
          },
        }),
      );
      const readable = datasetUrn(`wh_readable_${run}`);
      const hidden = datasetUrn(`wh_hidden_${run}`);
      // Every user reads every entity by the default policies: that one goes (the last test of the file),
      // and the manager may read only `readable`.
      data(await gql(admin, 'mutation { deletePolicy(urn: "urn:li:dataHubPolicy:view-entity-page-all") }'));
      await grantPolicy(base, admin, {
        privileges: ['VIEW_ENTITY_PAGE'],
        users: [`urn:li:corpuser:wh_settings_${run}@example.com`],
        resources: [readable],
      });
      const res = data<{ createWebhook: { webhook: WebhookView } }>(
        await gql(
          manager,
          'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { urn } } }',
          {
            input: { name: 'limited', url: receiver.url('/limited'), filter: { urns: [readable, hidden] } },
          },
        ),
      );
      expect(res.createWebhook.webhook.urn).toMatch(/^urn:li:webhook:/);
      // The admin's subscription, which may read it, receives the hidden entity's event.
      await create({ name: 'control', url: receiver.url('/control'), filter: { urns: [hidden] } });
      await tag(hidden, ['Hidden']);
      await tag(readable, ['Seen']);
      await waitUntil(
        async () => receiver.delivered('/control').length,
        (n) => n >= 1,
        60_000,
      );
      await waitUntil(
        async () => receiver.delivered('/limited').length,
        (n) => n >= 1,
        60_000,
      );
      // Wait until the subscription has passed every platform event there is (the hidden one too).
      const topic = catalog.topics.platformEvent;
      await waitUntil(
        async () => {
          const ends = await catalog.log.offsets(topic);
          const [state] = await catalog.store.getLatest(res.createWebhook.webhook.urn, [
            'webhookDeliveryState',
          ]);
          const positions =
            (state?.value as { positions?: Record<string, string> } | undefined)?.positions ?? {};
          return ends.every((p) => BigInt(positions[String(p.partition)] ?? '-1') >= BigInt(p.end));
        },
        (passed) => passed,
        60_000,
      );
      const urns = receiver
        .delivered('/limited')
        .map(eventOf)
        .map((e) => e.entityUrn);
      expect(urns).toContain(readable);
      expect(urns).not.toContain(hidden);
    });
  });
}
