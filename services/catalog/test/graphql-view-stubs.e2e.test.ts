import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  callAs,
  logIn,
  proposal,
  request,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type TestCatalog,
} from './harness.js';

const bearer = (token: string) => `Bearer ${token}`;

const CONTAINER = `query($urn: String!) { container(urn: $urn) {
  urn
  properties { name description customProperties { key value } }
  editableProperties { description }
  ownership { owners { owner { ... on CorpUser { urn } } } }
  parentContainers { count containers { urn properties { name description } } }
} }`;

interface ContainerView {
  urn: string;
  properties: { name: string; description: string | null; customProperties: unknown[] | null } | null;
  editableProperties: { description: string | null } | null;
  ownership: unknown;
  parentContainers: {
    count: number;
    containers: { urn: string; properties: { name: string; description: string | null } | null }[];
  };
}

/**
 * The ecosystem's view authorization (smoke test_container_view_auth): a container the actor may not
 * read is answered as a stub (urn, type and name; every other field empty), also as another container's
 * parent; VIEW_ENTITY_PAGE on it shows it whole. A query is seen through the dataset it is about
 * (smoke test_query_entity_read_auth). Walked as a user with no role (the all-users view policy turned
 * off), a Reader, and an admin.
 */
for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`GraphQL stubs of entities the actor may not read (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    const run = Date.now().toString(36);
    const parent = `urn:li:container:view-parent-${run}`;
    const child = `urn:li:container:view-child-${run}`;
    const subject = `urn:li:dataset:(urn:li:dataPlatform:hive,view_subject_${run},PROD)`;
    const query = `urn:li:query:view-query-${run}`;
    const SQL = 'SELECT secret_col FROM sensitive_table';

    async function gql<T>(authorization: string, query: string, variables: Record<string, unknown>) {
      const res = await graphql(base, query, variables, { headers: { Authorization: authorization } });
      if (res.errors !== undefined) throw new Error(JSON.stringify(res.errors));
      return res.data as T;
    }

    /** A native user signed up with an invite (no role), logged in. */
    async function signUp(id: string): Promise<{ urn: string; authorization: string }> {
      const { getInviteToken } = await gql<{ getInviteToken: { inviteToken: string } }>(
        admin,
        'query { getInviteToken(input: {}) { inviteToken } }',
        {},
      );
      const res = await callAs(base, 'POST', '/auth/signUp', SYSTEM_CLIENT_AUTHORIZATION, {
        userUrn: `urn:li:corpuser:${id}`,
        fullName: id,
        email: `${id}@example.com`,
        password: `${id} password`,
        inviteToken: getInviteToken.inviteToken,
        title: 'Analyst',
      });
      expect(res.status, res.text).toBe(200);
      return { urn: `urn:li:corpuser:${id}`, authorization: bearer(await logIn(base, id, `${id} password`)) };
    }

    const read = async (authorization: string, urn: string) =>
      (await gql<{ container: ContainerView }>(authorization, CONTAINER, { urn })).container;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      for (const [urn, aspect, value] of [
        [
          parent,
          'containerProperties',
          { name: 'Parent', description: 'parent secret', customProperties: { k: 'v' } },
        ],
        [parent, 'editableContainerProperties', { description: 'edited secret' }],
        [parent, 'ownership', { owners: [{ owner: 'urn:li:corpuser:datahub', type: 'DATAOWNER' }] }],
        [child, 'containerProperties', { name: 'Child', description: 'child secret' }],
        [child, 'container', { container: parent }],
        [subject, 'datasetProperties', { name: 'subject', customProperties: {} }],
        [
          query,
          'queryProperties',
          {
            statement: { value: SQL, language: 'SQL' },
            source: 'MANUAL',
            name: 'Sensitive query',
            created: { time: 5, actor: 'urn:li:corpuser:datahub' },
            lastModified: { time: 6, actor: 'urn:li:corpuser:datahub' },
          },
        ],
        [query, 'querySubjects', { subjects: [{ entity: `urn:li:schemaField:(${subject},secret_col)` }] }],
      ] as const) {
        const res = await request(base, 'POST', '/aspects?action=ingestProposal', {
          proposal: proposal(urn, aspect, value),
        });
        expect(res.status, res.text).toBe(200);
      }
      // No view of entities for users without a role (as the smoke test sets the platform up).
      await gql(
        admin,
        'mutation($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }',
        {
          urn: 'urn:li:dataHubPolicy:view-entity-page-all',
          input: {
            type: 'METADATA',
            state: 'INACTIVE',
            name: 'All Users - View Entity Page',
            description: 'Grants entity view to all users',
            privileges: ['VIEW_ENTITY_PAGE', 'SEARCH_PRIVILEGE', 'GET_ENTITY_PRIVILEGE'],
            actors: { users: [], resourceOwners: false, allUsers: true, allGroups: false },
          },
        },
      );
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('says view authorization is on in the system information', async () => {
      const res = await callAs(base, 'GET', '/openapi/v1/system-info/properties/simple', admin);
      expect(res.status, res.text).toBe(200);
      expect((res.body as Record<string, unknown>)['authorization.view.enabled']).toBe(true);
    });

    it('shows a user with no role a stub of each container, parents included, until a policy lets it view one', async () => {
      const user = await signUp(`viewer_${run}`);
      const stub = await waitUntil(
        () => read(user.authorization, parent),
        (c) => c.properties?.description === null,
        10_000,
      );
      expect(stub).toMatchObject({
        urn: parent,
        properties: { name: 'Parent', description: null },
        editableProperties: null,
        ownership: null,
      });
      expect(stub.properties?.customProperties ?? []).toEqual([]);
      const fromChild = await read(user.authorization, child);
      expect(fromChild.properties).toMatchObject({ name: 'Child', description: null });
      expect(fromChild.parentContainers).toEqual({
        count: 1,
        containers: [{ urn: parent, properties: { name: 'Parent', description: null } }],
      });

      // VIEW_ENTITY_PAGE on the parent shows it whole, directly and as the child's parent.
      await gql(admin, 'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }', {
        input: {
          type: 'METADATA',
          name: `view parent ${run}`,
          state: 'ACTIVE',
          privileges: ['VIEW_ENTITY_PAGE', 'GET_ENTITY_PRIVILEGE'],
          resources: { filter: { criteria: [{ field: 'URN', values: [parent], condition: 'EQUALS' }] } },
          actors: { users: [user.urn], resourceOwners: false, allUsers: false, allGroups: false },
        },
      });
      const whole = await waitUntil(
        () => read(user.authorization, parent),
        (c) => c.properties?.description === 'parent secret',
        10_000,
      );
      expect(whole.editableProperties).toEqual({ description: 'edited secret' });
      const parentOfChild = (await read(user.authorization, child)).parentContainers.containers[0];
      expect(parentOfChild?.properties?.description).toBe('parent secret');
      expect((await read(user.authorization, child)).properties?.description).toBeNull();
    });

    it('shows a query to who may view the dataset it is about, or edit its queries, and to no one else', async () => {
      const QUERY = `query($urn: String!) { entity(urn: $urn) { urn ... on QueryEntity {
        properties { statement { value language } source name created { time actor } createdOn { time actor { urn } } }
        subjects { dataset { urn } schemaField { urn } } } } }`;
      type Seen = { entity: { urn: string; properties: Record<string, unknown> | null; subjects: unknown } };
      const user = await signUp(`querier_${run}`);
      const hidden = await gql<Seen>(user.authorization, QUERY, { urn: query });
      expect(hidden.entity).toEqual({ urn: query, properties: null, subjects: null });
      for (const privileges of [['VIEW_ENTITY_PAGE'], ['EDIT_ENTITY_QUERIES']]) {
        const { createPolicy } = await gql<{ createPolicy: string }>(
          admin,
          'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }',
          {
            input: {
              type: 'METADATA',
              name: `query subject ${privileges[0]} ${run}`,
              state: 'ACTIVE',
              privileges,
              resources: { filter: { criteria: [{ field: 'URN', values: [subject], condition: 'EQUALS' }] } },
              actors: { users: [user.urn], resourceOwners: false, allUsers: false, allGroups: false },
            },
          },
        );
        const seen = await waitUntil(
          () => gql<Seen>(user.authorization, QUERY, { urn: query }),
          (r) => r.entity.properties !== null,
          10_000,
        );
        expect(seen.entity).toEqual({
          urn: query,
          properties: {
            statement: { value: SQL, language: 'SQL' },
            source: 'MANUAL',
            name: 'Sensitive query',
            created: { time: 5, actor: 'urn:li:corpuser:datahub' },
            createdOn: { time: 5, actor: { urn: 'urn:li:corpuser:datahub' } },
          },
          subjects: [
            { dataset: { urn: subject }, schemaField: { urn: `urn:li:schemaField:(${subject},secret_col)` } },
          ],
        });
        await gql(admin, 'mutation($urn: String!) { deletePolicy(urn: $urn) }', { urn: createPolicy });
        await waitUntil(
          () => gql<Seen>(user.authorization, QUERY, { urn: query }),
          (r) => r.entity.properties === null,
          10_000,
        );
      }
      const byAdmin = await gql<Seen>(admin, QUERY, { urn: query });
      expect(byAdmin.entity.properties?.['statement']).toEqual({ value: SQL, language: 'SQL' });
    });

    it('shows a Reader and an admin every container whole', async () => {
      const reader = await signUp(`reader_${run}`);
      await gql(
        admin,
        'mutation($r: String!, $a: [String!]!) { batchAssignRole(input: {roleUrn: $r, actors: $a}) }',
        {
          r: 'urn:li:dataHubRole:Reader',
          a: [reader.urn],
        },
      );
      for (const authorization of [reader.authorization, admin]) {
        const seen = await waitUntil(
          () => read(authorization, child),
          (c) => c.properties?.description === 'child secret',
          10_000,
        );
        expect(seen.parentContainers.containers[0]?.properties?.description).toBe('parent secret');
      }
    });
  });
}
