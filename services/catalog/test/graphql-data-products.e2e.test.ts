import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  get,
  ingest,
  logIn,
  proposal,
  startTestCatalog,
  SYSTEM_AUTH_HEADERS,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

const bearer = (token: string) => `Bearer ${token}`;

async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

const CREATE = `mutation($domainUrn: String!, $name: String!, $description: String) {
  createDataProduct(input: { properties: { name: $name, description: $description }, domainUrn: $domainUrn }) {
    urn type properties { name description numAssets }
  }
}`;
const BATCH_SET = `mutation($dataProductUrn: String, $resourceUrns: [String!]!) {
  batchSetDataProduct(input: { dataProductUrn: $dataProductUrn, resourceUrns: $resourceUrns })
}`;
const BATCH_ADD = `mutation($p: [String!]!, $r: [String!]!) {
  batchAddToDataProducts(input: { dataProductUrns: $p, resourceUrns: $r })
}`;
const BATCH_REMOVE = `mutation($p: [String!]!, $r: [String!]!) {
  batchRemoveFromDataProducts(input: { dataProductUrns: $p, resourceUrns: $r })
}`;
const ASSETS = `query($urn: String!) {
  listDataProductAssets(urn: $urn, input: { query: "*", start: 0, count: 20 }) { total searchResults { entity { urn } } }
}`;

const denied = (r: GraphQLResponse) => r.errors?.[0]?.extensions?.['code'] === 403;

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`data products, domains and containers over GraphQL (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let editor: string;
    const run = Date.now().toString(36);
    const editorUrn = `urn:li:corpuser:dpeditor_${run}@example.com`;
    const domain = `urn:li:domain:dp_${run}`;
    const otherDomain = `urn:li:domain:dp_other_${run}`;
    const child = `urn:li:domain:dp_child_${run}`;
    const container = `urn:li:container:dp_${run}`;
    const emptyContainer = `urn:li:container:dp_empty_${run}`;
    const datasets = [0, 1, 2].map((i) => datasetUrn(`dp_${run}.t${i}`, 'snowflake'));
    const outsider = datasetUrn(`dp_${run}.outsider`, 'snowflake');

    const ask = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });
    const ok = async (authorization: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await ask(authorization, query, variables);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as Record<string, unknown>;
    };

    async function policy(privileges: string[], resources: Record<string, unknown>): Promise<string> {
      const input = {
        type: 'METADATA',
        name: `dp policy ${privileges.join(' ')} ${Math.random()}`,
        state: 'ACTIVE',
        privileges,
        resources,
        actors: { users: [editorUrn], allUsers: false, allGroups: false, resourceOwners: false },
      };
      const created = await ok(
        admin,
        'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }',
        {
          input,
        },
      );
      return created['createPolicy'] as string;
    }

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `dpnorole_${run}@example.com`);
      editor = await signUpUser(base, admin, `dpeditor_${run}@example.com`);
      await write(base, [
        proposal(domain, 'domainProperties', { name: 'Marketing' }),
        proposal(otherDomain, 'domainProperties', { name: 'Other' }),
        proposal(container, 'containerProperties', { name: 'schema' }),
        proposal(emptyContainer, 'containerProperties', { name: 'empty' }),
        ...datasets.flatMap((urn, i) => [
          proposal(urn, 'datasetProperties', { name: `t${i}` }),
          proposal(urn, 'domains', { domains: [domain] }),
          proposal(urn, 'container', { container }),
        ]),
        proposal(outsider, 'datasetProperties', { name: 'outsider' }),
        proposal(outsider, 'domains', { domains: [otherDomain] }),
      ]);
    }, 60_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('creates a data product in its domain, with the creator as owner, and lists, updates and deletes it', async () => {
      const created = (
        await ok(admin, CREATE, { domainUrn: domain, name: 'Orders', description: 'All orders' })
      )['createDataProduct'] as { urn: string; type: string; properties: Record<string, unknown> };
      expect(created).toMatchObject({
        type: 'DATA_PRODUCT',
        properties: { name: 'Orders', description: 'All orders', numAssets: 0 },
      });
      const urn = created.urn;
      expect(urn).toMatch(/^urn:li:dataProduct:/);
      expect(await ok(admin, BATCH_SET, { dataProductUrn: urn, resourceUrns: datasets })).toEqual({
        batchSetDataProduct: true,
      });
      const read = await ok(
        admin,
        `query($urn: String!) { dataProduct(urn: $urn) {
          properties { name numAssets } domain { domain { urn } } ownership { owners { owner { ... on CorpUser { urn } } } }
          relationships(input: { types: ["DataProductContains"], direction: OUTGOING }) { total }
        } }`,
        { urn },
      );
      expect(read['dataProduct']).toEqual({
        properties: { name: 'Orders', numAssets: 3 },
        domain: { domain: { urn: domain } },
        ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:datahub' } }] },
        relationships: { total: 3 },
      });
      const listed = await waitUntil(
        () => ok(admin, ASSETS, { urn }),
        (d) => (d['listDataProductAssets'] as { total: number }).total === 3,
      );
      const hits = (listed['listDataProductAssets'] as { searchResults: { entity: { urn: string } }[] })
        .searchResults;
      expect(hits.map((h) => h.entity.urn).sort()).toEqual([...datasets].sort());

      const updated = await ok(
        admin,
        `mutation($urn: String!) { updateDataProduct(urn: $urn, input: { name: "Orders v2" }) { properties { name description numAssets } } }`,
        { urn },
      );
      expect(updated['updateDataProduct']).toEqual({
        properties: { name: 'Orders v2', description: 'All orders', numAssets: 3 },
      });

      expect(await ok(admin, 'mutation($urn: String!) { deleteDataProduct(urn: $urn) }', { urn })).toEqual({
        deleteDataProduct: true,
      });
      expect(
        (await ok(admin, 'query($urn: String!) { dataProduct(urn: $urn) { urn } }', { urn }))['dataProduct'],
      ).toBeNull();
    });

    it('moves an asset out of its former data product on batchSetDataProduct, and unsets it without one', async () => {
      const first = (
        (await ok(admin, CREATE, { domainUrn: domain, name: 'First' }))['createDataProduct'] as {
          urn: string;
        }
      ).urn;
      const second = (
        (await ok(admin, CREATE, { domainUrn: domain, name: 'Second' }))['createDataProduct'] as {
          urn: string;
        }
      ).urn;
      const assetsOf = async (urn: string) =>
        (
          (
            await ok(admin, 'query($urn: String!) { dataProduct(urn: $urn) { properties { numAssets } } }', {
              urn,
            })
          )['dataProduct'] as { properties: { numAssets: number } }
        ).properties.numAssets;
      await ok(admin, BATCH_SET, { dataProductUrn: first, resourceUrns: [datasets[0]] });
      await ok(admin, BATCH_SET, { dataProductUrn: second, resourceUrns: [datasets[0]] });
      expect([await assetsOf(first), await assetsOf(second)]).toEqual([0, 1]);
      await ok(admin, BATCH_SET, { dataProductUrn: null, resourceUrns: [datasets[0]] });
      expect(await assetsOf(second)).toBe(0);
      await ok(admin, BATCH_ADD, { p: [first, second], r: datasets });
      expect([await assetsOf(first), await assetsOf(second)]).toEqual([3, 3]);
      await ok(admin, BATCH_REMOVE, { p: [first, second], r: datasets.slice(1) });
      expect([await assetsOf(first), await assetsOf(second)]).toEqual([1, 1]);
    });

    it('refuses a data product in a domain that does not exist, and assets that do not exist (400, nothing written)', async () => {
      const res = await ask(admin, CREATE, { domainUrn: `urn:li:domain:missing_${run}`, name: 'x' });
      expect(res.errors?.[0]?.extensions?.['code']).toBe(400);
      const product = (
        (await ok(admin, CREATE, { domainUrn: domain, name: 'Checked' }))['createDataProduct'] as {
          urn: string;
        }
      ).urn;
      const missing = await ask(admin, BATCH_SET, {
        dataProductUrn: product,
        resourceUrns: [datasetUrn(`dp_${run}.missing`, 'snowflake')],
      });
      expect(missing.errors?.[0]?.extensions?.['code']).toBe(400);
      expect(missing.errors?.[0]?.message).toContain('does not exist');
    });

    it('walks the data product privileges: no role, asset-side, domain-side, admin', async () => {
      const product = (
        (await ok(admin, CREATE, { domainUrn: domain, name: 'Guarded' }))['createDataProduct'] as {
          urn: string;
        }
      ).urn;
      // A user without any privilege may neither create, rename, link nor delete.
      expect(denied(await ask(noRole, CREATE, { domainUrn: domain, name: 'nope' }))).toBe(true);
      expect(
        denied(await ask(noRole, BATCH_SET, { dataProductUrn: product, resourceUrns: [datasets[0]] })),
      ).toBe(true);
      expect(
        denied(await ask(noRole, 'mutation($u: String!) { deleteDataProduct(urn: $u) }', { u: product })),
      ).toBe(true);
      const rename = `mutation($u: String!) { updateName(input: { urn: $u, name: "renamed" }) }`;
      expect(denied(await ask(noRole, rename, { u: product }))).toBe(true);

      // Asset-side privilege: adds and removes from the asset side, not from the product side, and no rename.
      const assetSide = await policy(['EDIT_ENTITY_DATA_PRODUCTS'], {
        allResources: false,
        resources: [datasets[1]],
      });
      await waitUntil(
        () => ask(editor, BATCH_ADD, { p: [product], r: [datasets[1]] }),
        (r) => r.errors === undefined,
      );
      expect(
        denied(await ask(editor, BATCH_SET, { dataProductUrn: product, resourceUrns: [datasets[1]] })),
      ).toBe(true);
      expect(denied(await ask(editor, BATCH_ADD, { p: [product], r: [datasets[2]] }))).toBe(true);
      expect(denied(await ask(editor, rename, { u: product }))).toBe(true);
      expect((await ask(editor, BATCH_REMOVE, { p: [product], r: [datasets[1]] })).errors).toBeUndefined();
      await ok(admin, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u: assetSide });

      // Domain-side privilege: links any asset (also of another domain) and renames the product.
      const domainSide = await policy(['MANAGE_DATA_PRODUCTS'], { allResources: false, resources: [domain] });
      await waitUntil(
        () => ask(editor, BATCH_SET, { dataProductUrn: product, resourceUrns: [outsider] }),
        (r) => r.errors === undefined,
      );
      expect((await ask(editor, rename, { u: product })).errors).toBeUndefined();
      expect((await ask(editor, CREATE, { domainUrn: domain, name: 'mine' })).errors).toBeUndefined();
      expect(denied(await ask(editor, CREATE, { domainUrn: otherDomain, name: 'not mine' }))).toBe(true);

      // The admin may do everything.
      expect(
        (await ask(admin, 'mutation($u: String!) { deleteDataProduct(urn: $u) }', { u: product })).errors,
      ).toBeUndefined();
      // The editor's domain-side privilege goes with this case: later cases start from edit rights only.
      await ok(admin, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u: domainSide });
    });

    it('counts and lists what a domain and a container hold, filters applied, an empty one as 0', async () => {
      const product = (
        (await ok(admin, CREATE, { domainUrn: domain, name: 'Counted' }))['createDataProduct'] as {
          urn: string;
        }
      ).urn;
      const COUNTS = `query($a: String!, $b: String!, $c: String!, $d: String!) {
        a: domain(urn: $a) { entities(input: { start: 0, count: 0 }) { total }
          dataProducts: entities(input: { start: 0, count: 0, filters: [{ field: "_entityType", values: ["DATA_PRODUCT"] }] }) { total } }
        b: domain(urn: $b) { entities(input: { start: 0, count: 0 }) { total } }
        c: container(urn: $c) { entities(input: {}) { total searchResults { entity { urn } } } }
        d: container(urn: $d) { entities(input: {}) { total } }
        charts: container(urn: $c) { entities(input: { filters: [{ field: "_entityType", values: ["CHART"] }] }) { total } }
      }`;
      const vars = { a: domain, b: otherDomain, c: container, d: emptyContainer };
      const read = await waitUntil(
        () => ok(admin, COUNTS, vars),
        (d) => (d['a'] as { dataProducts: { total: number } }).dataProducts.total >= 1,
      );
      const a = read['a'] as { entities: { total: number }; dataProducts: { total: number } };
      // Its three datasets and every data product created in it so far.
      expect(a.entities.total - a.dataProducts.total).toBe(3);
      expect(read['b']).toEqual({ entities: { total: 1 } });
      const c = read['c'] as { entities: { total: number; searchResults: { entity: { urn: string } }[] } };
      expect(c.entities.total).toBe(3);
      expect(c.entities.searchResults.map((r) => r.entity.urn).sort()).toEqual([...datasets].sort());
      expect(read['d']).toEqual({ entities: { total: 0 } });
      expect(read['charts']).toEqual({ entities: { total: 0 } });
      await ok(admin, 'mutation($u: String!) { deleteDataProduct(urn: $u) }', { u: product });
    });

    it('keeps domains and domainAssociations in sync on every write, refusing a write that changes both apart', async () => {
      const urn = datasetUrn(`dp_${run}.synced`, 'hive');
      const read = async () =>
        (
          (await get(base, `/aspects/${enc(urn)}?aspect=domains&version=0`)).body as {
            aspect: { 'com.linkedin.domain.Domains': Record<string, unknown> };
          }
        ).aspect['com.linkedin.domain.Domains'];
      expect((await ingest(base, proposal(urn, 'domains', { domains: [domain] }))).status).toBe(200);
      expect(await read()).toEqual({ domains: [domain], domainAssociations: [{ domain }] });
      const propagated = {
        domain: otherDomain,
        attribution: {
          time: 1,
          actor: 'urn:li:corpuser:datahub',
          source: 'urn:li:dataHubAction:x',
          sourceDetail: { propagated: 'true' },
        },
      };
      const both = await ingest(
        base,
        proposal(urn, 'domains', {
          domains: [domain, otherDomain],
          domainAssociations: [propagated, { domain }],
        }),
      );
      expect(both.status).toBe(200);
      expect(await read()).toEqual({
        domains: [domain, otherDomain],
        domainAssociations: [{ domain }, propagated],
      });
      const apart = await ingest(
        base,
        proposal(urn, 'domains', { domains: [otherDomain], domainAssociations: [] }),
      );
      expect(apart.status).toBe(400);
      expect(apart.text).toContain("Cannot update both 'domains' and 'domainAssociations'");
      expect((await read())['domains']).toEqual([domain, otherDomain]);
    });

    it('lets a policy scoped to a domain create entities in it, over Rest.li and OpenAPI, and nowhere else', async () => {
      const scoped = await policy(['CREATE_ENTITY'], {
        allResources: false,
        filter: {
          criteria: [
            { field: 'DOMAIN', values: [domain], condition: 'EQUALS' },
            { field: 'TYPE', values: ['dataset'], condition: 'EQUALS' },
          ],
        },
      });
      const restli = (urn: string, domains: string[] | undefined, changeType = 'CREATE_ENTITY') =>
        callAs(base, 'POST', '/aspects?action=ingestProposalBatch', editor, {
          proposals: [
            proposal(urn, 'datasetProperties', { name: 'scoped' }, { changeType }),
            ...(domains === undefined ? [] : [proposal(urn, 'domains', { domains }, { changeType })]),
          ],
          async: 'false',
        });
      const openapi = (urn: string, domains: string[]) =>
        callAs(base, 'POST', '/openapi/v3/entity/dataset?async=false', editor, [
          { urn, datasetProperties: { value: { name: 'scoped' } }, domains: { value: { domains } } },
        ]);
      const created = datasetUrn(`dp_${run}.scoped_a`, 'kafka');
      const first = await waitUntil(
        () => restli(created, [domain]),
        (r) => r.status === 200,
      );
      expect(first.status).toBe(200);
      expect((await openapi(datasetUrn(`dp_${run}.scoped_oa`, 'kafka'), [domain])).status).toBe(200);
      expect((await restli(datasetUrn(`dp_${run}.scoped_b`, 'kafka'), [otherDomain])).status).toBe(403);
      expect((await openapi(datasetUrn(`dp_${run}.scoped_ob`, 'kafka'), [otherDomain])).status).toBe(403);
      expect((await restli(datasetUrn(`dp_${run}.scoped_none`, 'kafka'), undefined)).status).toBe(403);
      // CREATE_ENTITY alone does not overwrite an entity that exists (in the domain or not).
      expect((await restli(created, [domain], 'UPSERT')).status).toBe(403);
      expect((await restli(datasets[0]!, [domain], 'UPSERT')).status).toBe(403);
      // Without a role, nothing.
      expect(
        (
          await callAs(base, 'POST', '/aspects?action=ingestProposalBatch', noRole, {
            proposals: [proposal(datasetUrn(`dp_${run}.norole`, 'kafka'), 'domains', { domains: [domain] })],
            async: 'false',
          })
        ).status,
      ).toBe(403);
      await ok(admin, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u: scoped });
    });

    it('sets a logical parent only with the edit privilege on both sides (a schema field by its dataset or itself)', async () => {
      const SET = 'mutation($input: SetLogicalParentInput!) { setLogicalParent(input: $input) }';
      const [target, parent] = [datasets[1]!, datasets[2]!];
      const field = (urn: string) => `urn:li:schemaField:(${urn},col1)`;
      const set = (resourceUrn: string, parentUrn: string | null) =>
        ask(editor, SET, { input: { resourceUrn, parentUrn } });
      expect(denied(await set(target, parent))).toBe(true);
      const onTarget = await policy(['EDIT_ENTITY'], { allResources: false, resources: [target] });
      await waitUntil(
        () => set(target, null),
        (r) => r.errors === undefined,
      );
      expect(denied(await set(target, parent))).toBe(true);
      expect(denied(await set(field(target), field(parent)))).toBe(true);
      const onParentField = await policy(['EDIT_ENTITY'], {
        allResources: false,
        resources: [field(parent)],
      });
      await waitUntil(
        () => set(field(target), field(parent)),
        (r) => r.errors === undefined,
      );
      expect(denied(await set(target, parent))).toBe(true);
      const onParent = await policy(['EDIT_ENTITY'], { allResources: false, resources: [parent] });
      await waitUntil(
        () => set(target, parent),
        (r) => r.errors === undefined,
      );
      const read = await ok(
        admin,
        `query($u: String!, $f: String!) { dataset(urn: $u) { logicalParent { urn } } schemaField(urn: $f) { logicalParent { urn } } }`,
        { u: target, f: field(target) },
      );
      expect(read).toEqual({
        dataset: { logicalParent: { urn: parent } },
        schemaField: { logicalParent: { urn: field(parent) } },
      });
      expect(denied(await ask(noRole, SET, { input: { resourceUrn: target, parentUrn: null } }))).toBe(true);
      for (const u of [onTarget, onParentField, onParent])
        await ok(admin, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u });
    });

    it('refuses generic writes of membership and logical parents the actor could not make through GraphQL', async () => {
      const product = (
        (await ok(admin, CREATE, { domainUrn: domain, name: 'Raw writes' }))['createDataProduct'] as {
          urn: string;
        }
      ).urn;
      const [asset, parent] = [datasets[0]!, datasets[2]!];
      const onProduct = await policy(['EDIT_ENTITY'], { allResources: false, resources: [product, asset] });
      const rawWrite = (p: Record<string, unknown>) =>
        callAs(base, 'POST', '/aspects?action=ingestProposal', editor, { proposal: p, async: 'false' });
      const membership = proposal(product, 'dataProductProperties', {
        name: 'Raw writes',
        assets: [{ destinationUrn: outsider }],
      });
      // Edit on the product (and on another asset) is not enough to add an asset of another domain.
      const refused = await waitUntil(
        () => rawWrite(membership),
        (r) => r.status === 403,
      );
      expect(refused.text).toContain('assets of data product');
      const linked = proposal(asset, 'logicalParent', { parent: { destinationUrn: parent } });
      expect((await rawWrite(linked)).status).toBe(403);
      const cleared = proposal(asset, 'logicalParent', {});
      expect((await rawWrite(cleared)).status).toBe(200);
      // With the asset-side privilege on the asset, the product's owner may add it.
      const onAsset = await policy(['EDIT_ENTITY_DATA_PRODUCTS'], {
        allResources: false,
        resources: [outsider],
      });
      await waitUntil(
        () => rawWrite(membership),
        (r) => r.status === 200,
      );
      for (const u of [onProduct, onAsset])
        await ok(admin, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u });
    });

    it('lists the parent containers of a container nearest first', async () => {
      const [top, middle, leaf] = ['top', 'middle', 'leaf'].map((n) => `urn:li:container:dp_${n}_${run}`);
      await write(base, [
        proposal(top!, 'containerProperties', { name: 'top' }),
        proposal(middle!, 'containerProperties', { name: 'middle' }),
        proposal(middle!, 'container', { container: top }),
        proposal(leaf!, 'containerProperties', { name: 'leaf' }),
        proposal(leaf!, 'container', { container: middle }),
      ]);
      const read = await ok(
        admin,
        'query($u: String!) { container(urn: $u) { parentContainers { count containers { urn properties { name } } } } }',
        { u: leaf },
      );
      expect(read['container']).toEqual({
        parentContainers: {
          count: 2,
          containers: [
            { urn: middle, properties: { name: 'middle' } },
            { urn: top, properties: { name: 'top' } },
          ],
        },
      });
    });

    it('lists parent domains nearest first, and refuses to delete a domain while it has a child', async () => {
      const grand = `urn:li:domain:dp_grand_${run}`;
      await ok(admin, `mutation { createDomain(input: { id: "dp_grand_${run}", name: "Grand" }) }`);
      await ok(
        admin,
        `mutation($p: String!) { createDomain(input: { id: "dp_parent_${run}", name: "Parent", parentDomain: $p }) }`,
        {
          p: grand,
        },
      );
      const parent = `urn:li:domain:dp_parent_${run}`;
      await ok(
        admin,
        `mutation($p: String!) { createDomain(input: { id: "dp_child_${run}", name: "Child", parentDomain: $p }) }`,
        {
          p: parent,
        },
      );
      const parents = await ok(
        admin,
        `query($u: String!) { domain(urn: $u) { parentDomains { count domains { urn } } } }`,
        {
          u: child,
        },
      );
      expect(parents['domain']).toEqual({
        parentDomains: { count: 2, domains: [{ urn: parent }, { urn: grand }] },
      });

      // The child is indexed under its parent before the delete is tried.
      await waitUntil(
        () => ask(admin, 'mutation($u: String!) { deleteDomain(urn: $u) }', { u: parent }),
        (r) => r.errors !== undefined,
      );
      const refused = await ask(admin, 'mutation($u: String!) { deleteDomain(urn: $u) }', { u: parent });
      expect(refused.errors?.[0]?.extensions?.['code']).toBe(400);
      expect(refused.errors?.[0]?.message).toContain('has child domains');
      expect(denied(await ask(noRole, 'mutation($u: String!) { deleteDomain(urn: $u) }', { u: child }))).toBe(
        true,
      );
      // Deleting the child and at once its parent works: the store, not the index, decides.
      expect(await ok(admin, 'mutation($u: String!) { deleteDomain(urn: $u) }', { u: child })).toEqual({
        deleteDomain: true,
      });
      expect(await ok(admin, 'mutation($u: String!) { deleteDomain(urn: $u) }', { u: parent })).toEqual({
        deleteDomain: true,
      });
      expect(
        (await ok(admin, 'query($u: String!) { domain(urn: $u) { urn exists } }', { u: parent }))['domain'],
      ).toEqual({ urn: parent, exists: false });
    });
  });
}
