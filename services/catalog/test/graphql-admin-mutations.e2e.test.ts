import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  ingest,
  logIn,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

const bearer = (token: string) => `Bearer ${token}`;

/**
 * The ecosystem's GraphQL mutations the smoke suite uses (links, patchEntity, secrets, views, service
 * accounts, incidents and health, soft deletion, forms, acceptRole) through the real endpoint, walked as a
 * user with no role, a Reader and an admin: each refuses who lacks its privilege and writes nothing.
 */
for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`GraphQL administration mutations (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let reader: string;
    const run = Date.now().toString(36);
    const dataset = datasetUrn(`admin_mutations_${run}`);

    const ask = async (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });
    const data = async (authorization: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await ask(authorization, query, variables);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as Record<string, unknown>;
    };
    const refused = async (authorization: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await ask(authorization, query, variables);
      expect(res.errors?.[0]?.message ?? '').toMatch(/[Uu]nauthorized|Unable to/);
    };

    async function signUp(email: string, inviteToken?: string): Promise<string> {
      const token =
        inviteToken ??
        (
          (await data(admin, 'mutation { createInviteToken(input: {}) { inviteToken } }'))[
            'createInviteToken'
          ] as {
            inviteToken: string;
          }
        ).inviteToken;
      const res = await callAs(base, 'POST', '/signUp', undefined, {
        fullName: email,
        email,
        password: 'a long password 1',
        inviteToken: token,
        title: 'Analyst',
      });
      expect(res.status, res.text).toBe(200);
      return bearer(await logIn(base, email, 'a long password 1'));
    }

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUp(`norole_${run}@example.com`);
      // The Reader accepts the Reader role with its invite token (acceptRole).
      reader = await signUp(`reader_${run}@example.com`);
      const invite = (
        (
          await data(
            admin,
            'mutation { createInviteToken(input: {roleUrn: "urn:li:dataHubRole:Reader"}) { inviteToken } }',
          )
        )['createInviteToken'] as { inviteToken: string }
      ).inviteToken;
      expect(
        (await data(reader, 'mutation($t: String!) { acceptRole(input: {inviteToken: $t}) }', { t: invite }))[
          'acceptRole'
        ],
      ).toBe(true);
      const res = await ingest(base, proposal(dataset, 'datasetProperties', { name: 'admin mutations' }));
      expect(res.status).toBe(200);
    }, 120_000);
    afterAll(async () => catalog?.dispose());

    it('links: added with settings, updated in place with an update stamp, upserted and removed; no role may not', async () => {
      const add = 'mutation($i: AddLinkInput!) { addLink(input: $i) }';
      const link = {
        linkUrl: 'https://wiki.example/a',
        label: 'A',
        resourceUrn: dataset,
        settings: { showInAssetPreview: true },
      };
      await refused(noRole, add, { i: link });
      await refused(reader, add, { i: link });
      await data(admin, add, { i: link });
      await data(admin, 'mutation($i: UpdateLinkInput!) { updateLink(input: $i) }', {
        i: {
          currentUrl: link.linkUrl,
          currentLabel: 'A',
          linkUrl: 'https://wiki.example/b',
          label: 'B',
          resourceUrn: dataset,
        },
      });
      await data(admin, 'mutation($i: UpsertLinkInput!) { upsertLink(input: $i) }', {
        i: { linkUrl: 'https://wiki.example/c', label: 'C', resourceUrn: dataset },
      });
      const read = await data(
        admin,
        `{ dataset(urn: "${dataset}") { institutionalMemory { elements { url label updated { actor } settings { showInAssetPreview } } } } }`,
      );
      expect(
        (read['dataset'] as { institutionalMemory: { elements: unknown[] } }).institutionalMemory.elements,
      ).toEqual([
        {
          url: 'https://wiki.example/b',
          label: 'B',
          updated: { actor: 'urn:li:corpuser:datahub' },
          settings: null,
        },
        { url: 'https://wiki.example/c', label: 'C', updated: null, settings: null },
      ]);
      await data(admin, 'mutation($i: RemoveLinkInput!) { removeLink(input: $i) }', {
        i: { linkUrl: 'https://wiki.example/c', resourceUrn: dataset },
      });
    });

    it('patchEntity: refused in the result without EDIT_ENTITY, applied by the aspect template with it', async () => {
      const patch = `mutation($i: PatchEntityInput!) { patchEntity(input: $i) { urn success error } }`;
      const input = {
        urn: dataset,
        aspectName: 'editableSchemaMetadata',
        patch: [
          {
            op: 'ADD',
            path: '/editableSchemaFieldInfo/new_field/globalTags/tags/urn:li:tag:pii',
            value: '{"tag":"urn:li:tag:pii"}',
          },
        ],
      };
      for (const who of [noRole, reader]) {
        const result = (await data(who, patch, { i: input }))['patchEntity'] as {
          success: boolean;
          error: string;
        };
        expect(result.success).toBe(false);
        expect(result.error).toContain('unauthorized');
      }
      expect((await data(admin, patch, { i: input }))['patchEntity']).toMatchObject({
        success: true,
        error: null,
      });
      const read = await data(
        admin,
        `{ dataset(urn: "${dataset}") { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath globalTags { tags { tag { urn } } } } } } }`,
      );
      expect(JSON.stringify(read)).toContain('"fieldPath":"new_field"');
      const grant = {
        urn: 'urn:li:corpuser:datahub',
        aspectName: 'roleMembership',
        patch: [{ op: 'ADD', path: '/roles/urn:li:dataHubRole:Admin', value: '"urn:li:dataHubRole:Admin"' }],
        arrayPrimaryKeys: [{ arrayField: 'roles', keys: [] }],
      };
      const self = (
        await data(noRole, patch, { i: { ...grant, urn: `urn:li:corpuser:norole_${run}@example.com` } })
      )['patchEntity'];
      expect(self).toMatchObject({ success: false });
    });

    it('secrets: only MANAGE_SECRETS creates, lists (without values) and reads values', async () => {
      const create =
        'mutation { createSecret(input: {name: "pw_' + run + '", value: "hunter2", description: "d"}) }';
      await refused(noRole, create);
      await refused(reader, create);
      expect((await data(admin, create))['createSecret']).toBe(`urn:li:dataHubSecret:pw_${run}`);
      const listed = await data(
        admin,
        '{ listSecrets(input: {query: "pw_"}) { total secrets { name description } } }',
      );
      expect(JSON.stringify(listed)).not.toContain('hunter2');
      expect(listed['listSecrets']).toMatchObject({
        total: 1,
        secrets: [{ name: `pw_${run}`, description: 'd' }],
      });
      await refused(reader, `{ getSecretValues(input: {secrets: ["pw_${run}"]}) { value } }`);
      expect(
        (await data(admin, `{ getSecretValues(input: {secrets: ["pw_${run}"]}) { name value } }`))[
          'getSecretValues'
        ],
      ).toEqual([{ name: `pw_${run}`, value: 'hunter2' }]);
      expect(
        (await data(admin, `mutation { deleteSecret(urn: "urn:li:dataHubSecret:pw_${run}") }`))[
          'deleteSecret'
        ],
      ).toBe(`urn:li:dataHubSecret:pw_${run}`);
    });

    it('views and service accounts: personal views for anyone, global ones and service accounts for their managers', async () => {
      const create = `mutation($t: DataHubViewType!) { createView(input: {viewType: $t, name: "v", definition: {entityTypes: [DATASET], filter: {operator: AND, filters: [{field: "tags", values: ["urn:li:tag:pii"]}]}}}) { urn viewType definition { entityTypes filter { operator filters { field values condition } } } } }`;
      await refused(reader, create, { t: 'GLOBAL' });
      const personal = (await data(noRole, create, { t: 'PERSONAL' }))['createView'] as { urn: string };
      expect(personal).toMatchObject({
        viewType: 'PERSONAL',
        definition: {
          entityTypes: ['DATASET'],
          filter: {
            operator: 'AND',
            filters: [{ field: 'tags', values: ['urn:li:tag:pii'], condition: 'EQUAL' }],
          },
        },
      });
      await refused(reader, `mutation { deleteView(urn: "${personal.urn}") }`);
      expect((await data(noRole, '{ listMyViews(input: {}) { total } }'))['listMyViews']).toEqual({
        total: 1,
      });
      const global = (await data(admin, create, { t: 'GLOBAL' }))['createView'] as { urn: string };
      await refused(reader, 'mutation { createServiceAccount(input: {displayName: "bot"}) { urn } }');
      await refused(noRole, '{ listServiceAccounts(input: {}) { total } }');
      const account = (
        await data(admin, 'mutation { createServiceAccount(input: {displayName: "bot"}) { urn } }')
      )['createServiceAccount'] as { urn: string };
      await data(
        admin,
        'mutation($i: UpdateServiceAccountDefaultViewInput!) { updateServiceAccountDefaultView(input: $i) }',
        {
          i: { urn: account.urn, defaultView: global.urn },
        },
      );
      const got = await data(
        admin,
        `{ getServiceAccount(urn: "${account.urn}") { displayName defaultView { urn name } } }`,
      );
      expect(got['getServiceAccount']).toEqual({
        displayName: 'bot',
        defaultView: { urn: global.urn, name: 'v' },
      });
      expect(
        (await data(admin, `mutation { deleteServiceAccount(urn: "${account.urn}") }`))[
          'deleteServiceAccount'
        ],
      ).toBe(true);
    });

    it('incidents and health: raised and resolved by who edits the asset, counted in its health', async () => {
      const raise = `mutation { raiseIncident(input: {type: OPERATIONAL, title: "broken", resourceUrn: "${dataset}", priority: HIGH}) }`;
      await refused(noRole, raise);
      await refused(reader, raise);
      const incident = (await data(admin, raise))['raiseIncident'] as string;
      const health = `{ dataset(urn: "${dataset}") { health { type status message activeIncidentHealthDetails { latestIncidentUrn count } } incidents(state: ACTIVE) { total incidents { urn title priority incidentStatus { state } entity { urn } } } } }`;
      const active = await waitUntil(
        () => data(admin, health),
        (d) => JSON.stringify(d).includes('FAIL'),
        20_000,
      );
      expect(active['dataset']).toEqual({
        health: [
          {
            type: 'INCIDENTS',
            status: 'FAIL',
            message: '1 active incident',
            activeIncidentHealthDetails: { latestIncidentUrn: incident, count: 1 },
          },
        ],
        incidents: {
          total: 1,
          incidents: [
            {
              urn: incident,
              title: 'broken',
              priority: 'HIGH',
              incidentStatus: { state: 'ACTIVE' },
              entity: { urn: dataset },
            },
          ],
        },
      });
      await refused(
        reader,
        `mutation { updateIncidentStatus(urn: "${incident}", input: {state: RESOLVED}) }`,
      );
      await data(
        admin,
        `mutation { updateIncidentStatus(urn: "${incident}", input: {state: RESOLVED, message: "fixed"}) }`,
      );
      const passed = await data(admin, health);
      expect((passed['dataset'] as { health: unknown[] }).health).toEqual([
        { type: 'INCIDENTS', status: 'PASS', message: null, activeIncidentHealthDetails: null },
      ]);
    });

    it('batchUpdateSoftDeleted and forms: refused without the privilege, applied with it', async () => {
      const softDelete = (deleted: boolean) =>
        `mutation { batchUpdateSoftDeleted(input: {urns: ["${dataset}"], deleted: ${deleted}}) }`;
      await refused(noRole, softDelete(true));
      await refused(reader, softDelete(true));
      await data(admin, softDelete(true));
      expect((await data(admin, `{ dataset(urn: "${dataset}") { status { removed } } }`))['dataset']).toEqual(
        { status: { removed: true } },
      );
      await data(admin, softDelete(false));
      const createForm = `mutation { createForm(input: {id: "f_${run}", name: "F", type: COMPLETION}) { urn } }`;
      await refused(reader, createForm);
      const form = ((await data(admin, createForm))['createForm'] as { urn: string }).urn;
      await refused(
        reader,
        `mutation { batchAssignForm(input: {formUrn: "${form}", entityUrns: ["${dataset}"]}) }`,
      );
      await data(
        admin,
        `mutation { batchAssignForm(input: {formUrn: "${form}", entityUrns: ["${dataset}"]}) }`,
      );
      const read = await data(
        admin,
        `{ dataset(urn: "${dataset}") { forms { incompleteForms { form { urn } } completedForms { form { urn } } } } }`,
      );
      expect(read['dataset']).toEqual({
        forms: { incompleteForms: [{ form: { urn: form } }], completedForms: [] },
      });
    });
  });
}
