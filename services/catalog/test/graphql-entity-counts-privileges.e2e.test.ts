import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, graphqlData } from './graphql-client.js';
import { datasetUrn, logIn, startTestCatalog, SYSTEM_AUTH_HEADERS, type TestCatalog } from './harness.js';
import { signUpUser } from './test-users.js';

const ORDERS = datasetUrn('sales.orders');
const CUSTOMERS = datasetUrn('sales.customers');
const CHART = 'urn:li:chart:(looker,revenue)';

async function write(catalog: TestCatalog, urn: string, aspectName: string, value: unknown): Promise<void> {
  const res = await fetch(`${catalog.baseUrl}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: {
      ...SYSTEM_AUTH_HEADERS,
      'Content-Type': 'application/json',
      'X-RestLi-Protocol-Version': '2.0.0',
      'X-Wait-For-Index': 'true',
    },
    body: JSON.stringify({
      proposal: {
        entityType: urn.split(':')[2],
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { contentType: 'application/json', value: JSON.stringify(value) },
      },
      async: 'false',
    }),
  });
  expect(res.status, await res.text()).toBe(200);
}

const COUNTS = `query($input: EntityCountInput) { getEntityCounts(input: $input) { counts { entityType count } } }`;
const PRIVILEGES = `query($urn: String!) { dataset(urn: $urn) { privileges {
  canEditTags canEditGlossaryTerms canEditOwners canEditDescription canEditDomains canEditLinks
  canEditDeprecation canEditProperties canEditSchemaFieldTags canEditSchemaFieldGlossaryTerms
  canEditSchemaFieldDescription } } }`;

describe('getEntityCounts and EntityPrivileges over GraphQL', () => {
  let catalog: TestCatalog;
  let admin: string;
  let reader: string;
  let editor: string;
  let nobody: string;

  beforeAll(async () => {
    catalog = await startTestCatalog();
    await write(catalog, ORDERS, 'datasetProperties', { name: 'orders' });
    await write(catalog, CUSTOMERS, 'datasetProperties', { name: 'customers' });
    await write(catalog, CHART, 'chartInfo', {
      title: 'Revenue',
      description: '',
      lastModified: {
        created: { time: 0, actor: 'urn:li:corpuser:datahub' },
        lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
      },
    });
    admin = `Bearer ${await logIn(catalog.baseUrl)}`;
    reader = await signUpUser(catalog.baseUrl, admin, 'reader@example.com', 'Reader');
    editor = await signUpUser(catalog.baseUrl, admin, 'editor@example.com', 'Editor');
    nobody = await signUpUser(catalog.baseUrl, admin, 'nobody@example.com');
    await graphqlData(
      catalog.baseUrl,
      'mutation { createTag(input: {id: "pii", name: "PII"}) }',
      {},
      { headers: { Authorization: admin } },
    );
  });
  afterAll(async () => {
    await catalog?.dispose();
  });

  it('counts the entities of each asked type, zero included, in the order asked', async () => {
    const data = await graphqlData(
      catalog.baseUrl,
      COUNTS,
      { input: { types: ['CHART', 'DATASET', 'DASHBOARD'] } },
      { headers: { Authorization: admin } },
    );
    expect(data).toEqual({
      getEntityCounts: {
        counts: [
          { entityType: 'CHART', count: 1 },
          { entityType: 'DATASET', count: 2 },
          { entityType: 'DASHBOARD', count: 0 },
        ],
      },
    });
  });

  it('counts every searchable type when none are asked, and refuses a view it cannot apply', async () => {
    const data = await graphqlData<{ getEntityCounts: { counts: { entityType: string; count: number }[] } }>(
      catalog.baseUrl,
      '{ getEntityCounts { counts { entityType count } } }',
      {},
      { headers: { Authorization: reader } },
    );
    expect(data.getEntityCounts.counts).toContainEqual({ entityType: 'DATASET', count: 2 });
    expect(data.getEntityCounts.counts).toContainEqual({ entityType: 'CHART', count: 1 });
    const view = await graphql(
      catalog.baseUrl,
      COUNTS,
      { input: { types: ['DATASET'], viewUrn: 'urn:li:dataHubView:x' } },
      { headers: { Authorization: admin } },
    );
    expect(view.errors?.[0]?.message).toContain('viewUrn is not supported by getEntityCounts');
    expect(view.errors?.[0]?.extensions?.['code']).toBe(400);
  });

  it('tells each actor the edits it may make, as the mutations would decide them', async () => {
    const privilegesOf = async (authorization: string) =>
      (
        await graphqlData<{ dataset: { privileges: Record<string, boolean> } }>(
          catalog.baseUrl,
          PRIVILEGES,
          { urn: ORDERS },
          { headers: { Authorization: authorization } },
        )
      ).dataset.privileges;
    const all = (value: boolean) =>
      expect.objectContaining({ canEditTags: value, canEditDescription: value, canEditOwners: value });
    expect(await privilegesOf(admin)).toEqual(all(true));
    expect(await privilegesOf(editor)).toEqual(all(true));
    expect(await privilegesOf(reader)).toEqual(all(false));

    // What the answer says is what the mutation does.
    const addTag = (authorization: string) =>
      graphql(
        catalog.baseUrl,
        'mutation($input: TagAssociationInput!) { addTag(input: $input) }',
        { input: { resourceUrn: ORDERS, tagUrn: 'urn:li:tag:pii' } },
        { headers: { Authorization: authorization } },
      );
    expect((await addTag(reader)).errors?.[0]?.extensions?.['code']).toBe(403);
    const added = await addTag(editor);
    expect(added.errors, JSON.stringify(added.errors)).toBeUndefined();

    // A user with no role may not read the dataset, let alone be told what it could edit.
    const none = await graphql(
      catalog.baseUrl,
      PRIVILEGES,
      { urn: ORDERS },
      { headers: { Authorization: nobody } },
    );
    const privileges = (none.data?.['dataset'] as { privileges?: Record<string, boolean> } | null)
      ?.privileges;
    expect(privileges === undefined || Object.values(privileges).every((v) => v === false)).toBe(true);
  });
});
