import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  logIn,
  proposal,
  SYSTEM_AUTH_HEADERS,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { grantPolicy, signUpUser } from './test-users.js';

const bearer = (token: string) => `Bearer ${token}`;

const LINK = `mutation($input: LinkVersionInput!) { linkAssetVersion(input: $input) { urn type } }`;
const UNLINK = `mutation($input: UnlinkVersionInput!) { unlinkAssetVersion(input: $input) { urn } }`;

const denied = (r: GraphQLResponse) => r.errors?.[0]?.extensions?.['code'] === 403;
const refused = (r: GraphQLResponse) => r.errors?.[0]?.extensions?.['code'] === 400;

/**
 * linkAssetVersion and unlinkAssetVersion (the SDK's link_asset_to_version_set and
 * unlink_asset_from_version_set), as the ecosystem's smoke suite uses them: links number the versions
 * of a set (AAAAAAAA, AAAAAAAB, ...) and the latest moves with them; unlinking the latest hands it to
 * the version below, unlinking the last deletes the set, and a set can be linked again. Each needs
 * edit rights on both the set and the entity: walked as a user without a role, a user with edit
 * rights on the entity only, then on both, and the admin. Both families.
 */
for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`version links over GraphQL (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let editor: string;
    const run = Date.now().toString(36);
    const editorUrn = `urn:li:corpuser:vleditor_${run}@example.com`;
    const set = `urn:li:versionSet:(vl_${run},dataset)`;
    const versions = [0, 1, 2].map((i) => datasetUrn(`versioning_${run}_${i}`, 'snowflake'));

    const ask = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });
    const ok = async (authorization: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await ask(authorization, query, variables);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as Record<string, unknown>;
    };
    const link = (
      authorization: string,
      entity: string,
      version: string,
      extra: Record<string, unknown> = {},
    ) => ask(authorization, LINK, { input: { versionSet: set, linkedEntity: entity, version, ...extra } });
    const unlink = (authorization: string, entity: string) =>
      ask(authorization, UNLINK, { input: { versionSet: set, unlinkedEntity: entity } });
    const aspectOf = async (urn: string, aspect: string) => {
      const res = await callAs(
        base,
        'GET',
        `/openapi/v3/entity/${urn.split(':')[2]}/${enc(urn)}/${aspect}`,
        SYSTEM_AUTH_HEADERS.Authorization,
      );
      return res.status === 200 ? (res.body as { value: Record<string, unknown> }).value : undefined;
    };

    const grantEdit = (resources: string[]) =>
      grantPolicy(base, admin, { privileges: ['EDIT_ENTITY'], users: [editorUrn], resources });

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `vlnorole_${run}@example.com`);
      editor = await signUpUser(base, admin, `vleditor_${run}@example.com`);
      const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
        body: JSON.stringify({
          proposals: versions.map((urn, i) => proposal(urn, 'datasetProperties', { name: `v${i}` })),
          async: 'false',
        }),
      });
      expect(res.status).toBe(200);
    }, 60_000);
    afterAll(async () => catalog?.dispose());

    it('refuses a user without edit rights on both the set and the entity, and writes nothing', async () => {
      expect(denied(await link(noRole, versions[0]!, 'v0'))).toBe(true);
      await grantEdit([versions[0]!]);
      // Edit rights on the entity alone are not enough: the set is edited too.
      // Once the entity's policy applies (an edit of the entity alone goes through) ...
      await waitUntil(
        () =>
          ask(editor, 'mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
            input: { description: 'versioned', resourceUrn: versions[0] },
          }),
        (r) => r.errors === undefined,
        30_000,
      );
      expect(denied(await link(editor, versions[0]!, 'v0'))).toBe(true);
      expect(await aspectOf(versions[0]!, 'versionProperties')).toBeUndefined();
      await grantEdit([set]);
      const linked = await waitUntil(
        () => link(editor, versions[0]!, 'v0', { comment: 'first', sourceTimestamp: 1_700_000_000_000 }),
        (r) => r.errors === undefined,
        30_000,
      );
      expect(linked.data?.['linkAssetVersion']).toEqual({ urn: set, type: 'VERSION_SET' });
      expect(await aspectOf(versions[0]!, 'versionProperties')).toMatchObject({
        versionSet: set,
        version: { versionTag: 'v0', metadataAttribution: { actor: editorUrn } },
        comment: 'first',
        sortId: 'AAAAAAAA',
        versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB',
        isLatest: true,
        sourceCreatedTimestamp: { time: 1_700_000_000_000 },
      });
      // The version, as GraphQL shows it on the dataset.
      const shown = await ok(
        admin,
        `query($urn: String!) { dataset(urn: $urn) { versionProperties { versionSet { urn } version { versionTag }
          aliases { versionTag } comment isLatest created { actor { urn } } createdInSource { time } } } }`,
        { urn: versions[0] },
      );
      expect(shown['dataset']).toEqual({
        versionProperties: {
          versionSet: { urn: set },
          version: { versionTag: 'v0' },
          aliases: [],
          comment: 'first',
          isLatest: true,
          created: { actor: { urn: editorUrn } },
          createdInSource: { time: 1_700_000_000_000 },
        },
      });
      // Unlinking needs the same rights.
      expect(denied(await unlink(noRole, versions[0]!))).toBe(true);
      expect(await aspectOf(versions[0]!, 'versionProperties')).toMatchObject({ isLatest: true });
    });

    it('numbers each linked version after the latest and makes it the latest; linking again changes nothing', async () => {
      for (const i of [1, 2]) {
        const res = await link(admin, versions[i]!, `v${i}`);
        expect(res.data?.['linkAssetVersion'], JSON.stringify(res.errors)).toEqual({
          urn: set,
          type: 'VERSION_SET',
        });
      }
      expect(await aspectOf(set, 'versionSetProperties')).toEqual({
        latest: versions[2],
        versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB',
      });
      expect((await aspectOf(versions[1]!, 'versionProperties'))?.['sortId']).toBe('AAAAAAAB');
      expect(await aspectOf(versions[2]!, 'versionProperties')).toMatchObject({
        sortId: 'AAAAAAAC',
        isLatest: true,
      });
      expect(await aspectOf(versions[1]!, 'versionProperties')).toMatchObject({ isLatest: false });
      // Already a version of this set: null, nothing written.
      expect((await link(admin, versions[2]!, 'again')).data?.['linkAssetVersion']).toBeNull();
      expect((await aspectOf(versions[2]!, 'versionProperties'))?.['version']).toMatchObject({
        versionTag: 'v2',
      });
    });

    it('refuses bad links with a 400 naming the problem', async () => {
      const other = `urn:li:versionSet:(vl_other_${run},dataset)`;
      const cases: Record<string, unknown>[] = [
        { versionSet: versions[0], linkedEntity: versions[1], version: 'x' },
        { versionSet: `urn:li:versionSet:(vl_${run},mlModel)`, linkedEntity: versions[1], version: 'x' },
        { versionSet: other, linkedEntity: versions[1], version: 'x' },
        { versionSet: set, linkedEntity: 'not a urn', version: 'x' },
      ];
      for (const input of cases)
        expect(refused(await ask(admin, LINK, { input })), JSON.stringify(input)).toBe(true);
      expect(refused(await ask(admin, UNLINK, { input: { unlinkedEntity: versions[1] } }))).toBe(true);
      expect(
        refused(await ask(admin, UNLINK, { input: { versionSet: other, unlinkedEntity: versions[1] } })),
      ).toBe(true);
      expect(await aspectOf(other, 'versionSetProperties')).toBeUndefined();
    });

    it('unlinking the latest hands it to the version below; unlinking the last deletes the set; the set links again', async () => {
      expect((await unlink(admin, versions[2]!)).data?.['unlinkAssetVersion']).toEqual({ urn: set });
      expect(await aspectOf(versions[2]!, 'versionProperties')).toBeUndefined();
      expect((await aspectOf(set, 'versionSetProperties'))?.['latest']).toBe(versions[1]);
      expect(await aspectOf(versions[1]!, 'versionProperties')).toMatchObject({ isLatest: true });

      // A version that is not the latest leaves the latest where it is.
      expect((await unlink(admin, versions[0]!)).data?.['unlinkAssetVersion']).toEqual({ urn: set });
      expect((await aspectOf(set, 'versionSetProperties'))?.['latest']).toBe(versions[1]);

      expect((await unlink(admin, versions[1]!)).data?.['unlinkAssetVersion']).toEqual({ urn: set });
      expect(await aspectOf(set, 'versionSetProperties')).toBeUndefined();
      // Not a version any more: null.
      expect((await unlink(admin, versions[1]!)).data?.['unlinkAssetVersion']).toBeNull();

      for (const [i, urn] of versions.entries())
        expect((await link(admin, urn, `v${i}`)).errors).toBeUndefined();
      expect((await aspectOf(set, 'versionSetProperties'))?.['latest']).toBe(versions[2]);
      expect((await aspectOf(versions[0]!, 'versionProperties'))?.['sortId']).toBe('AAAAAAAA');
      const listed = await ok(
        admin,
        `query($urn: String!) { versionSet(urn: $urn) { latestVersion { urn }
          versionsSearch(input: { query: "*", count: 10 }) { total searchResults { entity { urn } } } } }`,
        { urn: set },
      );
      expect(listed['versionSet']).toEqual({
        latestVersion: { urn: versions[2] },
        versionsSearch: {
          total: 3,
          searchResults: [...versions].reverse().map((urn) => ({ entity: { urn } })),
        },
      });
    });
  });
}
