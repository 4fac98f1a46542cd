import { expect } from 'vitest';
import { graphqlData } from './graphql-client.js';
import { callAs, logIn } from './harness.js';

export const TEST_USER_PASSWORD = 'a long password 1';

/**
 * A native user signed up as a person does (an invite token the admin minted, then `POST /signUp` with the
 * email as the user's id), given `role` (`Reader`, `Editor`, `Admin`) when one is named, and logged in:
 * its bearer session. The user's urn is `urn:li:corpuser:<email>`.
 */
export async function signUpUser(
  base: string,
  adminAuthorization: string,
  email: string,
  role?: string,
): Promise<string> {
  const headers = { headers: { Authorization: adminAuthorization } };
  const { createInviteToken } = await graphqlData<{ createInviteToken: { inviteToken: string } }>(
    base,
    'mutation { createInviteToken(input: {}) { inviteToken } }',
    {},
    headers,
  );
  const res = await callAs(base, 'POST', '/signUp', undefined, {
    fullName: email,
    email,
    password: TEST_USER_PASSWORD,
    inviteToken: createInviteToken.inviteToken,
    title: 'Analyst',
  });
  expect(res.status, res.text).toBe(200);
  if (role !== undefined)
    await graphqlData(
      base,
      'mutation($role: String!, $actors: [String!]!) { batchAssignRole(input: {roleUrn: $role, actors: $actors}) }',
      { role: `urn:li:dataHubRole:${role}`, actors: [`urn:li:corpuser:${email}`] },
      headers,
    );
  return `Bearer ${await logIn(base, email, TEST_USER_PASSWORD)}`;
}

/**
 * An active METADATA policy (created by the admin) granting `users` the `privileges` on `resources`, or
 * on every resource when none is named; its urn.
 */
export async function grantPolicy(
  base: string,
  adminAuthorization: string,
  grant: {
    readonly privileges: readonly string[];
    readonly users: readonly string[];
    readonly resources?: readonly string[];
  },
): Promise<string> {
  const { createPolicy } = await graphqlData<{ createPolicy: string }>(
    base,
    'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }',
    {
      input: {
        type: 'METADATA',
        name: `test grant ${grant.privileges.join(' ')} ${Math.random().toString(36).slice(2, 8)}`,
        state: 'ACTIVE',
        privileges: grant.privileges,
        resources:
          grant.resources === undefined
            ? { allResources: true }
            : { allResources: false, resources: grant.resources },
        actors: { users: grant.users, allUsers: false, allGroups: false, resourceOwners: false },
      },
    },
    { headers: { Authorization: adminAuthorization } },
  );
  return createPolicy;
}
