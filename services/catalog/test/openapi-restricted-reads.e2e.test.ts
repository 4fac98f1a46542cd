import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  callAs,
  enc,
  logIn,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';

const bearer = (token: string) => `Bearer ${token}`;

/** Secret material as it would show in a body: the restricted aspects and the fields they hold. */
const SECRET_MATERIAL =
  /"(corpUserCredentials|hashedPassword|salt|passwordResetToken|dataHubSecretValue|inviteToken)"\s*:/;

async function gqlData<T>(base: string, authorization: string, query: string): Promise<T> {
  const res = await graphql(base, query, {}, { headers: { Authorization: authorization } });
  if (res.errors !== undefined) throw new Error(JSON.stringify(res.errors));
  return res.data as T;
}

/*
 * Reads of the OpenAPI interface by a user with no role (signed up with an invite), a Reader and an
 * administrator never carry secret material (password hashes and salts, secret values, invite tokens):
 * only the system client reads it. Lists and scrolls leave out the entities the caller may not read
 * (a secret to anyone but its managers), exactly as the single read of each refuses it.
 */
for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`OpenAPI reads of secret material (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let reader: string;
    let noRoleUrn: string;
    const run = Date.now().toString(36);
    const secretUrn = `urn:li:dataHubSecret:openapi_${run}`;
    const callers = () => [
      { who: 'a user with no role', authorization: noRole },
      { who: 'a Reader', authorization: reader },
      { who: 'an administrator', authorization: admin },
    ];

    async function signUp(id: string): Promise<{ urn: string; authorization: string }> {
      const { getInviteToken } = await gqlData<{ getInviteToken: { inviteToken: string } }>(
        base,
        admin,
        'query { getInviteToken(input: {}) { inviteToken } }',
      );
      const urn = `urn:li:corpuser:${id}`;
      const res = await callAs(base, 'POST', '/auth/signUp', SYSTEM_CLIENT_AUTHORIZATION, {
        userUrn: urn,
        fullName: id,
        email: `${id}@example.com`,
        password: `${id} password 1`,
        inviteToken: getInviteToken.inviteToken,
        title: 'Analyst',
      });
      expect(res.status, res.text).toBe(200);
      return { urn, authorization: bearer(await logIn(base, id, `${id} password 1`)) };
    }

    const get = (authorization: string, path: string) => callAs(base, 'GET', path, authorization);
    const post = (authorization: string, path: string, body: unknown) =>
      callAs(base, 'POST', path, authorization, body);
    const expectNoMaterial = (res: JsonResponse, what: string) => {
      expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
      expect(res.text, what).not.toMatch(SECRET_MATERIAL);
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      ({ urn: noRoleUrn, authorization: noRole } = await signUp(`norole_${run}`));
      const signedUp = await signUp(`reader_${run}`);
      reader = signedUp.authorization;
      await gqlData(
        base,
        admin,
        `mutation { batchAssignRole(input: {roleUrn: "urn:li:dataHubRole:Reader", actors: ["${signedUp.urn}"]}) }`,
      );
      // A stored secret, written as the catalog writes secrets: by the system client.
      const secret = await post(
        SYSTEM_CLIENT_AUTHORIZATION,
        `/openapi/v3/entity/datahubsecret/${enc(secretUrn)}/dataHubSecretValue`,
        {
          value: { name: `openapi_${run}`, value: 'ZW5jcnlwdGVkIHZhbHVl' },
        },
      );
      expect(secret.status, secret.text).toBe(200);
      // Searchable: the system client's lists carry the material (the control of every test below).
      await waitUntil(
        () =>
          get(
            SYSTEM_CLIENT_AUTHORIZATION,
            '/openapi/v3/entity/corpuser?count=100&aspects=corpUserCredentials',
          ),
        (r) => r.text.includes('hashedPassword') && r.text.includes(noRoleUrn),
        10_000,
      );
      await waitUntil(
        () => get(SYSTEM_CLIENT_AUTHORIZATION, '/openapi/v3/entity/datahubsecret?count=5'),
        (r) => r.text.includes(secretUrn),
        10_000,
      );
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('attack: GET /openapi/v3/entity/corpuser?aspects=corpUserCredentials lists no password hash, except to the system client', async () => {
      const path = '/openapi/v3/entity/corpuser?count=100&aspects=corpUserCredentials';
      for (const { who, authorization } of callers()) {
        const res = await get(authorization, path);
        expectNoMaterial(res, who);
        // The users are listed, without their credentials.
        expect(res.status).toBe(200);
        expect(res.text).toContain(noRoleUrn);
      }
      for (const path2 of [
        '/openapi/v3/entity/corpuser?count=100',
        '/openapi/v2/entity/corpuser?count=100&aspectNames=corpUserCredentials',
      ])
        for (const { who, authorization } of callers())
          expectNoMaterial(await get(authorization, path2), who);
      const system = await get(SYSTEM_CLIENT_AUTHORIZATION, path);
      expect(system.text).toContain('hashedPassword');
      expect(system.text).toContain('salt');
    });

    it('attack: GET /openapi/v3/entity/datahubsecret?count=5 answers no secret to a user with no role or a Reader, and no value to anyone but the system client', async () => {
      const path = '/openapi/v3/entity/datahubsecret?count=5';
      for (const authorization of [noRole, reader]) {
        const res = await get(authorization, path);
        expectNoMaterial(res, path);
        expect(res.text).not.toContain(secretUrn);
        // As the single read of it.
        expect((await get(authorization, `/openapi/v3/entity/datahubsecret/${enc(secretUrn)}`)).status).toBe(
          403,
        );
      }
      const managed = await get(admin, path);
      expect(managed.status).toBe(200);
      expect(managed.text).toContain(secretUrn);
      expectNoMaterial(managed, 'an administrator');
      expect((await get(SYSTEM_CLIENT_AUTHORIZATION, path)).text).toContain('dataHubSecretValue');
    });

    it('attack: the cross-entity scroll carries no credentials, secrets or invite tokens', async () => {
      const body = { entities: ['corpuser', 'dataHubSecret'], aspects: [] };
      for (const { who, authorization } of callers()) {
        const res = await post(authorization, '/openapi/v3/entity/scroll?count=100', body);
        expectNoMaterial(res, who);
        if (authorization !== admin) expect(res.text).not.toContain(secretUrn);
      }
      const invites = '/openapi/v3/entity/invitetoken?count=10';
      for (const { who, authorization } of callers())
        expectNoMaterial(await get(authorization, invites), who);
      const system = await post(SYSTEM_CLIENT_AUTHORIZATION, '/openapi/v3/entity/scroll?count=100', body);
      expect(system.text).toContain('hashedPassword');
      expect(system.text).toContain('dataHubSecretValue');
    });

    it('attack: GET /openapi/v3/entity/corpuser/<urn> and its corpUserCredentials route answer no password hash', async () => {
      for (const { who, authorization } of callers()) {
        for (const path of [
          `/openapi/v3/entity/corpuser/${enc(noRoleUrn)}`,
          `/openapi/v3/entity/corpuser/${enc(noRoleUrn)}?aspects=corpUserCredentials`,
          `/openapi/v2/entity/corpuser/${enc(noRoleUrn)}`,
          `/openapi/v3/entity/corpuser/${enc(noRoleUrn)}/corpUserCredentials`,
          `/openapi/v2/entity/corpuser/${enc(noRoleUrn)}/corpUserCredentials`,
        ])
          expectNoMaterial(await get(authorization, path), `${who} ${path}`);
      }
      const system = await get(SYSTEM_CLIENT_AUTHORIZATION, `/openapi/v3/entity/corpuser/${enc(noRoleUrn)}`);
      expect(system.text).toContain('hashedPassword');
    });

    it('attack: the batch reads (v3 batchGet, generic batchGet, v2 batch) answer no password hash', async () => {
      const item = [{ urn: noRoleUrn, corpUserCredentials: {}, corpUserInfo: {} }];
      for (const { who, authorization } of callers()) {
        expectNoMaterial(await post(authorization, '/openapi/v3/entity/corpuser/batchGet', item), who);
        expectNoMaterial(
          await post(authorization, '/openapi/v3/entity/generic/batchGet', { corpuser: item }),
          who,
        );
        expectNoMaterial(
          await post(authorization, '/openapi/v2/entity/batch/corpuser', {
            urns: [noRoleUrn],
            aspectNames: ['corpUserCredentials'],
          }),
          who,
        );
      }
      const system = await post(SYSTEM_CLIENT_AUTHORIZATION, '/openapi/v3/entity/corpuser/batchGet', item);
      expect(system.text).toContain('hashedPassword');
    });

    it('attack: the audit search shows no credentials of a sign-up in its raw events', async () => {
      for (const { who, authorization } of callers()) {
        const res = await post(authorization, '/openapi/v1/events/audit/search?size=1000&includeRaw=true', {
          aspectTypes: ['corpUserCredentials', 'dataHubSecretValue', 'inviteToken'],
        });
        expectNoMaterial(res, who);
        expect(res.text).not.toContain('ZW5jcnlwdGVkIHZhbHVl');
      }
    });
  });
}
