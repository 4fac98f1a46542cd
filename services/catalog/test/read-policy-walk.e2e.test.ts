import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  get,
  logIn,
  personalAccessToken,
  proposal,
  request,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';
import { READ_ROUTES, type ReadRoute, type WalkRequest, type WalkSeed } from './read-policy-routes.js';

/**
 * The one read policy, walked: every read route of every interface (read-policy-routes.ts), sent as a
 * user with no role, a Reader and an Admin, must never answer with restricted material (password
 * hashes and salts, reset tokens, secret values, invite tokens: only the system actor reads those),
 * and must never show a user with no role the secret, the invite token or the access token at all.
 * Every leaking route is collected and reported by name in one assertion.
 */

/** A string that must not appear in an answer, and what it is (the report names it, never its value). */
interface Forbidden {
  readonly label: string;
  readonly value: string;
}

interface Actor {
  readonly name: string;
  readonly authorization: string;
  /** What this actor must never see. */
  readonly forbidden: readonly Forbidden[];
}

const bearer = (token: string) => `Bearer ${token}`;

/** How the report names each corpUserCredentials field found in an answer (of any user). */
const LABELS = {
  salt: 'a password salt',
  hashedPassword: 'a password hash',
  passwordResetToken: 'a stored reset token',
} as const;

/** The forms a string takes inside a body: as is, inside a JSON string, inside a JSON string of JSON, URL-encoded. */
function formsOf(value: string): string[] {
  const escaped = JSON.stringify(value).slice(1, -1);
  return [...new Set([value, escaped, JSON.stringify(escaped).slice(1, -1), encodeURIComponent(value)])];
}

async function send(base: string, authorization: string, req: WalkRequest): Promise<JsonResponse> {
  return callAs(base, req.method, req.path, authorization, req.body, { ...req.headers });
}

/** Whether the system client's answer shows that the row is a valid request (so the walk really reads). */
function answered(row: ReadRoute, res: JsonResponse): string | undefined {
  if (res.status >= 300 && res.status !== 404) return `status ${res.status}: ${res.text.slice(0, 300)}`;
  const errors = (res.body as { errors?: unknown } | undefined)?.errors;
  if (row.name.startsWith('GraphQL') && errors !== undefined)
    return `GraphQL errors: ${JSON.stringify(errors).slice(0, 300)}`;
  const rpc = res.body as { error?: unknown; result?: { isError?: boolean } } | undefined;
  if (row.name.startsWith('MCP') && (rpc?.error !== undefined || rpc?.result?.isError === true))
    return `MCP error: ${res.text.slice(0, 300)}`;
  return undefined;
}

/** The leak of one answer (a 5xx, or the labels of the forbidden strings it carries), or undefined. */
function leakOf(actor: Actor, row: ReadRoute, req: WalkRequest, res: JsonResponse): string | undefined {
  // A string the request itself names (a urn asked for, echoed by a 403) is not something it learned.
  const asked = `${decodeURIComponent(req.path)} ${JSON.stringify(req.body ?? null)}`;
  const carried = actor.forbidden
    .filter(({ value }) => !asked.includes(value))
    .filter(({ value }) => formsOf(value).some((form) => res.text.includes(form)))
    .map(({ label }) => label)
    .filter((label, i, all) => all.indexOf(label) === i);
  const problems = [...(res.status >= 500 ? [`answered ${res.status}`] : []), ...carried];
  if (problems.length === 0) return undefined;
  return `${actor.name}: ${row.name} (status ${res.status}): ${problems.join(', ')}`;
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`the read policy on every read route (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
    const seed: { -readonly [K in keyof WalkSeed]: string } = {
      user: '',
      secret: `urn:li:dataHubSecret:walk_secret_${run}`,
      invite: '',
      accessToken: '',
      dataset: datasetUrn(`walk_${run}.orders`),
      runId: `walk-run-${run}`,
    };
    const secretValue = `walk-encrypted-secret-${randomBytes(12).toString('hex')}`;
    const tokenName = `walk token ${run}`;
    const actors: Actor[] = [];
    /** Everyone's restricted material, as the system client reads it from the store. */
    const material: Forbidden[] = [];
    let plainInviteToken = '';

    async function gqlAs<T>(authorization: string, query: string, variables: Record<string, unknown> = {}) {
      const res = await graphql(base, query, variables, { headers: { Authorization: authorization } });
      if (res.errors !== undefined) throw new Error(JSON.stringify(res.errors));
      return res.data as T;
    }

    /** A native user signed up through the GMS endpoint with the invite token; its urn and session. */
    async function signUp(id: string, password: string): Promise<{ urn: string; session: string }> {
      const urn = `urn:li:corpuser:${id}`;
      const res = await callAs(base, 'POST', '/auth/signUp', SYSTEM_CLIENT_AUTHORIZATION, {
        userUrn: urn,
        fullName: id,
        email: `${id}@example.com`,
        password,
        inviteToken: plainInviteToken,
        title: 'Walker',
      });
      expect(res.status, res.text).toBe(200);
      return { urn, session: await logIn(base, id, password) };
    }

    /** The system client's read of the latest value of an aspect (the positive control: it must get it). */
    async function systemRead(urn: string, aspect: string): Promise<Record<string, unknown> | undefined> {
      const res = await get(base, `/aspects/${enc(urn)}?aspect=${aspect}&version=0`);
      if (res.status === 404) return undefined;
      expect(res.status, res.text).toBe(200);
      const values = Object.values((res.body as { aspect: Record<string, Record<string, unknown>> }).aspect);
      return values[0];
    }

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      const root = bearer(await logIn(base));

      // The invite token (its urn is the hash of the token, as the ecosystem keys it).
      plainInviteToken = (
        await gqlAs<{ getInviteToken: { inviteToken: string } }>(
          root,
          'query { getInviteToken(input: {}) { inviteToken } }',
        )
      ).getInviteToken.inviteToken;
      seed.invite = `urn:li:inviteToken:${createHash('sha256').update(plainInviteToken, 'utf8').digest('base64')}`;

      // Three native users with passwords: no role, Reader, Admin.
      const none = await signUp(`walk_none_${run}`, 'none password 1');
      const reader = await signUp(`walk_reader_${run}`, 'reader password 1');
      const admin = await signUp(`walk_admin_${run}`, 'admin password 1');
      seed.user = none.urn;
      for (const [who, role] of [
        [reader.urn, 'Reader'],
        [admin.urn, 'Admin'],
      ] as const) {
        await gqlAs(
          root,
          `mutation { batchAssignRole(input: {roleUrn: "urn:li:dataHubRole:${role}", actors: ["${who}"]}) }`,
        );
      }
      // A pending password reset of the user with no role.
      const { createNativeUserResetToken } = await gqlAs<{
        createNativeUserResetToken: { resetToken: string };
      }>(root, `mutation { createNativeUserResetToken(input: {userUrn: "${none.urn}"}) { resetToken } }`);

      // An access token of the root user, and its entity.
      const jwt = await personalAccessToken(base, { authorization: root, name: tokenName });
      const { listAccessTokens } = await gqlAs<{
        listAccessTokens: { tokens: { urn: string; name: string }[] };
      }>(
        SYSTEM_CLIENT_AUTHORIZATION,
        'query { listAccessTokens(input: {start: 0, count: 1000}) { tokens { urn name } } }',
      );
      seed.accessToken = listAccessTokens.tokens.find((t) => t.name === tokenName)?.urn ?? '';
      expect(seed.accessToken).not.toBe('');

      // A secret, written as the system (the only writer of a restricted aspect), and a dataset, in one run.
      const runMetadata = { systemMetadata: { runId: seed.runId, lastObserved: Date.now() } };
      for (const p of [
        proposal(
          seed.secret,
          'dataHubSecretValue',
          { name: `walk_secret_${run}`, value: secretValue, description: 'walk secret' },
          runMetadata,
        ),
        proposal(seed.dataset, 'datasetProperties', { name: 'orders', customProperties: {} }, runMetadata),
      ]) {
        const res = await request(base, 'POST', '/aspects?action=ingestProposal', { proposal: p });
        expect(res.status, res.text).toBe(200);
      }

      // The restricted material as the system client reads it: the positive control of the walk.
      for (const user of [none, reader, admin]) {
        const credentials = await systemRead(user.urn, 'corpUserCredentials');
        expect(credentials?.['hashedPassword'], `${user.urn} corpUserCredentials`).toEqual(
          expect.any(String),
        );
        for (const field of ['salt', 'hashedPassword', 'passwordResetToken'] as const) {
          const value = credentials?.[field];
          if (typeof value === 'string') material.push({ label: LABELS[field], value });
        }
      }
      expect(material.some((m) => m.label === LABELS.passwordResetToken)).toBe(true);
      const rootCredentials = await systemRead('urn:li:corpuser:datahub', 'corpUserCredentials');
      for (const field of ['salt', 'hashedPassword'] as const) {
        const value = rootCredentials?.[field];
        if (typeof value === 'string') material.push({ label: LABELS[field], value });
      }
      expect((await systemRead(seed.secret, 'dataHubSecretValue'))?.['value']).toBe(secretValue);
      material.push({ label: 'the secret value', value: secretValue });
      const storedInvite = (await systemRead(seed.invite, 'inviteToken'))?.['token'];
      expect(storedInvite).toEqual(expect.any(String));
      material.push({ label: 'the stored invite token', value: String(storedInvite) });
      material.push({ label: 'the issued reset token', value: createNativeUserResetToken.resetToken });
      material.push({ label: 'the access token', value: jwt });
      for (const m of material) expect(m.value.length, m.label).toBeGreaterThanOrEqual(8);

      const hidden: Forbidden[] = [
        { label: 'the secret urn', value: seed.secret },
        { label: 'the invite token urn', value: seed.invite },
        { label: 'the access token urn', value: seed.accessToken },
        { label: 'the access token name', value: tokenName },
      ];
      const invite: Forbidden = { label: 'the invite token', value: plainInviteToken };
      actors.push(
        { name: 'no role', authorization: bearer(none.session), forbidden: [...material, invite, ...hidden] },
        { name: 'Reader', authorization: bearer(reader.session), forbidden: [...material, invite] },
        { name: 'Admin', authorization: bearer(admin.session), forbidden: material },
      );

      // Roles and search documents settle before the walk: the Admin manages users, the secret is found.
      await waitUntil(
        () =>
          gqlAs<{ me: { platformPrivileges: { manageIdentities: boolean } } }>(
            bearer(admin.session),
            'query { me { platformPrivileges { manageIdentities } } }',
          ),
        (d) => d.me.platformPrivileges.manageIdentities,
        10_000,
      );
      await waitUntil(
        () =>
          callAs(base, 'POST', '/entities?action=search', bearer(reader.session), {
            entity: 'corpuser',
            input: '*',
            count: 100,
          }),
        (r) => r.status === 200 && [none, reader, admin].every((u) => r.text.includes(u.urn)),
        20_000,
      );
      await waitUntil(
        () =>
          callAs(base, 'POST', '/entities?action=search', SYSTEM_CLIENT_AUTHORIZATION, {
            entity: 'dataHubSecret',
            input: '*',
            count: 100,
          }),
        (r) => r.text.includes(seed.secret),
        20_000,
      );
      // The audit trail has the credential writes (the audit search route reads them back).
      await waitUntil(
        () =>
          callAs(base, 'POST', '/openapi/v1/events/audit/search?size=1000', SYSTEM_CLIENT_AUTHORIZATION, {}),
        (r) => r.text.includes('corpUserCredentials'),
        20_000,
      );
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('answers every read route for the system client, with corpUserCredentials among what it reads', async () => {
      const invalid: string[] = [];
      for (const row of READ_ROUTES) {
        const problem = answered(row, await send(base, SYSTEM_CLIENT_AUTHORIZATION, row.request(seed)));
        if (problem !== undefined) invalid.push(`${row.name}: ${problem}`);
      }
      expect(invalid).toEqual([]);
      const credentials = await get(base, `/entitiesV2/${enc(seed.user)}?aspects=List(corpUserCredentials)`);
      expect(credentials.text).toContain(material.find((m) => m.label === LABELS.hashedPassword)!.value);
    });

    it('never answers restricted material to a user, nor the secret, invite or access token to a user with no role', async () => {
      const leaks: string[] = [];
      for (const actor of actors) {
        for (const row of READ_ROUTES) {
          const req = row.request(seed);
          const leak = leakOf(actor, row, req, await send(base, actor.authorization, req));
          if (leak !== undefined) leaks.push(leak);
        }
      }
      expect(leaks).toEqual([]);
    });
  });
}
