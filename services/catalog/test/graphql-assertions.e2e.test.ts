import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  datasetUrn,
  logIn,
  proposal,
  startTestCatalog,
  SYSTEM_AUTH_HEADERS,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { grantPolicy, signUpUser } from './test-users.js';

const bearer = (token: string) => `Bearer ${token}`;

// As the pinned SDK's DataHubGraph.upsert_custom_assertion sends it (every variable typed as the ecosystem's).
const UPSERT = `mutation upsertCustomAssertion($assertionUrn: String, $entityUrn: String!, $type: String!,
  $description: String!, $fieldPath: String, $fieldPaths: [String!], $platformName: String, $platformUrn: String,
  $externalUrl: String, $logic: String, $scope: DatasetAssertionScope, $aggregation: AssertionStdAggregation,
  $operator: AssertionStdOperator, $parameters: AssertionStdParametersInput, $nativeType: String,
  $nativeParameters: [StringMapEntryInput!]) {
  upsertCustomAssertion(urn: $assertionUrn, input: { entityUrn: $entityUrn type: $type description: $description
    fieldPath: $fieldPath fieldPaths: $fieldPaths platform: { urn: $platformUrn, name: $platformName }
    externalUrl: $externalUrl logic: $logic scope: $scope aggregation: $aggregation operator: $operator
    parameters: $parameters nativeType: $nativeType nativeParameters: $nativeParameters }) { urn }
}`;
const REPORT = `mutation reportAssertionResult($assertionUrn: String!, $timestampMillis: Long!,
  $type: AssertionResultType!, $properties: [StringMapEntryInput!], $externalUrl: String,
  $error: AssertionResultErrorInput, $severity: AssertionResultSeverity) {
  reportAssertionResult(urn: $assertionUrn, result: { timestampMillis: $timestampMillis type: $type
    properties: $properties externalUrl: $externalUrl error: $error severity: $severity })
}`;
const ASSERTIONS = `query($urn: String!) { dataset(urn: $urn) { assertions(start: 0, count: 100) { total assertions {
  urn
  runEvents(status: COMPLETE, limit: 3) { total failed succeeded errored runEvents {
    timestampMillis runId status asserteeUrn result { type externalUrl nativeResults { key value } error { type properties { key value } } }
  } }
  info { type description externalUrl source { type } customAssertion {
    type entityUrn field { urn path } fields { path } scope aggregation operator
    parameters { value { value type } minValue { value type } } nativeType nativeParameters { key value } logic
  } }
} } } }`;
const DELETE = 'mutation($urn: String!) { deleteAssertion(urn: $urn) }';

const denied = (r: GraphQLResponse) => r.errors?.[0]?.extensions?.['code'] === 403;

interface Listed {
  urn: string;
  runEvents: {
    total: number;
    failed: number;
    succeeded: number;
    errored: number;
    runEvents: Record<string, unknown>[];
  };
  info: Record<string, unknown> & { customAssertion: Record<string, unknown> };
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`custom assertions over GraphQL (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let editor: string;
    const run = Date.now().toString(36);
    const editorUrn = `urn:li:corpuser:aseditor_${run}@example.com`;
    const dataset = datasetUrn(`assertions_${run}.orders`, 'postgres');
    const other = datasetUrn(`assertions_${run}.other`, 'postgres');

    const ask = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });
    const ok = async (authorization: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await ask(authorization, query, variables);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as Record<string, unknown>;
    };
    const listed = async (urn: string): Promise<Listed[]> =>
      ((await ok(admin, ASSERTIONS, { urn }))['dataset'] as { assertions: { assertions: Listed[] } })
        .assertions.assertions;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `asnorole_${run}@example.com`);
      editor = await signUpUser(base, admin, `aseditor_${run}@example.com`);
      const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
        body: JSON.stringify({
          proposals: [
            proposal(dataset, 'status', { removed: false }),
            proposal(other, 'status', { removed: false }),
          ],
          async: 'false',
        }),
      });
      expect(res.status).toBe(200);
      await grantPolicy(base, admin, {
        privileges: ['EDIT_ENTITY_ASSERTIONS'],
        users: [editorUrn],
        resources: [dataset],
      });
    }, 60_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('creates, replaces, reports on, lists and deletes a custom assertion as the SDK does', async () => {
      const created = await ok(admin, UPSERT, {
        entityUrn: dataset,
        type: 'My custom category',
        description: 'first',
        platformName: 'customDQPlatform',
        fieldPath: 'amount',
        scope: 'DATASET_COLUMN',
        aggregation: 'SUM',
        operator: 'BETWEEN',
        parameters: { minValue: { value: '0', type: 'NUMBER' }, value: { value: '5', type: 'NUMBER' } },
        nativeType: 'expect_sum',
        nativeParameters: [{ key: 'k', value: 'v' }],
        logic: 'select sum(amount)',
      });
      const urn = (created['upsertCustomAssertion'] as { urn: string }).urn;
      expect(urn).toMatch(/^urn:li:assertion:/);
      // A replace resends what it keeps: the omitted optionals are cleared.
      await ok(admin, UPSERT, {
        assertionUrn: urn,
        entityUrn: dataset,
        type: 'My custom category',
        description: 'second',
        platformName: 'customDQPlatform',
        externalUrl: 'http://some_url',
      });
      await ok(admin, REPORT, {
        assertionUrn: urn,
        timestampMillis: 1,
        type: 'SUCCESS',
        externalUrl: 'http://r/1',
      });
      await ok(admin, REPORT, {
        assertionUrn: urn,
        timestampMillis: 2,
        type: 'ERROR',
        error: { type: 'SOURCE_QUERY_FAILED', message: 'Permission Denied' },
      });
      await ok(admin, REPORT, {
        assertionUrn: urn,
        timestampMillis: 3,
        type: 'FAILURE',
        properties: [{ key: 'rows', value: '7' }],
      });

      const [assertion] = await waitUntil(
        () => listed(dataset),
        (a) => a.length === 1 && a[0]!.runEvents.total === 3,
      );
      expect(assertion!.urn).toBe(urn);
      expect(assertion!.info).toEqual({
        type: 'CUSTOM',
        description: 'second',
        externalUrl: 'http://some_url',
        source: { type: 'EXTERNAL' },
        customAssertion: {
          type: 'My custom category',
          entityUrn: dataset,
          field: null,
          fields: null,
          scope: null,
          aggregation: null,
          operator: null,
          parameters: null,
          nativeType: null,
          nativeParameters: null,
          logic: null,
        },
      });
      const events = assertion!.runEvents;
      expect(events).toMatchObject({ total: 3, failed: 1, succeeded: 1, errored: 1 });
      expect(events.runEvents.map((e) => e['runId'])).toEqual(['3', '2', '1']);
      expect(events.runEvents[0]).toMatchObject({
        status: 'COMPLETE',
        asserteeUrn: dataset,
        result: { type: 'FAILURE', nativeResults: [{ key: 'rows', value: '7' }], error: null },
      });
      expect(events.runEvents[1]!['result']).toMatchObject({
        type: 'ERROR',
        error: { type: 'SOURCE_QUERY_FAILED', properties: [{ key: 'message', value: 'Permission Denied' }] },
      });

      expect(await ok(admin, DELETE, { urn })).toEqual({ deleteAssertion: true });
      await waitUntil(
        () => listed(dataset),
        (a) => a.length === 0,
      );
      // Deleting what is gone is still true, as the ecosystem answers.
      expect(await ok(admin, DELETE, { urn })).toEqual({ deleteAssertion: true });
    });

    it('keeps the field the upsert names as a schemaField urn and its path', async () => {
      const created = await ok(admin, UPSERT, {
        entityUrn: other,
        type: 't',
        description: 'd',
        platformUrn: 'urn:li:dataPlatform:great-expectations',
        fieldPaths: ['a', 'b'],
        scope: 'DATASET_COLUMN',
        parameters: { value: { value: '5', type: 'NUMBER' } },
      });
      const urn = (created['upsertCustomAssertion'] as { urn: string }).urn;
      const [assertion] = await waitUntil(
        () => listed(other),
        (a) => a.length === 1,
      );
      expect(assertion!.urn).toBe(urn);
      expect(assertion!.info.customAssertion).toMatchObject({
        field: { urn: `urn:li:schemaField:(${other},a)`, path: 'a' },
        fields: [{ path: 'a' }, { path: 'b' }],
        scope: 'DATASET_COLUMN',
        parameters: { value: { value: '5', type: 'NUMBER' }, minValue: null },
      });
      const blank = await ask(admin, UPSERT, {
        entityUrn: other,
        type: 't',
        description: 'd',
        platformName: 'p',
        fieldPath: ' ',
      });
      expect(blank.errors?.[0]?.message).toMatch(/fieldPath must not be blank/);
      const noPlatform = await ask(admin, UPSERT, { entityUrn: other, type: 't', description: 'd' });
      expect(noPlatform.errors?.[0]?.message).toMatch(/Platform Name or Platform Urn must be specified/);
    });

    it('takes EDIT_ENTITY_ASSERTIONS on the asserted entity for every change', async () => {
      const variables = { entityUrn: dataset, type: 't', description: 'd', platformName: 'p' };
      expect(denied(await ask(noRole, UPSERT, variables))).toBe(true);
      expect(denied(await ask(editor, UPSERT, { ...variables, entityUrn: other }))).toBe(true);
      const created = await waitUntil(
        () => ask(editor, UPSERT, variables),
        (r) => r.errors === undefined,
      );
      const urn = (created.data as { upsertCustomAssertion: { urn: string } }).upsertCustomAssertion.urn;
      expect(
        denied(await ask(noRole, REPORT, { assertionUrn: urn, timestampMillis: 1, type: 'SUCCESS' })),
      ).toBe(true);
      await ok(editor, REPORT, { assertionUrn: urn, timestampMillis: 1, type: 'SUCCESS' });
      expect(denied(await ask(noRole, DELETE, { urn }))).toBe(true);
      expect(await ok(editor, DELETE, { urn })).toEqual({ deleteAssertion: true });
      const missing = await ask(admin, REPORT, {
        assertionUrn: 'urn:li:assertion:nothing-here',
        timestampMillis: 1,
        type: 'SUCCESS',
      });
      expect(missing.errors?.[0]?.message).toMatch(/does not exist or is not associated with any entity/);
    });
  });
}
