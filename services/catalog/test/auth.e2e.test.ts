import { decodePlatformEvent } from '@catalog/events';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  datasetUrn,
  enc,
  logIn,
  personalAccessToken,
  proposal,
  request,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type TestCatalog,
  callAs,
} from './harness.js';

/** The token signing key at its published default (the catalog under test keeps it). */
const DEFAULT_SIGNING_KEY = 'WnEdIeTG/VVCLQqGwC/BAkqyY0k+H8NEAtWGejrBI94=';
const ISSUER = 'datahub-metadata-service';

const bearer = (token: string) => `Bearer ${token}`;
const whoAmI = async (base: string, authorization: string) =>
  callAs(base, 'GET', '/openapi/operations/identity/user/urn', authorization);

/** A token signed with the catalog's default key, with any claims (for expiry and claim tests). */
async function signed(claims: Record<string, unknown>, expiresAt?: number): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setSubject('datahub');
  if (expiresAt !== undefined) jwt = jwt.setExpirationTime(Math.floor(expiresAt / 1000));
  return jwt.sign(new TextEncoder().encode(DEFAULT_SIGNING_KEY));
}

async function gql(
  base: string,
  authorization: string,
  query: string,
  variables: Record<string, unknown> = {},
) {
  return graphql(base, query, variables, { headers: { Authorization: authorization } });
}

/** Signs up a new native user through an invite token the root user creates; returns its session. */
async function signUp(base: string, admin: string, email: string, password: string): Promise<string> {
  const invite = await gql(base, admin, 'mutation { createInviteToken(input: {}) { inviteToken } }');
  expect(invite.errors).toBeUndefined();
  const token = (invite.data as { createInviteToken: { inviteToken: string } }).createInviteToken.inviteToken;
  const res = await callAs(base, 'POST', '/signUp', undefined, {
    fullName: 'Test User',
    email,
    password,
    inviteToken: token,
    title: 'Engineer',
  });
  expect(res.status, res.text).toBe(200);
  return logIn(base, email, password);
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`authentication and authorization (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    const dataset = datasetUrn(`auth_${Date.now()}`);

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      const seeded = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(dataset, 'datasetProperties', { name: 'auth', customProperties: {} }),
      });
      expect(seeded.status, seeded.text).toBe(200);
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('answers 401 with the ecosystem text to every interface without credentials, and serves the excluded paths', async () => {
      for (const [method, path] of [
        ['GET', `/entitiesV2/${enc(dataset)}`],
        ['GET', `/openapi/v3/entity/dataset/${enc(dataset)}`],
        ['POST', '/api/graphql'],
        ['POST', '/api/v2/graphql'],
        ['GET', '/openapi/operations/messaging/mcp/consumer/lag'],
        ['POST', '/auth/generateSessionTokenForUser'],
      ] as const) {
        const res = await callAs(
          base,
          method,
          path,
          undefined,
          method === 'POST' ? { query: '{ me { corpUser { urn } } }' } : undefined,
        );
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.text).toContain('Unauthorized to perform this action.');
      }
      expect((await callAs(base, 'GET', '/health', undefined)).status).toBe(200);
      expect((await callAs(base, 'GET', '/config', undefined)).status).toBe(200);
    });

    it("answers the web front end's health check at /admin without credentials, as clients probe it", async () => {
      const res = await callAs(base, 'GET', '/admin', undefined);
      expect(res.status).toBe(200);
      expect(res.text).toBe('GOOD');
    });

    it('refuses malformed, forged, unsigned, expired and claim-less tokens and a wrong system secret', async () => {
      const forged = await new SignJWT({
        version: '1',
        type: 'SESSION',
        actorType: 'USER',
        actorId: 'datahub',
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(ISSUER)
        .sign(new TextEncoder().encode('not-the-signing-key-at-all-0123456789'));
      const unsigned = new UnsecuredJWT({
        version: '1',
        type: 'SESSION',
        actorType: 'USER',
        actorId: 'datahub',
      })
        .setIssuer(ISSUER)
        .encode();
      const expired = await signed(
        { version: '1', type: 'SESSION', actorType: 'USER', actorId: 'datahub' },
        Date.now() - 60_000,
      );
      const claimless = await signed({ version: '1', type: 'SESSION' }, Date.now() + 60_000);
      for (const authorization of [
        'Bearer not-a-jwt',
        'Bearer ',
        bearer(forged),
        bearer(unsigned),
        bearer(expired),
        bearer(claimless),
        'Basic __datahub_system:wrong-secret',
        'Basic nobody:JohnSnowKnowsNothing',
      ]) {
        const res = await whoAmI(base, authorization);
        expect(res.status, authorization.slice(0, 40)).toBe(401);
      }
      // The same claims signed with the real key pass: the refusals above are about the credential.
      const good = await signed(
        { version: '1', type: 'SESSION', actorType: 'USER', actorId: 'datahub' },
        Date.now() + 60_000,
      );
      expect((await whoAmI(base, bearer(good))).body).toEqual({ urn: 'urn:li:corpuser:datahub' });
      expect((await whoAmI(base, SYSTEM_CLIENT_AUTHORIZATION)).body).toEqual({
        urn: 'urn:li:corpuser:__datahub_system',
      });
    });

    it('logs in the root user, mints, lists and revokes personal access tokens, and refuses a revoked one', async () => {
      expect((await whoAmI(base, admin)).body).toEqual({ urn: 'urn:li:corpuser:datahub' });
      const token = await personalAccessToken(base, { authorization: admin, name: 'revocable' });
      expect((await whoAmI(base, bearer(token))).body).toEqual({ urn: 'urn:li:corpuser:datahub' });
      const listed = await gql(
        base,
        admin,
        `query { listAccessTokens(input: {start: 0, count: 100, filters: [{field: "ownerUrn", values: ["urn:li:corpuser:datahub"]}]}) { total tokens { id name actorUrn ownerUrn createdAt expiresAt } } }`,
      );
      expect(listed.errors).toBeUndefined();
      const tokens = (listed.data as { listAccessTokens: { tokens: { id: string; name: string }[] } })
        .listAccessTokens.tokens;
      const mine = tokens.find((t) => t.name === 'revocable');
      expect(mine).toBeDefined();
      const revoked = await gql(base, admin, `mutation($id: String!) { revokeAccessToken(tokenId: $id) }`, {
        id: mine!.id,
      });
      expect(revoked.errors).toBeUndefined();
      expect(revoked.data).toEqual({ revokeAccessToken: true });
      expect((await whoAmI(base, bearer(token))).status).toBe(401);
    });

    it('lets a signed-up user read and mint its own token but not write, mint for others or grant itself policies', async () => {
      const email = `reader_${Date.now()}@example.com`;
      const userUrn = `urn:li:corpuser:${email}`;
      const session = bearer(await signUp(base, admin, email, 'a long password 1'));
      expect((await whoAmI(base, session)).body).toEqual({ urn: userUrn });
      // Reading: the default "All Users - View Entity Page" policy.
      const read = await callAs(base, 'GET', `/openapi/v3/entity/dataset/${enc(dataset)}`, session);
      expect(read.status, read.text).toBe(200);
      // Writing: no policy grants it.
      const write = await callAs(base, 'POST', '/aspects?action=ingestProposal', session, {
        proposal: proposal(dataset, 'globalTags', { tags: [{ tag: 'urn:li:tag:mine' }] }),
      });
      expect(write.status, write.text).toBe(403);
      // Its own token: GENERATE_PERSONAL_ACCESS_TOKENS for all users.
      const own = await personalAccessToken(base, { authorization: session, actorUrn: userUrn });
      expect((await whoAmI(base, bearer(own))).body).toEqual({ urn: userUrn });
      // A token for the root user: refused.
      const other = await gql(
        base,
        session,
        `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_HOUR, name: "steal"}) { accessToken } }`,
      );
      expect(other.errors?.[0]?.extensions).toMatchObject({ code: 403, type: 'UNAUTHORIZED' });
      expect(other.errors?.[0]?.message).toBe(
        'Unauthorized to perform this action. Please contact your DataHub administrator.',
      );
      // Escalation through policies: refused without MANAGE_POLICIES.
      const escalate = await gql(
        base,
        session,
        `mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }`,
        {
          input: {
            type: 'PLATFORM',
            name: 'mine',
            state: 'ACTIVE',
            privileges: ['MANAGE_POLICIES'],
            actors: { users: [userUrn], allUsers: false, allGroups: false, resourceOwners: false },
          },
        },
      );
      expect(escalate.errors?.[0]?.extensions).toMatchObject({ code: 403 });
      const edit = await gql(
        base,
        session,
        `mutation($input: PolicyUpdateInput!) { updatePolicy(urn: "urn:li:dataHubPolicy:7", input: $input) }`,
        {
          input: {
            type: 'PLATFORM',
            name: 'All Users - Base Platform Privileges',
            state: 'ACTIVE',
            privileges: ['MANAGE_POLICIES', 'MANAGE_ACCESS_TOKENS'],
            actors: { allUsers: true, allGroups: false, resourceOwners: false },
          },
        },
      );
      expect(edit.errors?.[0]?.extensions).toMatchObject({ code: 403 });
      const privileges = await gql(
        base,
        session,
        '{ me { platformPrivileges { managePolicies generatePersonalAccessTokens } } }',
      );
      expect(privileges.data).toEqual({
        me: { platformPrivileges: { managePolicies: false, generatePersonalAccessTokens: true } },
      });
    });

    it('refuses the tokens of a suspended or removed user and accepts them again after reactivation', async () => {
      const email = `suspended_${Date.now()}@example.com`;
      const userUrn = `urn:li:corpuser:${email}`;
      const session = bearer(await signUp(base, admin, email, 'another password 2'));
      const token = bearer(await personalAccessToken(base, { authorization: session, actorUrn: userUrn }));
      expect((await whoAmI(base, token)).status).toBe(200);
      const suspend = await gql(
        base,
        admin,
        `mutation { updateUserStatus(urn: "${userUrn}", status: SUSPENDED) }`,
      );
      expect(suspend.errors).toBeUndefined();
      expect((await whoAmI(base, token)).status).toBe(401);
      expect((await whoAmI(base, session)).status).toBe(401);
      const shown = await gql(base, admin, `{ corpUser(urn: "${userUrn}") { status isNativeUser } }`);
      expect(shown.data).toEqual({ corpUser: { status: 'SUSPENDED', isNativeUser: true } });
      const login = await callAs(base, 'POST', '/logIn', undefined, {
        username: email,
        password: 'another password 2',
      });
      expect(login.status).toBe(400);
      await gql(base, admin, `mutation { updateUserStatus(urn: "${userUrn}", status: ACTIVE) }`);
      expect((await whoAmI(base, token)).status).toBe(200);
      const removed = await gql(base, admin, `mutation { removeUser(urn: "${userUrn}") }`);
      expect(removed.errors).toBeUndefined();
      expect((await whoAmI(base, token)).status).toBe(401);
    });

    it('publishes logins and failed logins as platform events with their origin and an event id', async () => {
      const email = `events_${Date.now()}@example.com`;
      const userUrn = `urn:li:corpuser:${email}`;
      const session = bearer(await signUp(base, admin, email, 'fifth password 5'));
      await personalAccessToken(base, { authorization: session, actorUrn: userUrn, name: 'evented' });
      const failed = await callAs(base, 'POST', '/logIn', undefined, { username: email, password: 'wrong' });
      expect(failed.status).toBe(400);
      const seen: Record<string, unknown>[] = [];
      const consumer = await catalog.log.consume({
        groupId: `auth-events-${Date.now()}`,
        topics: [catalog.topics.platformEvent],
        fromBeginning: true,
        handler: async (batch) => {
          for (const record of batch.records) {
            const event = decodePlatformEvent(record.value);
            seen.push({ name: event.name, ...(JSON.parse(event.payload.value.toString()) as object) });
          }
        },
      });
      try {
        const mine = () => seen.filter((e) => e['actorUrn'] === userUrn || e['entityUrn'] === userUrn);
        await waitUntil(
          async () => mine().map((e) => e['name']),
          (names) => ['LogInEvent', 'FailedLogInEvent'].every((n) => names.includes(n)),
          20_000,
        );
        // The sign-up logs the user in (signUpLinkLogin); signUp() then logs in with the password.
        await waitUntil(
          async () =>
            mine()
              .filter((e) => e['name'] === 'LogInEvent')
              .map((e) => e['loginSource']),
          (sources) => sources.includes('signUpLinkLogin') && sources.includes('passwordLogin'),
          20_000,
        );
        const login = mine().find((e) => e['name'] === 'LogInEvent' && e['loginSource'] === 'passwordLogin')!;
        expect(login).toMatchObject({ actorUrn: userUrn, eventSource: 'RESTLI' });
        expect(typeof login['sourceIP']).toBe('string');
        expect(login['userAgent']).toBeTruthy();
        expect(mine().find((e) => e['name'] === 'FailedLogInEvent')).toMatchObject({
          loginSource: 'passwordLogin',
          loginDenialReason: 'INVALID_CREDENTIALS',
        });
        // Identity changes (the user, its token) reach the audit trail as change logs, not platform events.
        expect(mine().map((e) => e['name'])).not.toContain('CreateAccessTokenEvent');
        const ids = mine().map((e) => e['eventId']);
        expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
        expect(new Set(ids).size).toBe(ids.length);
      } finally {
        await consumer.stop();
      }
    });

    it('grants and revokes privileges through policies, effective at once on this node', async () => {
      const email = `editor_${Date.now()}@example.com`;
      const userUrn = `urn:li:corpuser:${email}`;
      const session = bearer(await signUp(base, admin, email, 'third password 3'));
      const tag = () =>
        callAs(base, 'POST', '/aspects?action=ingestProposal', session, {
          proposal: proposal(dataset, 'globalTags', { tags: [{ tag: `urn:li:tag:t${Date.now()}` }] }),
        });
      expect((await tag()).status).toBe(403);
      const created = await gql(
        base,
        admin,
        `mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }`,
        {
          input: {
            type: 'METADATA',
            name: `edit ${email}`,
            state: 'ACTIVE',
            privileges: ['EDIT_ENTITY'],
            resources: { type: 'dataset', allResources: true },
            actors: { users: [userUrn], allUsers: false, allGroups: false, resourceOwners: false },
          },
        },
      );
      expect(created.errors).toBeUndefined();
      const policyUrn = (created.data as { createPolicy: string }).createPolicy;
      const granted = await tag();
      expect(granted.status, granted.text).toBe(200);
      const started = Date.now();
      const deleted = await gql(base, admin, `mutation { deletePolicy(urn: "${policyUrn}") }`);
      expect(deleted.errors).toBeUndefined();
      await waitUntil(tag, (r) => r.status === 403, 5_000);
      // How long a revoked privilege kept working after the deletion answered (bounded by the test's 5 s).
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('applies policy changes made through the log (not GraphQL) once their change log is read', async () => {
      const email = `logged_${Date.now()}@example.com`;
      const userUrn = `urn:li:corpuser:${email}`;
      const session = bearer(await signUp(base, admin, email, 'sixth password 6'));
      const policyUrn = `urn:li:dataHubPolicy:log-${Date.now()}`;
      const tag = () =>
        callAs(base, 'POST', '/aspects?action=ingestProposal', session, {
          proposal: proposal(dataset, 'globalTags', { tags: [{ tag: `urn:li:tag:l${Date.now()}` }] }),
        });
      expect((await tag()).status).toBe(403);
      // Warm the policy cache, so that only the change log can refresh it before the TTL.
      const granted = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(policyUrn, 'dataHubPolicyInfo', {
          displayName: 'granted through the log',
          description: '',
          type: 'METADATA',
          state: 'ACTIVE',
          privileges: ['EDIT_ENTITY'],
          actors: { users: [userUrn], allUsers: false, allGroups: false, resourceOwners: false },
          editable: true,
        }),
      });
      expect(granted.status, granted.text).toBe(200);
      let started = Date.now();
      await waitUntil(tag, (r) => r.status === 200, 10_000);
      const grantMs = Date.now() - started;
      const revoked = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: {
          entityType: 'dataHubPolicy',
          entityUrn: policyUrn,
          changeType: 'DELETE',
          aspectName: 'dataHubPolicyKey',
        },
      });
      expect(revoked.status, revoked.text).toBe(200);
      started = Date.now();
      await waitUntil(tag, (r) => r.status === 403, 10_000);
      const revokeMs = Date.now() - started;
      console.info(
        `policy change through the change log effective after: grant ${grantMs} ms, revoke ${revokeMs} ms`,
      );
    });

    it('requires the dataset profile privilege for profile values and lets the root user read them', async () => {
      const email = `profile_${Date.now()}@example.com`;
      const session = bearer(await signUp(base, admin, email, 'fourth password 4'));
      const ask = (authorization: string) =>
        callAs(base, 'POST', '/aspects?action=getTimeseriesAspectValues', authorization, {
          urn: dataset,
          entity: 'dataset',
          aspect: 'datasetProfile',
        });
      expect((await ask(session)).status).toBe(200);
      const flip = (state: string) =>
        gql(
          base,
          admin,
          `mutation($input: PolicyUpdateInput!) { updatePolicy(urn: "urn:li:dataHubPolicy:view-dataset-sensitive", input: $input) }`,
          {
            input: {
              type: 'METADATA',
              name: 'All Users - View Dataset Sensitive Information',
              state,
              privileges: ['VIEW_DATASET_USAGE', 'VIEW_DATASET_PROFILE', 'VIEW_DATASET_OPERATIONS'],
              actors: { allUsers: true, allGroups: false, resourceOwners: false },
            },
          },
        );
      expect((await flip('INACTIVE')).errors).toBeUndefined();
      try {
        const refused = await ask(session);
        expect(refused.status, refused.text).toBe(403);
        expect((await ask(admin)).status).toBe(200);
      } finally {
        await flip('ACTIVE');
      }
    });
  });
}

describe('authentication settings', () => {
  it('refuses to start in production with the published default secrets, naming them', async () => {
    await expect(startTestCatalog({ CATALOG_ENVIRONMENT: 'production' })).rejects.toThrow(
      /DATAHUB_SYSTEM_CLIENT_SECRET[\s\S]*DATAHUB_TOKEN_SERVICE_SIGNING_KEY/,
    );
  });

  it('acts as the system client, or the X-DataHub-Actor user, with authentication off', async () => {
    const catalog = await startTestCatalog({ METADATA_SERVICE_AUTH_ENABLED: 'false' });
    try {
      expect((await whoAmI(catalog.baseUrl, undefined as unknown as string)).body).toEqual({
        urn: 'urn:li:corpuser:__datahub_system',
      });
    } finally {
      await catalog.dispose();
    }
  });

  it('skips Rest.li and OpenAPI privilege checks with REST API authorization off, but keeps GraphQL ones', async () => {
    const catalog = await startTestCatalog({ REST_API_AUTHORIZATION_ENABLED: 'false' });
    try {
      const base = catalog.baseUrl;
      const admin = bearer(await logIn(base));
      const user = bearer(await signUp(base, admin, `open_${Date.now()}@example.com`, 'seventh password 7'));
      const write = await callAs(base, 'POST', '/aspects?action=ingestProposal', user, {
        proposal: proposal(datasetUrn(`open_${Date.now()}`), 'datasetProperties', {
          name: 'open',
          customProperties: {},
        }),
      });
      expect(write.status, write.text).toBe(200);
      expect((await callAs(base, 'GET', '/entitiesV2/x', undefined)).status).toBe(401);
      const policy = await gql(base, user, `mutation { deletePolicy(urn: "urn:li:dataHubPolicy:7") }`);
      expect(policy.errors?.[0]?.extensions).toMatchObject({ code: 403 });
    } finally {
      await catalog.dispose();
    }
  });

  it('turns unauthenticated calls into the guest user when guest access is on', async () => {
    const catalog = await startTestCatalog({ GUEST_AUTHENTICATION_ENABLED: 'true' });
    try {
      expect(
        (await callAs(catalog.baseUrl, 'GET', '/openapi/operations/identity/user/urn', undefined)).body,
      ).toEqual({
        urn: 'urn:li:corpuser:guest',
      });
    } finally {
      await catalog.dispose();
    }
  });
});
