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
  type TestCatalog,
} from './harness.js';

const bearer = (token: string) => `Bearer ${token}`;

/*
 * The ecosystem's smaller OpenAPI routes, walked as a user with no role, a Reader and an administrator:
 * data platforms as entities, the platform entities write (`/openapi/v2/platform/entities/v1/`), the
 * system information (`/openapi/v1/system-info` and its parts) and the aspect count.
 */
for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`OpenAPI platform routes (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let reader: string;
    const run = Date.now().toString(36);

    async function gql<T>(authorization: string, query: string): Promise<T> {
      const res = await graphql(base, query, {}, { headers: { Authorization: authorization } });
      if (res.errors !== undefined) throw new Error(JSON.stringify(res.errors));
      return res.data as T;
    }

    async function signUp(id: string): Promise<{ urn: string; authorization: string }> {
      const { getInviteToken } = await gql<{ getInviteToken: { inviteToken: string } }>(
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

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = (await signUp(`platform_norole_${run}`)).authorization;
      const signedUp = await signUp(`platform_reader_${run}`);
      reader = signedUp.authorization;
      await gql(
        admin,
        `mutation { batchAssignRole(input: {roleUrn: "urn:li:dataHubRole:Reader", actors: ["${signedUp.urn}"]}) }`,
      );
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('reads a data platform as an entity, from the bootstrapped platform list', async () => {
      const hive = await waitUntil(
        () =>
          callAs(base, 'GET', `/openapi/v3/entity/dataplatform/${enc('urn:li:dataPlatform:hive')}`, admin),
        (r) => r.status === 200,
        30_000,
      );
      expect(hive.body).toMatchObject({
        urn: 'urn:li:dataPlatform:hive',
        dataPlatformKey: { value: { platformName: 'hive' } },
        dataPlatformInfo: { value: { name: 'hive', displayName: 'Hive', type: 'FILE_SYSTEM' } },
      });
    });

    it('writes proposals with object aspect values through /openapi/v2/platform/entities/v1/, as an administrator only', async () => {
      const urn = `urn:li:dataProduct:platform_${run}`;
      const proposals = [
        {
          entityType: 'dataProduct',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'status',
          aspect: { value: { __type: 'Status', removed: false }, contentType: 'application/json' },
        },
      ];
      for (const who of [noRole, reader]) {
        const refused = await callAs(
          base,
          'POST',
          '/openapi/v2/platform/entities/v1/?async=false',
          who,
          proposals,
        );
        expect(refused.status, refused.text).toBe(403);
      }
      const written = await callAs(
        base,
        'POST',
        '/openapi/v2/platform/entities/v1/?async=false',
        admin,
        proposals,
      );
      expect(written.status, written.text).toBe(200);
      expect(written.body).toEqual([urn]);
      const read = await callAs(base, 'GET', `/openapi/v3/entity/dataproduct/${enc(urn)}`, admin);
      expect(read.body).toMatchObject({ status: { value: { removed: false } } });
      const bad = await callAs(base, 'POST', '/openapi/v2/platform/entities/v1/', admin, [
        { ...proposals[0], entityUrn: 'not-an-urn' },
      ]);
      expect(bad.status, bad.text).toBe(400);
      expect(bad.text).toContain('not-an-urn');
    });

    it('answers the system information to an administrator only, with no secret value', async () => {
      const paths = [
        '/openapi/v1/system-info',
        '/openapi/v1/system-info/spring-components',
        '/openapi/v1/system-info/properties',
        '/openapi/v1/system-info/properties/simple',
      ];
      for (const path of paths) {
        for (const who of [noRole, reader])
          expect((await callAs(base, 'GET', path, who)).status, path).toBe(403);
        const res = await callAs(base, 'GET', path, admin);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
        expect(res.text).not.toContain('JohnSnowKnowsNothing');
      }
      const main = await callAs(base, 'GET', '/openapi/v1/system-info', admin);
      expect(main.body).toMatchObject({
        springComponents: {
          gms: { name: 'GMS', status: 'AVAILABLE' },
          maeConsumer: { status: 'AVAILABLE' },
          mceConsumer: { status: 'AVAILABLE' },
        },
      });
      expect(main.body).not.toHaveProperty('properties');
      const properties = await callAs(base, 'GET', '/openapi/v1/system-info/properties', admin);
      expect(properties.body).toMatchObject({
        totalProperties: expect.any(Number),
        propertySources: expect.any(Array),
      });
    });

    it('counts aspects for an administrator; a count of a restricted aspect names no entity', async () => {
      const res = await callAs(base, 'POST', '/aspects?action=getCount', admin, {
        aspect: 'dataPlatformInfo',
        urnLike: 'urn:li:dataPlatform:hiv%',
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ value: 1 });
      const unknown = await callAs(base, 'POST', '/aspects?action=getCount', admin, {
        aspect: 'noSuchAspect',
      });
      expect(unknown.status).toBe(400);
    });
  });
}
