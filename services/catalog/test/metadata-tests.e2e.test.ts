import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  get,
  logIn,
  post,
  proposal,
  request,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type TestCatalog,
} from './harness.js';

const definition = (rules: unknown, conditions?: unknown) =>
  JSON.stringify({ on: { types: ['dataset'], ...(conditions === undefined ? {} : { conditions }) }, rules });
const HAS_DESCRIPTION = definition({ property: 'datasetProperties.description', operator: 'exists' });
const HAS_PII_TERM = definition({
  and: [
    { property: 'glossaryTerms.terms.urn', operator: 'equals', values: ['urn:li:glossaryTerm:Pii'] },
    { not: { property: 'globalTags.tags.tag', operator: 'starts_with', values: ['urn:li:tag:deprecated'] } },
  ],
});
/** Applies only to datasets tagged gold. */
const GOLD_NAMED = definition(
  { property: 'datasetProperties.name', operator: 'regex_match', values: ['gold_.*'] },
  { property: 'globalTags.tags.tag', operator: 'equals', values: ['urn:li:tag:gold'] },
);
const CHARTS_ONLY = JSON.stringify({
  on: { types: ['chart'] },
  rules: { property: 'chartInfo.title', operator: 'exists' },
});

const CREATE = 'mutation($input: CreateTestInput!) { createTest(input: $input) }';
const UPDATE = 'mutation($urn: String!, $input: UpdateTestInput!) { updateTest(urn: $urn, input: $input) }';

interface Results {
  passing: { test: string; type: string }[];
  failing: { test: string; type: string }[];
}
const tests = (list: { test: string }[]) => list.map((r) => r.test).sort();

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`metadata tests (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: Record<string, string>;
    const run = Math.random().toString(36).slice(2, 8);
    const described = datasetUrn(`tests_${run}.described`);
    const bare = datasetUrn(`tests_${run}.bare`);
    const gold = datasetUrn(`tests_${run}.gold`);
    const T = (id: string) => `urn:li:test:${id}_${run}`;

    const gql = (query: string, variables: Record<string, unknown> = {}, headers = admin) =>
      graphql(base, query, variables, { headers });
    const createTest = async (id: string, json: string, name = id, category = 'Quality') => {
      const res = await gql(CREATE, { input: { id: `${id}_${run}`, name, category, definition: { json } } });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return (res.data as { createTest: string }).createTest;
    };
    const evaluate = async (body: Record<string, unknown>, path = '/gms/test?action=evaluate') => {
      const res = await request(base, 'POST', path, body);
      expect(res.status, res.text).toBe(200);
      return (res.body as { value: Results }).value;
    };
    const searchDatasets = async (field: string, value: string) => {
      const res = await post(base, '/entities?action=search', {
        entity: 'dataset',
        input: '*',
        start: 0,
        count: 100,
        filter: { or: [{ and: [{ field, values: [value], condition: 'EQUAL' }] }] },
      });
      expect(res.status, res.text).toBe(200);
      return [...(res.body as { value: { entities: string[] } }).value.entities].sort();
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = { Authorization: `Bearer ${await logIn(base)}` };
      const seed = [
        proposal(described, 'datasetProperties', {
          name: 'described',
          description: 'Has one',
          customProperties: {},
        }),
        proposal(described, 'glossaryTerms', {
          terms: [{ urn: 'urn:li:glossaryTerm:Pii' }],
          auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' },
        }),
        proposal(bare, 'datasetProperties', { name: 'bare', customProperties: {} }),
        proposal(gold, 'datasetProperties', { name: 'gold_orders', customProperties: {} }),
        proposal(gold, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }] }),
      ];
      const res = await request(base, 'POST', '/aspects?action=ingestProposalBatch', { proposals: seed });
      expect(res.status, res.text).toBe(200);
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('creates tests through GraphQL and reads them back', async () => {
      expect(await createTest('description', HAS_DESCRIPTION, 'Has a description')).toBe(T('description'));
      expect(await createTest('pii', HAS_PII_TERM, 'PII is marked', 'Governance')).toBe(T('pii'));
      expect(await createTest('gold', GOLD_NAMED)).toBe(T('gold'));
      expect(await createTest('charts', CHARTS_ONLY)).toBe(T('charts'));
      const again = await gql(CREATE, {
        input: { id: `pii_${run}`, name: 'x', category: 'y', definition: { json: HAS_PII_TERM } },
      });
      expect(again.errors?.[0]?.message).toContain('This Test already exists!');
      const read = await gql(
        `{ test(urn: "${T('pii')}") { urn type name category description definition { json } } }`,
      );
      expect(read.errors).toBeUndefined();
      expect(read.data).toEqual({
        test: {
          urn: T('pii'),
          type: 'TEST',
          name: 'PII is marked',
          category: 'Governance',
          description: null,
          definition: { json: HAS_PII_TERM },
        },
      });
    });

    it('refuses a definition that does not parse, with the reason, through GraphQL and a raw proposal', async () => {
      const bad = definition({ property: 'datasetProperties.name', operator: 'sounds_like', values: ['x'] });
      const viaGraphql = await gql(CREATE, {
        input: { id: `bad_${run}`, name: 'bad', category: 'c', definition: { json: bad } },
      });
      expect(viaGraphql.errors?.[0]?.extensions).toMatchObject({ code: 400 });
      expect(viaGraphql.errors?.[0]?.message).toContain('Unsupported operation sounds_like');
      const notJson = await gql(CREATE, {
        input: { id: `bad_${run}`, name: 'bad', category: 'c', definition: { json: '{"on": ' } },
      });
      expect(notJson.errors?.[0]?.message).toContain('not valid JSON');
      const validation = await gql(
        'query($json: String) { validateTest(input: {json: $json}) { isValid messages } }',
        {
          json: definition({ property: 'noSuchAspect.x', operator: 'exists' }),
        },
      );
      expect(validation.data).toEqual({
        validateTest: { isValid: false, messages: [expect.stringContaining('Unknown aspect noSuchAspect')] },
      });

      const raw = await post(base, '/aspects?action=ingestProposal', {
        proposal: proposal(`urn:li:test:raw_${run}`, 'testInfo', {
          name: 'raw',
          category: 'c',
          definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] } }) },
        }),
      });
      expect(raw.status).toBe(400);
      expect((raw.body as { message: string }).message).toContain(
        'Invalid test definition: rules is required',
      );
      const good = await post(base, '/aspects?action=ingestProposal', {
        proposal: proposal(`urn:li:test:raw_${run}`, 'testInfo', {
          name: 'raw',
          category: 'c',
          definition: { type: 'JSON', json: HAS_DESCRIPTION },
        }),
      });
      expect(good.status, good.text).toBe(200);
      expect((await gql(`mutation { deleteTest(urn: "urn:li:test:raw_${run}") }`)).data).toEqual({
        deleteTest: true,
      });
      const gone = await gql(`{ test(urn: "urn:li:test:raw_${run}") { urn } }`);
      expect(gone.data).toEqual({ test: null });
    });

    it('evaluates without push: the applicable tests, nothing written', async () => {
      const results = await evaluate({ urn: bare });
      expect(tests(results.passing)).toEqual([]);
      expect(tests(results.failing)).toEqual([T('description'), T('pii')].sort());
      expect(results.failing[0]).toMatchObject({ type: 'FAILURE' });
      const onDescribed = await evaluate({ urn: described }, '/test?action=evaluate');
      expect(tests(onDescribed.passing)).toEqual([T('description'), T('pii')].sort());
      expect(onDescribed.passing[0]).toMatchObject({ type: 'SUCCESS' });
      // Only the gold dataset meets the gold test's conditions.
      const onGold = await evaluate({ urn: gold });
      expect(tests(onGold.passing)).toEqual([T('gold')]);
      expect(tests(onGold.failing)).toEqual([T('description'), T('pii')].sort());
      // Named tests only; unknown ones are skipped.
      const named = await evaluate({ urn: bare, testUrns: [T('pii'), 'urn:li:test:nope'] });
      expect(named).toEqual({ passing: [], failing: [{ test: T('pii'), type: 'FAILURE' }] });
      const stored = await get(base, `/aspects/${enc(bare)}?aspect=testResults&version=0`);
      expect(stored.status).toBe(404);
      const missing = await post(base, '/gms/test?action=evaluate', { urn: datasetUrn(`nothing_${run}`) });
      expect(missing.status).toBe(404);
      const noUrn = await post(base, '/gms/test?action=evaluate', {});
      expect(noUrn.status).toBe(400);
    });

    it('evaluates with push: testResults stored, searchable, related, and shown on the dataset', async () => {
      const results = await evaluate({ urn: bare, push: true });
      expect(tests(results.failing)).toEqual([T('description'), T('pii')].sort());
      const stored = await get(base, `/aspects/${enc(bare)}?aspect=testResults&version=0`);
      expect(stored.status, stored.text).toBe(200);
      expect(
        (stored.body as { aspect: Record<string, Results> }).aspect['com.linkedin.test.TestResults'],
      ).toEqual({
        passing: [],
        failing: expect.arrayContaining([
          { test: T('description'), type: 'FAILURE' },
          { test: T('pii'), type: 'FAILURE' },
        ]),
      });
      await evaluate({ urn: described, push: true });

      expect(
        await waitUntil(
          () => searchDatasets('hasFailingTests', 'true'),
          (e) => e.length === 1,
        ),
      ).toEqual([bare]);
      expect(
        await waitUntil(
          () => searchDatasets('failingTests', T('pii')),
          (e) => e.length === 1,
        ),
      ).toEqual([bare]);
      expect(
        await waitUntil(
          () => searchDatasets('passingTests', T('pii')),
          (e) => e.length === 1,
        ),
      ).toEqual([described]);
      const failing = await waitUntil(
        () => get(base, `/relationships?direction=INCOMING&urn=${enc(T('description'))}&types=IsFailing`),
        (r) => (r.body as { total?: number }).total === 1,
      );
      expect((failing.body as { entities: string[] }).entities).toEqual([bare]);
      const passing = await get(
        base,
        `/relationships?direction=INCOMING&urn=${enc(T('pii'))}&types=IsPassing`,
      );
      expect((passing.body as { entities: string[] }).entities).toEqual([described]);

      const shown = await gql(
        `{ dataset(urn: "${bare}") { testResults { passing { test { urn } type } failing { test { urn name } type } } } }`,
      );
      expect(shown.errors).toBeUndefined();
      const testResults = (shown.data as { dataset: { testResults: { failing: unknown[] } } }).dataset
        .testResults;
      expect(testResults.failing).toEqual(
        expect.arrayContaining([
          { test: { urn: T('pii'), name: 'PII is marked' }, type: 'FAILURE' },
          { test: { urn: T('description'), name: 'Has a description' }, type: 'FAILURE' },
        ]),
      );
      const summary = await gql(`{ test(urn: "${T('pii')}") { results { passingCount failingCount } } }`);
      expect(summary.data).toEqual({ test: { results: { passingCount: 1, failingCount: 1 } } });
      const none = await gql(`{ dataset(urn: "${gold}") { testResults { passing { type } } } }`);
      expect(none.data).toEqual({ dataset: { testResults: null } });
    });

    it('pushes named tests by merging, and batch-evaluates', async () => {
      // The dataset gets a description: only the description test is re-run and replaced.
      const described2 = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(bare, 'datasetProperties', {
          name: 'bare',
          description: 'now',
          customProperties: {},
        }),
      });
      expect(described2.status).toBe(200);
      await evaluate({ urn: bare, push: true, tests: [T('description')] });
      const stored = await get(base, `/aspects/${enc(bare)}?aspect=testResults&version=0`);
      expect(
        (stored.body as { aspect: Record<string, Results> }).aspect['com.linkedin.test.TestResults'],
      ).toEqual({
        passing: [{ test: T('description'), type: 'SUCCESS' }],
        failing: [{ test: T('pii'), type: 'FAILURE' }],
      });

      const batch = await request(base, 'POST', '/gms/test?action=batchEvaluate', {
        urns: [bare, gold],
        testUrns: [T('gold')],
      });
      expect(batch.status, batch.text).toBe(200);
      expect(batch.body).toEqual({
        value: {
          results: {
            [bare]: { passing: [], failing: [] },
            [gold]: { passing: [{ test: T('gold'), type: 'SUCCESS' }], failing: [] },
          },
        },
      });
    });

    it('lists, updates and deletes tests', async () => {
      const list = async (query?: string) => {
        const res = await gql(
          'query($q: String) { listTests(input: {start: 0, count: 10, query: $q}) { start count total tests { urn name category } } }',
          { q: query ?? null },
        );
        expect(res.errors).toBeUndefined();
        return (res.data as { listTests: { total: number; tests: { urn: string; name: string }[] } })
          .listTests;
      };
      expect((await list()).total).toBe(4);
      expect((await list('governance')).tests).toEqual([
        { urn: T('pii'), name: 'PII is marked', category: 'Governance' },
      ]);
      const updated = await gql(UPDATE, {
        urn: T('charts'),
        input: {
          name: 'Charts have titles',
          category: 'Quality',
          description: 'Titles',
          definition: { json: CHARTS_ONLY },
        },
      });
      expect(updated.errors).toBeUndefined();
      expect((await list('titles')).tests).toEqual([
        { urn: T('charts'), name: 'Charts have titles', category: 'Quality' },
      ]);
      const badUpdate = await gql(UPDATE, {
        urn: T('charts'),
        input: {
          name: 'x',
          category: 'y',
          definition: { json: '{"on":{"types":["chart"]},"rules":{"and":[]}}' },
        },
      });
      expect(badUpdate.errors?.[0]?.message).toContain('rules.and must not be empty');
      const missing = await gql(UPDATE, {
        urn: `urn:li:test:missing_${run}`,
        input: { name: 'x', category: 'y', definition: { json: CHARTS_ONLY } },
      });
      expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 404 });

      expect((await gql(`mutation { deleteTest(urn: "${T('charts')}") }`)).data).toEqual({
        deleteTest: true,
      });
      expect((await list()).total).toBe(3);
      // A deleted test no longer runs.
      await gql(`mutation { deleteTest(urn: "${T('gold')}") }`);
      expect(tests((await evaluate({ urn: gold })).passing)).toEqual([]);
    });

    it('refuses a user without MANAGE_TESTS', async () => {
      const { data } = await gql('query { getInviteToken(input: {}) { inviteToken } }');
      const inviteToken = (data as { getInviteToken: { inviteToken: string } }).getInviteToken.inviteToken;
      const id = `tester_${run}`;
      const signUp = await callAs(base, 'POST', '/auth/signUp', SYSTEM_CLIENT_AUTHORIZATION, {
        userUrn: `urn:li:corpuser:${id}`,
        fullName: id,
        email: `${id}@example.com`,
        password: 'tester password 1',
        inviteToken,
        title: 'Analyst',
      });
      expect(signUp.status, signUp.text).toBe(200);
      const user = { Authorization: `Bearer ${await logIn(base, id, 'tester password 1')}` };
      const create = await gql(
        CREATE,
        { input: { id: `mine_${run}`, name: 'n', category: 'c', definition: { json: HAS_DESCRIPTION } } },
        user,
      );
      expect(create.errors?.[0]?.extensions).toMatchObject({ code: 403 });
      const update = await gql(
        UPDATE,
        { urn: T('pii'), input: { name: 'n', category: 'c', definition: { json: HAS_DESCRIPTION } } },
        user,
      );
      expect(update.errors?.[0]?.extensions).toMatchObject({ code: 403 });
      const remove = await gql(`mutation { deleteTest(urn: "${T('pii')}") }`, {}, user);
      expect(remove.errors?.[0]?.extensions).toMatchObject({ code: 403 });
      const listing = await gql('{ listTests(input: {}) { total } }', {}, user);
      expect(listing.errors?.[0]?.extensions).toMatchObject({ code: 403 });
      const push = await callAs(base, 'POST', '/gms/test?action=evaluate', user.Authorization, {
        urn: bare,
        push: true,
      });
      expect(push.status).toBe(403);
      expect((await list()).total).toBe(2);
    });

    const list = async () => {
      const res = await gql('{ listTests(input: {}) { total } }');
      return (res.data as { listTests: { total: number } }).listTests;
    };
  });
}
