import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  logIn,
  personalAccessToken,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

const bearer = (token: string) => `Bearer ${token}`;

/** What a stored credential or token would show in a response body. */
const SECRET_MATERIAL = /hashedPassword|"salt"|\\"salt\\"|passwordResetToken|corpUserCredentials/;

/** The reads an attacker tries on a user: every GraphQL way to an entity's raw aspects. */
const USER_READS = `
  query ($urn: String!) {
    corpUser(urn: $urn) { urn isNativeUser aspects { aspectName payload } }
    entity(urn: $urn) { urn ... on CorpUser { aspects { aspectName payload } } }
    named: corpUser(urn: $urn) { aspects(input: { aspectNames: ["corpUserCredentials"] }) { payload } }
    listUsers(input: { start: 0, count: 100 }) { users { urn aspects { aspectName payload } } }
    searchAcrossEntities(input: { types: [CORP_USER], query: "*", count: 100 }) {
      searchResults { entity { urn ... on CorpUser { aspects { aspectName payload } } } }
    }
  }
`;

const TOKEN_SEARCH = `
  {
    searchAcrossEntities(input: { types: [ACCESS_TOKEN], query: "*", count: 50 }) {
      total
      searchResults { entity { urn ... on AccessTokenMetadata { name ownerUrn } } matchedFields { value } }
    }
    scrollAcrossEntities(input: { types: [ACCESS_TOKEN], query: "*", count: 50 }) {
      searchResults { entity { urn ... on AccessTokenMetadata { name } } }
    }
  }
`;

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`GraphQL reads as the actor may see them (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let reader: string;
    const run = Date.now().toString(36);
    const noRoleUrn = `urn:li:corpuser:norole_${run}@example.com`;
    const readerUrn = `urn:li:corpuser:reader_${run}@example.com`;
    const tokenName = `secret token name ${run}`;
    let tokenUrn: string;

    const ask = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });

    const userCount = (r: GraphQLResponse) =>
      (r.data?.['listUsers'] as { users: { urn: string }[] } | undefined)?.users.filter((u) =>
        [noRoleUrn, readerUrn].includes(u.urn),
      ).length ?? 0;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `norole_${run}@example.com`);
      reader = await signUpUser(base, admin, `reader_${run}@example.com`, 'Reader');
      await personalAccessToken(base, { authorization: admin, name: tokenName });
      // Both users and the token are searchable before the attacks start.
      await waitUntil(
        () => ask(SYSTEM_CLIENT_AUTHORIZATION, USER_READS, { urn: noRoleUrn }),
        (r) => userCount(r) === 2,
        15_000,
      );
      const tokens = await waitUntil(
        () => ask(admin, TOKEN_SEARCH),
        (r) => JSON.stringify(r.data).includes(tokenName),
        15_000,
      );
      const results = (
        tokens.data?.['searchAcrossEntities'] as {
          searchResults: { entity: { urn: string; name: string } }[];
        }
      ).searchResults;
      tokenUrn = results.find((r) => r.entity.name === tokenName)!.entity.urn;
    }, 60_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    for (const [who, actor] of [
      ['a no-role user', () => noRole],
      ['a Reader-role user', () => reader],
      ['an admin', () => admin],
    ] as const) {
      it(`${who} reading users through corpUser, entity, listUsers and searchAcrossEntities gets no password hash, salt or reset token`, async () => {
        for (const urn of [noRoleUrn, readerUrn, 'urn:li:corpuser:datahub']) {
          const res = await ask(actor(), USER_READS, { urn });
          expect(res.errors, urn).toBeUndefined();
          const body = JSON.stringify(res);
          expect(body, urn).not.toMatch(SECRET_MATERIAL);
          // The users are still there, with what is not secret.
          expect(userCount(res), urn).toBe(2);
          const user = res.data?.['corpUser'] as { isNativeUser: boolean; aspects: { aspectName: string }[] };
          expect(user.aspects.map((a) => a.aspectName)).toContain('corpUserInfo');
          expect(res.data?.['named']).toEqual({ aspects: [] });
          // Whether a user is native shows, though its credentials do not.
          if (urn !== 'urn:li:corpuser:datahub') expect(user.isNativeUser, urn).toBe(true);
        }
      });
    }

    it('the system client still reads a native user’s credentials aspect', async () => {
      const res = await ask(SYSTEM_CLIENT_AUTHORIZATION, USER_READS, { urn: noRoleUrn });
      expect(res.errors).toBeUndefined();
      expect(JSON.stringify(res.data?.['named'])).toMatch(/hashedPassword/);
    });

    for (const [who, actor] of [
      ['a no-role user', () => noRole],
      ['a Reader-role user', () => reader],
    ] as const) {
      it(`${who} searching or scrolling ACCESS_TOKEN entities gets none of them, nor their names`, async () => {
        const res = await ask(actor(), TOKEN_SEARCH);
        expect(res.errors).toBeUndefined();
        expect(JSON.stringify(res)).not.toContain(tokenName);
        const search = res.data?.['searchAcrossEntities'] as { total: number; searchResults: unknown[] };
        expect(search.searchResults).toEqual([]);
        expect((res.data?.['scrollAcrossEntities'] as { searchResults: unknown[] }).searchResults).toEqual(
          [],
        );
      });

      it(`${who} reading an access token through entity(urn) gets its urn and type only`, async () => {
        const res = await ask(
          actor(),
          `query ($urn: String!) {
            entity(urn: $urn) {
              urn
              type
              ... on AccessTokenMetadata { name ownerUrn aspects { aspectName payload } }
            }
          }`,
          { urn: tokenUrn },
        );
        expect(res.errors).toBeUndefined();
        expect(JSON.stringify(res)).not.toContain(tokenName);
        expect(res.data?.['entity']).toMatchObject({ urn: tokenUrn, type: 'ACCESS_TOKEN', aspects: [] });
      });
    }

    it('an admin, who manages tokens, still finds a token by search and reads its name', async () => {
      const res = await ask(admin, TOKEN_SEARCH);
      expect(res.errors).toBeUndefined();
      expect(JSON.stringify(res.data?.['searchAcrossEntities'])).toContain(tokenName);
      expect(JSON.stringify(res.data?.['scrollAcrossEntities'])).toContain(tokenName);
    });
  });
}
