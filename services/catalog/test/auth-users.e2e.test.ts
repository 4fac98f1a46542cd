import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  datasetUrn,
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

const bearer = (token: string) => `Bearer ${token}`;

async function gqlData<T>(
  base: string,
  authorization: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const res = await graphql(base, query, variables, { headers: { Authorization: authorization } });
  if (res.errors !== undefined) throw new Error(JSON.stringify(res.errors));
  return res.data as T;
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`native users, groups and roles (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    const dataset = datasetUrn(`users_${Date.now()}`);
    const run = Date.now().toString(36);

    /** Signs a user up through the GMS endpoint, as the frontend does with the system client. */
    async function signUpThroughGms(id: string, password: string): Promise<string> {
      const { getInviteToken } = await gqlData<{ getInviteToken: { inviteToken: string } }>(
        base,
        admin,
        'query { getInviteToken(input: {}) { inviteToken } }',
      );
      const userUrn = `urn:li:corpuser:${id}`;
      const res = await callAs(base, 'POST', '/auth/signUp', SYSTEM_CLIENT_AUTHORIZATION, {
        userUrn,
        fullName: id,
        email: `${id}@example.com`,
        password,
        inviteToken: getInviteToken.inviteToken,
        title: 'Analyst',
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ isNativeUserCreated: true });
      return userUrn;
    }

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      const seeded = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(dataset, 'datasetProperties', { name: 'users', customProperties: {} }),
      });
      expect(seeded.status, seeded.text).toBe(200);
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('serves the GMS /auth endpoints: sign-up, credential checks and session tokens for the system client only', async () => {
      const userUrn = await signUpThroughGms(`gms_${run}`, 'gms password 1');
      const verify = (password: string) =>
        callAs(base, 'POST', '/auth/verifyNativeUserCredentials', SYSTEM_CLIENT_AUTHORIZATION, {
          userUrn,
          password,
        });
      expect((await verify('gms password 1')).body).toEqual({ doesPasswordMatch: true });
      expect((await verify('nope')).body).toMatchObject({ doesPasswordMatch: false });
      const session = await callAs(
        base,
        'POST',
        '/auth/generateSessionTokenForUser',
        SYSTEM_CLIENT_AUTHORIZATION,
        { userId: `gms_${run}` },
        { 'X-DataHubLoginSource': 'passwordLogin' },
      );
      expect(session.status, session.text).toBe(200);
      expect(session.contentType).toContain('application/json');
      const token = (session.body as { accessToken: string }).accessToken;
      const me = await callAs(base, 'GET', '/openapi/operations/identity/user/urn', bearer(token));
      expect(me.body).toEqual({ urn: userUrn });
      // Only the system client mints sessions for others.
      const refused = await callAs(base, 'POST', '/auth/generateSessionTokenForUser', bearer(token), {
        userId: 'datahub',
      });
      expect(refused.status).toBe(401);
      // A body without its required field is a 400 with an empty body.
      const bad = await callAs(
        base,
        'POST',
        '/auth/verifyNativeUserCredentials',
        SYSTEM_CLIENT_AUTHORIZATION,
        {},
      );
      expect(bad.status).toBe(400);
      expect(bad.text).toBe('');
    });

    it('resets a password with a reset token an administrator creates, and refuses the old password after', async () => {
      const userUrn = await signUpThroughGms(`reset_${run}`, 'old password 1');
      const { createNativeUserResetToken } = await gqlData<{
        createNativeUserResetToken: { resetToken: string };
      }>(
        base,
        admin,
        `mutation { createNativeUserResetToken(input: {userUrn: "${userUrn}"}) { resetToken } }`,
      );
      const reset = await callAs(
        base,
        'POST',
        '/auth/resetNativeUserCredentials',
        SYSTEM_CLIENT_AUTHORIZATION,
        {
          userUrn,
          password: 'new password 2',
          resetToken: createNativeUserResetToken.resetToken,
        },
      );
      expect(reset.status, reset.text).toBe(200);
      expect(reset.body).toEqual({ areNativeUserCredentialsReset: true });
      expect(
        (
          await callAs(base, 'POST', '/logIn', undefined, {
            username: `reset_${run}`,
            password: 'old password 1',
          })
        ).status,
      ).toBe(400);
      await logIn(base, `reset_${run}`, 'new password 2');
      // A user without MANAGE_USER_CREDENTIALS cannot make reset tokens.
      const user = bearer(await logIn(base, `reset_${run}`, 'new password 2'));
      const denied = await graphql(
        base,
        `
          mutation {
            createNativeUserResetToken(input: { userUrn: "urn:li:corpuser:datahub" }) {
              resetToken
            }
          }
        `,
        {},
        { headers: { Authorization: user } },
      );
      expect(denied.errors?.[0]?.extensions).toMatchObject({ code: 403 });
    });

    it('grants through a group policy and through the Editor role, and takes both back when membership ends', async () => {
      const userUrn = await signUpThroughGms(`member_${run}`, 'member password 1');
      const user = bearer(await logIn(base, `member_${run}`, 'member password 1'));
      const tag = () =>
        callAs(base, 'POST', '/aspects?action=ingestProposal', user, {
          proposal: proposal(dataset, 'globalTags', { tags: [{ tag: `urn:li:tag:m${Date.now()}` }] }),
        });
      const remove = () =>
        callAs(base, 'POST', '/aspects?action=ingestProposal', user, {
          proposal: {
            entityType: 'dataset',
            entityUrn: dataset,
            changeType: 'DELETE',
            aspectName: 'globalTags',
          },
        });
      expect((await tag()).status).toBe(403);

      // The Editor role: tags yes, deletes no.
      await gqlData(
        base,
        admin,
        `mutation { batchAssignRole(input: {roleUrn: "urn:li:dataHubRole:Editor", actors: ["${userUrn}"]}) }`,
      );
      await waitUntil(tag, (r) => r.status === 200, 5_000);
      expect((await remove()).status).toBe(403);
      await gqlData(base, admin, `mutation { batchAssignRole(input: {actors: ["${userUrn}"]}) }`);
      await waitUntil(tag, (r) => r.status === 403, 5_000);

      // A group named by a policy.
      const { createGroup: groupUrn } = await gqlData<{ createGroup: string }>(
        base,
        admin,
        `mutation { createGroup(input: {id: "editors_${run}", name: "Editors ${run}"}) }`,
      );
      await gqlData(base, admin, `mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }`, {
        input: {
          type: 'METADATA',
          name: `group ${run}`,
          state: 'ACTIVE',
          // Rest.li writes need EDIT_ENTITY (the ecosystem's API privilege for an update).
          privileges: ['EDIT_ENTITY'],
          actors: { groups: [groupUrn], allUsers: false, allGroups: false, resourceOwners: false },
        },
      });
      await gqlData(
        base,
        admin,
        `mutation { addGroupMembers(input: {groupUrn: "${groupUrn}", userUrns: ["${userUrn}"]}) }`,
      );
      await waitUntil(tag, (r) => r.status === 200, 5_000);
      await gqlData(
        base,
        admin,
        `mutation { removeGroupMembers(input: {groupUrn: "${groupUrn}", userUrns: ["${userUrn}"]}) }`,
      );
      await waitUntil(tag, (r) => r.status === 403, 5_000);
    });

    it("lets a group's owner add others but not themselves, a user with no role neither, and an admin themselves", async () => {
      const ownerUrn = await signUpThroughGms(`owner_${run}`, 'owner password 1');
      const asOwner = bearer(await logIn(base, `owner_${run}`, 'owner password 1'));
      const otherUrn = await signUpThroughGms(`joiner_${run}`, 'joiner password 1');
      const noRoleUrn = await signUpThroughGms(`norole_${run}`, 'norole password 1');
      const asNoRole = bearer(await logIn(base, `norole_${run}`, 'norole password 1'));
      const { createGroup: groupUrn } = await gqlData<{ createGroup: string }>(
        base,
        admin,
        `mutation { createGroup(input: {id: "owned_${run}", name: "Owned ${run}"}) }`,
      );
      // Owning the group gives EDIT_GROUP_MEMBERS on it (the default asset-owners policy).
      const owned = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(groupUrn, 'ownership', {
          owners: [{ owner: ownerUrn, type: 'TECHNICAL_OWNER' }],
          lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
        }),
      });
      expect(owned.status, owned.text).toBe(200);
      const add = (authorization: string, member: string) =>
        graphql(
          base,
          'mutation($g: String!, $u: String!) { addGroupMembers(input: {groupUrn: $g, userUrns: [$u]}) }',
          { g: groupUrn, u: member },
          { headers: { Authorization: authorization } },
        );
      const groupsOf = async (member: string) => {
        const res = await request(
          base,
          'GET',
          `/aspects/${encodeURIComponent(member)}?aspect=nativeGroupMembership&version=0`,
        );
        return res.status === 404 ? [] : (JSON.stringify(res.body).match(/urn:li:corpGroup:[^"]+/g) ?? []);
      };

      const byOwner = await waitUntil(
        () => add(asOwner, otherUrn),
        (r) => r.data?.['addGroupMembers'] === true,
        10_000,
      );
      expect(byOwner.errors).toBeUndefined();
      expect(await groupsOf(otherUrn)).toEqual([groupUrn]);

      const self = await add(asOwner, ownerUrn);
      expect(self.data?.['addGroupMembers'] ?? null).toBeNull();
      expect(JSON.stringify(self.errors)).toContain('self grants require MANAGE_USERS_AND_GROUPS');
      expect(await groupsOf(ownerUrn)).toEqual([]);

      const noRole = await add(asNoRole, noRoleUrn);
      expect(JSON.stringify(noRole.errors)).toContain('Unauthorized');
      expect(await groupsOf(noRoleUrn)).toEqual([]);

      expect(
        await gqlData(
          base,
          admin,
          `mutation { addGroupMembers(input: {groupUrn: "${groupUrn}", userUrns: ["urn:li:corpuser:datahub"]}) }`,
        ),
      ).toEqual({
        addGroupMembers: true,
      });
      expect(await groupsOf('urn:li:corpuser:datahub')).toContain(groupUrn);
    });

    it('lists users, groups, roles and policies, and shows a token its metadata', async () => {
      const users = await gqlData<{ listUsers: { total: number; users: { urn: string }[] } }>(
        base,
        admin,
        '{ listUsers(input: {start: 0, count: 100}) { total users { urn } } }',
      );
      await waitUntil(
        () =>
          gqlData<{ listUsers: { users: { urn: string }[] } }>(
            base,
            admin,
            '{ listUsers(input: {start: 0, count: 100}) { users { urn } } }',
          ),
        (r) => r.listUsers.users.some((u) => u.urn === 'urn:li:corpuser:datahub'),
        10_000,
      );
      expect(users.listUsers.total).toBeGreaterThan(0);
      const roles = await gqlData<{ listRoles: { roles: { urn: string; name: string }[] } }>(
        base,
        admin,
        '{ listRoles(input: {start: 0, count: 10}) { roles { urn name } } }',
      );
      await waitUntil(
        () =>
          gqlData<{ listRoles: { roles: { name: string }[] } }>(
            base,
            admin,
            '{ listRoles(input: {start: 0, count: 10}) { roles { name } } }',
          ),
        (r) => ['Admin', 'Editor', 'Reader'].every((n) => r.listRoles.roles.some((x) => x.name === n)),
        10_000,
      );
      expect(roles.listRoles).toBeDefined();
      const policies = await gqlData<{
        listPolicies: { total: number; policies: { urn: string; editable: boolean }[] };
      }>(base, admin, '{ listPolicies(input: {start: 0, count: 100}) { total policies { urn editable } } }');
      const byUrn = new Map(policies.listPolicies.policies.map((p) => [p.urn, p.editable]));
      for (const urn of ['7', 'view-entity-page-all', 'view-dataset-sensitive'])
        expect(byUrn.get(`urn:li:dataHubPolicy:${urn}`), urn).toBe(true);
      expect(byUrn.get('urn:li:dataHubPolicy:0')).toBe(false);
      const token = await personalAccessToken(base, { authorization: admin, name: 'described' });
      const metadata = await gqlData<{ getAccessTokenMetadata: Record<string, unknown> }>(
        base,
        admin,
        `query($t: String!) { getAccessTokenMetadata(token: $t) { urn name actorUrn ownerUrn createdAt } }`,
        { t: token },
      );
      expect(metadata.getAccessTokenMetadata).toMatchObject({
        name: 'described',
        actorUrn: 'urn:li:corpuser:datahub',
        ownerUrn: 'urn:li:corpuser:datahub',
      });
      expect(String(metadata.getAccessTokenMetadata['urn'])).toMatch(/^urn:li:dataHubAccessToken:/);
    });

    it("lets a user edit their own profile and not another's, and accept an invite's role with no privilege", async () => {
      const ann = await signUpThroughGms(`ann_${run}`, 'ann password 1');
      const asAnn = bearer(await logIn(base, `ann_${run}`, 'ann password 1'));
      const edit = `mutation($urn: String!, $input: CorpUserUpdateInput!) {
        updateCorpUserProperties(urn: $urn, input: $input) { urn editableProperties { aboutMe title } } }`;
      const own = await gqlData<{
        updateCorpUserProperties: { editableProperties: Record<string, unknown> };
      }>(base, asAnn, edit, { urn: ann, input: { aboutMe: 'Self edit', title: 'Analyst' } });
      expect(own.updateCorpUserProperties.editableProperties).toEqual({
        aboutMe: 'Self edit',
        title: 'Analyst',
      });
      const other = await graphql(
        base,
        edit,
        { urn: 'urn:li:corpuser:datahub', input: { aboutMe: 'hacked' } },
        { headers: { Authorization: asAnn } },
      );
      expect(JSON.stringify(other.errors)).toContain('Unauthorized');

      const reader = 'urn:li:dataHubRole:Reader';
      const { createInviteToken } = await gqlData<{ createInviteToken: { inviteToken: string } }>(
        base,
        admin,
        'mutation($role: String) { createInviteToken(input: { roleUrn: $role }) { inviteToken } }',
        { role: reader },
      );
      const accept = 'mutation($t: String!) { acceptRole(input: { inviteToken: $t }) }';
      const forged = await graphql(base, accept, { t: 'not-a-token' }, { headers: { Authorization: asAnn } });
      expect(JSON.stringify(forged.errors)).toContain('invalid');
      expect(await gqlData(base, asAnn, accept, { t: createInviteToken.inviteToken })).toEqual({
        acceptRole: true,
      });
      const role = await request(
        base,
        'GET',
        `/aspects/${encodeURIComponent(ann)}?aspect=roleMembership&version=0`,
      );
      expect(role.body).toMatchObject({
        aspect: { 'com.linkedin.identity.RoleMembership': { roles: [reader] } },
      });
    });
  });
}
