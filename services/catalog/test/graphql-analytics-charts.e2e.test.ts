import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  logIn,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

const bearer = (token: string) => `Bearer ${token}`;

const CHARTS = `query {
  getAnalyticsCharts {
    groupId title
    charts {
      __typename
      ... on TimeSeriesChart { title interval dateRange { start end } lines { name data { x y } } }
      ... on BarChart { title bars { name segments { label value } } }
      ... on TableChart { title columns rows { values cells { value entity { urn type }
        linkParams { entityProfileParams { urn type } } } } }
    }
  }
}`;
const METADATA = `query($input: MetadataAnalyticsInput!) {
  getMetadataAnalyticsCharts(input: $input) { groupId title charts { ... on BarChart { title bars { name segments { label value } } } } }
}`;

interface Bar {
  name: string;
  segments: { label: string; value: number }[];
}
interface Chart {
  __typename: string;
  title: string;
  interval?: string;
  lines?: { name: string; data: { x: string; y: number }[] }[];
  bars?: Bar[];
  columns?: string[];
  rows?: { values: string[]; cells: { value: string; entity: { urn: string } | null }[] }[];
}
interface Group {
  groupId: string;
  title: string;
  charts: Chart[];
}

const denied = (r: GraphQLResponse) => r.errors?.[0]?.extensions?.['code'] === 403;

/**
 * The analytics page's charts (the ecosystem's smoke suite reads them after loading usage events):
 * answered from the catalog's own data, the audit index for usage (active users from logins, the users
 * who joined, the top users, the actions by entity type) and the search index's facets for the data
 * landscape (entities by domain and platform, by platform, by term, by environment), with display names.
 * For whoever holds VIEW_ANALYTICS: every user by the default policy, no one once it is off. Both families.
 */
for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`analytics charts over GraphQL (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let analyst: string;
    const run = Date.now().toString(36);
    const analystUrn = `urn:li:corpuser:analyst_${run}@example.com`;
    const domain = `urn:li:domain:an_${run}`;
    const term = `urn:li:glossaryTerm:an_${run}`;
    const datasets = [
      datasetUrn(`an_${run}.orders`, 'snowflake'),
      datasetUrn(`an_${run}.users`, 'snowflake'),
      datasetUrn(`an_${run}.events`, 'kafka', 'DEV'),
    ];

    const ask = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });
    const ok = async (authorization: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await ask(authorization, query, variables);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as Record<string, unknown>;
    };
    const chartsAs = async (authorization: string) => {
      const groups = (await ok(authorization, CHARTS))['getAnalyticsCharts'] as Group[];
      return new Map(groups.flatMap((g) => g.charts.map((c) => [c.title, c] as const)));
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      const invite = await ok(admin, 'mutation { createInviteToken(input: {}) { inviteToken } }');
      const { inviteToken } = invite['createInviteToken'] as { inviteToken: string };
      const signedUp = await callAs(base, 'POST', '/signUp', undefined, {
        fullName: 'Ana Lyst',
        email: `analyst_${run}@example.com`,
        password: 'a long password 1',
        inviteToken,
        title: 'Analyst',
      });
      expect(signedUp.status, signedUp.text).toBe(200);
      analyst = bearer(await logIn(base, `analyst_${run}@example.com`, 'a long password 1'));
      // Written by the root user: actions of the past week.
      const write = await callAs(base, 'POST', '/aspects?action=ingestProposalBatch', admin, {
        proposals: [
          proposal(domain, 'domainProperties', { name: 'Marketing' }),
          proposal(term, 'glossaryTermInfo', { name: 'PII', definition: 'personal', termSource: 'INTERNAL' }),
          ...datasets.map((urn) => proposal(urn, 'domains', { domains: [domain] })),
          proposal(datasets[0]!, 'glossaryTerms', {
            terms: [{ urn: term }],
            auditStamp: { time: 1, actor: 'urn:li:corpuser:datahub' },
          }),
        ],
        async: 'false',
      });
      expect(write.status, write.text).toBe(200);
    }, 60_000);
    afterAll(async () => catalog?.dispose());

    it('answers the usage charts from the audit trail: active users, new and top users, actions by entity type', async () => {
      const charts = await waitUntil(
        () => chartsAs(admin),
        (c) =>
          (c.get('Weekly Active Users')?.lines?.[0]?.data.at(-1)?.y ?? 0) >= 2 &&
          (c.get('Top Users (Last 30 Days)')?.rows?.length ?? 0) > 0 &&
          (c.get('New Users (Last 30 Days)')?.rows?.length ?? 0) > 0 &&
          // Every audited write is counted (the distributed audit index catches up on its own time).
          (c
            .get('Actions By Entity Type (Past Week)')
            ?.bars?.find((b) => b.name === 'DATASET')
            ?.segments.some((s) => s.label === 'domains' && s.value >= 3) ??
            false),
        30_000,
      );
      const weekly = charts.get('Weekly Active Users')!;
      expect(weekly).toMatchObject({ __typename: 'TimeSeriesChart', interval: 'WEEK' });
      // This week's point: the root user and the analyst logged in.
      const thisWeek = weekly.lines![0]!.data.at(-1)!;
      expect(thisWeek.y).toBe(2);
      expect(new Date(thisWeek.x).getUTCDay()).toBe(1);
      expect(charts.get('Monthly Active Users')).toMatchObject({ interval: 'MONTH' });

      const newUsers = charts.get('New Users (Last 30 Days)')!;
      expect(newUsers.columns).toEqual(['Name', 'Title', 'Email']);
      const joined = newUsers.rows!.find((r) => r.values[0] === analystUrn);
      expect(joined?.cells.map((c) => c.value)).toEqual([
        'Ana Lyst',
        'Analyst',
        `analyst_${run}@example.com`,
      ]);
      expect(joined?.cells[0]?.entity).toEqual({ urn: analystUrn, type: 'CORP_USER' });

      const top = charts.get('Top Users (Last 30 Days)')!;
      // The root user's own activity is left out, as the ecosystem leaves out its root users'.
      expect(top.rows!.map((r) => r.values[0])).toContain(analystUrn);
      expect(top.rows!.map((r) => r.values[0])).not.toContain('urn:li:corpuser:datahub');
      expect(Number(top.rows!.find((r) => r.values[0] === analystUrn)?.values[1])).toBeGreaterThan(0);

      const actions = charts.get('Actions By Entity Type (Past Week)')!;
      const datasetBar = actions.bars!.find((b) => b.name === 'DATASET');
      expect(datasetBar?.segments).toEqual(expect.arrayContaining([{ label: 'domains', value: 3 }]));
      expect(actions.bars!.map((b) => b.name)).toEqual(expect.arrayContaining(['DOMAIN', 'GLOSSARY_TERM']));
    });

    it('answers the data landscape from the search facets, entities named by their display names', async () => {
      const charts = await waitUntil(
        () => chartsAs(admin),
        (c) => (c.get('Entities By Domain')?.bars?.[0]?.segments.length ?? 0) === 2,
        30_000,
      );
      expect(charts.get('Entities By Domain')?.bars).toEqual([
        {
          name: 'Marketing',
          segments: [
            { label: 'Snowflake', value: 2 },
            { label: 'Kafka', value: 1 },
          ],
        },
      ]);
      expect(charts.get('Assets By Platform')?.bars).toEqual([
        { name: 'Snowflake', segments: [{ label: 'Count', value: 2 }] },
        { name: 'Kafka', segments: [{ label: 'Count', value: 1 }] },
      ]);
      expect(charts.get('Entities With Term')?.bars).toEqual([
        { name: 'PII', segments: [{ label: 'Count', value: 1 }] },
      ]);
      expect(
        charts
          .get('Entities By Environment')
          ?.bars?.map((b) => b.name)
          .sort(),
      ).toEqual(['DEV', 'PROD']);

      const filtered = (await ok(admin, METADATA, { input: { entityType: 'DATASET', query: 'orders' } }))[
        'getMetadataAnalyticsCharts'
      ] as Group[];
      expect(filtered).toEqual([
        {
          groupId: 'FilteredMetadataAnalytics',
          title: '',
          charts: [
            {
              title: 'Data Assets by Domain',
              bars: [{ name: 'Marketing', segments: [{ label: 'Count', value: 1 }] }],
            },
            {
              title: 'Data Assets by Platform',
              bars: [{ name: 'Snowflake', segments: [{ label: 'Count', value: 1 }] }],
            },
            {
              title: 'Data Assets by Term',
              bars: [{ name: 'PII', segments: [{ label: 'Count', value: 1 }] }],
            },
          ],
        },
      ]);
      // Within a domain there is no domain chart; one environment only, no environment chart.
      const inDomain = (await ok(admin, METADATA, { input: { domain, query: 'events' } }))[
        'getMetadataAnalyticsCharts'
      ] as Group[];
      expect(inDomain[0]?.charts.map((c) => c.title)).toEqual([
        'Data Assets by Platform',
        'Data Assets by Term',
      ]);
      expect(inDomain[0]?.charts[0]?.bars).toEqual([
        { name: 'Kafka', segments: [{ label: 'Count', value: 1 }] },
      ]);
      const bad = await ask(admin, METADATA, { input: { entityType: 'NOT_A_TYPE' } });
      expect(bad.errors).toBeDefined();
    });

    it('answers whoever holds VIEW_ANALYTICS (every user by default) and refuses once the policy is off', async () => {
      const flags = await ok(analyst, '{ isAnalyticsEnabled appConfig { analyticsConfig { enabled } } }');
      expect(flags).toEqual({ isAnalyticsEnabled: true, appConfig: { analyticsConfig: { enabled: true } } });
      expect((await chartsAs(analyst)).has('Weekly Active Users')).toBe(true);
      const unauthenticated = await callAs(base, 'POST', '/api/graphql', undefined, { query: CHARTS });
      expect(unauthenticated.status).toBe(401);

      const basePolicy = 'urn:li:dataHubPolicy:7';
      const setState = (state: string) =>
        ok(
          admin,
          'mutation($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }',
          {
            urn: basePolicy,
            input: {
              type: 'PLATFORM',
              name: 'All Users - Base Platform Privileges',
              state,
              privileges: ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'],
              actors: { allUsers: true, allGroups: false, resourceOwners: false },
            },
          },
        );
      await setState('INACTIVE');
      try {
        await waitUntil(
          () => ask(analyst, CHARTS),
          (r) => denied(r),
          30_000,
        );
        expect(denied(await ask(analyst, METADATA, { input: {} }))).toBe(true);
        // The admin holds it through its role.
        expect((await chartsAs(admin)).size).toBeGreaterThan(0);
      } finally {
        await setState('ACTIVE');
      }
    });
  });
}
