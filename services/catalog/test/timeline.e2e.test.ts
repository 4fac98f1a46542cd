import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  ingest,
  logIn,
  proposal,
  request,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

/**
 * The timeline (change history) through its three routes: GET /openapi/v2/timeline/v1/{urn}, the
 * deprecated /openapi/timeline/v1/{urn} and GraphQL getTimeline. Each write of an aspect is a version
 * in the store; the timeline diffs consecutive versions into change events and numbers the write times
 * with semantic versions, as the ecosystem's CLI, UI and smoke suite read them.
 */

interface Transaction {
  timestamp: number;
  actor: string;
  semVer: string;
  semVerChange: string;
  versionStamp: string;
  rawDiff?: unknown[];
  changeEvents: {
    entityUrn: string;
    category: string;
    operation: string;
    modifier?: string;
    parameters?: Record<string, unknown>;
    description: string;
  }[];
}

const bearer = (token: string) => `Bearer ${token}`;
const tags = (...urns: string[]) => ({ tags: urns.map((tag) => ({ tag })) });
const field = (fieldPath: string, nativeDataType: string, description?: string) => ({
  fieldPath,
  nativeDataType,
  type: { type: { 'com.linkedin.schema.StringType': {} } },
  nullable: false,
  recursive: false,
  ...(description === undefined ? {} : { description }),
});
const schema = (...fields: unknown[]) => ({
  schemaName: 'orders',
  platform: 'urn:li:dataPlatform:kafka',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields,
});

const TIMELINE_QUERY = `
  query ($input: GetTimelineInput!) {
    getTimeline(input: $input) {
      changeTransactions {
        timestampMillis lastSemanticVersion versionStamp changeType actor
        changes { urn category operation modifier description parameters { key value } auditStamp { time actor } }
      }
      skippedVersionCount
    }
  }
`;

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`the timeline of an entity (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let reader: string;
    let noRole: string;
    const run = Date.now().toString(36);
    const dataset = datasetUrn(`timeline_${run}.orders`, 'kafka');

    const ask = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });
    const write = async (urn: string, aspect: string, value: unknown) => {
      const res = await ingest(base, proposal(urn, aspect, value));
      expect(res.status, res.text).toBe(200);
    };
    const timeline = (path: string, authorization = SYSTEM_CLIENT_AUTHORIZATION): Promise<JsonResponse> =>
      callAs(base, 'GET', path, authorization);
    const transactions = (res: JsonResponse) => {
      expect(res.status, res.text).toBe(200);
      return res.body as Transaction[];
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `tl_norole_${run}@example.com`);
      reader = await signUpUser(base, admin, `tl_reader_${run}@example.com`, 'Reader');
      // Three writes of the tags, then a schema that gains a field and loses another.
      await write(dataset, 'globalTags', tags('urn:li:tag:PII'));
      await write(dataset, 'globalTags', tags('urn:li:tag:PII', 'urn:li:tag:Legacy'));
      await write(dataset, 'globalTags', tags('urn:li:tag:Confidential'));
      await write(dataset, 'schemaMetadata', schema(field('id', 'int', 'the key'), field('name', 'string')));
      await write(dataset, 'schemaMetadata', schema(field('id', 'int', 'the key'), field('total', 'double')));
      await write(dataset, 'ownership', {
        owners: [{ owner: 'urn:li:corpuser:alice', type: 'TECHNICAL_OWNER' }],
      });
    }, 90_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('GET /openapi/v2/timeline/v1/{urn}?categories=TAG numbers each tag write 0.0.0, 0.1.0, 0.2.0', async () => {
      const result = transactions(await timeline(`/openapi/v2/timeline/v1/${enc(dataset)}?categories=TAG`));
      expect(result.map((t) => [t.semVer, t.semVerChange, t.changeEvents.length])).toEqual([
        ['0.0.0-computed', 'MINOR', 1],
        ['0.1.0-computed', 'MINOR', 1],
        ['0.2.0-computed', 'MINOR', 3],
      ]);
      expect(result[0]?.timestamp).toBeLessThan(result[1]!.timestamp);
      expect(result[2]?.versionStamp).toMatch(/(^|;)globalTags:0(;|$)/);
      expect(result[2]?.changeEvents.map((e) => `${e.operation} ${e.modifier}`)).toEqual([
        'ADD urn:li:tag:Confidential',
        'REMOVE urn:li:tag:Legacy',
        'REMOVE urn:li:tag:PII',
      ]);
      expect(result[0]).toMatchObject({
        actor: 'urn:li:corpuser:__datahub_system',
        versionStamp: expect.stringMatching(/(^|;)globalTags:1(;|$)/),
      });
      expect(result[0]?.changeEvents[0]).toMatchObject({
        entityUrn: dataset,
        category: 'TAG',
        parameters: { tagUrn: 'urn:li:tag:PII', context: '{}' },
        description: `Tag 'PII' added to entity '${dataset}'.`,
      });
    });

    it('a dropped field is a MAJOR schema change; categories are read in any case, comma-separated or repeated', async () => {
      const path = `/openapi/v2/timeline/v1/${enc(dataset)}?categories=technical-schema&categories=Owner`;
      const result = transactions(await timeline(path));
      expect(result.map((t) => [t.semVer, t.semVerChange])).toEqual([
        ['0.0.0-computed', 'MINOR'],
        ['1.0.0-computed', 'MAJOR'],
        ['1.1.0-computed', 'MINOR'],
      ]);
      expect(
        result[1]?.changeEvents.map((e) => `${e.category} ${e.operation} ${e.parameters?.['fieldPath']}`),
      ).toEqual(['TECHNICAL_SCHEMA REMOVE name', 'TECHNICAL_SCHEMA ADD total']);
      expect(result[2]?.changeEvents[0]).toMatchObject({ category: 'OWNERSHIP', operation: 'ADD' });
      const same = transactions(
        await timeline(`/openapi/v2/timeline/v1/${enc(dataset)}?categories=TECHNICAL_SCHEMA,OWNERSHIP`),
      );
      expect(same).toEqual(result);
    });

    it('the deprecated /openapi/timeline/v1/{urn} answers the same', async () => {
      const query = `${enc(dataset)}?categories=TAG,DOCUMENTATION`;
      const v2 = transactions(await timeline(`/openapi/v2/timeline/v1/${query}`));
      const v1 = transactions(await timeline(`/openapi/timeline/v1/${query}`));
      expect(v1).toEqual(v2);
      expect(v2.flatMap((t) => t.changeEvents.map((e) => e.category))).toContain('DOCUMENTATION');
    });

    it('raw=True adds each transaction’s JSON patch; a time window keeps the writes in it', async () => {
      const all = transactions(
        await timeline(`/openapi/v2/timeline/v1/${enc(dataset)}?categories=TAG&raw=True`),
      );
      expect(all[0]?.rawDiff).toEqual([{ op: 'add', path: '/tags', value: [{ tag: 'urn:li:tag:PII' }] }]);
      const from = all[1]!.timestamp;
      const windowed = transactions(
        await timeline(
          `/openapi/v2/timeline/v1/${enc(dataset)}?categories=TAG&startTime=${from}&endTime=${from}`,
        ),
      );
      expect(windowed.map((t) => t.changeEvents.map((e) => e.modifier))).toEqual([['urn:li:tag:Legacy']]);
      expect(windowed[0]).not.toHaveProperty('rawDiff');
    });

    it('bad input is a 400 naming the problem', async () => {
      const cases: [string, RegExp][] = [
        [`/openapi/v2/timeline/v1/${enc(dataset)}?categories=COLOUR`, /COLOUR/],
        [`/openapi/v2/timeline/v1/${enc(dataset)}`, /categories/],
        [`/openapi/v2/timeline/v1/not-a-urn?categories=TAG`, /urn/i],
        [`/openapi/v2/timeline/v1/${enc('urn:li:corpuser:alice')}?categories=TAG`, /corpuser not supported/],
        [`/openapi/v2/timeline/v1/${enc(dataset)}?categories=TAG&startTime=5&endTime=4`, /startTime/],
        [`/openapi/v2/timeline/v1/${enc(dataset)}?categories=TAG&raw=maybe`, /raw/],
      ];
      for (const [path, message] of cases) {
        const res = await timeline(path);
        expect(res.status, path).toBe(400);
        expect(res.text, path).toMatch(message);
      }
    });

    it('an entity with no stored versions has an empty timeline', async () => {
      const absent = datasetUrn(`timeline_${run}.absent`, 'kafka');
      expect(transactions(await timeline(`/openapi/v2/timeline/v1/${enc(absent)}?categories=TAG`))).toEqual(
        [],
      );
    });

    it('GraphQL getTimeline answers the same transactions with the ecosystem’s field names', async () => {
      const rest = transactions(await timeline(`/openapi/v2/timeline/v1/${enc(dataset)}?categories=TAG`));
      const res = await ask(admin, TIMELINE_QUERY, { input: { urn: dataset, changeCategories: ['TAG'] } });
      expect(res.errors).toBeUndefined();
      const result = res.data?.['getTimeline'] as {
        changeTransactions: {
          timestampMillis: number;
          lastSemanticVersion: string;
          versionStamp: string;
          changeType: string;
          actor: string;
          changes: {
            urn: string;
            category: string;
            operation: string;
            modifier: string;
            parameters: { key: string; value: string }[];
            auditStamp: { time: number; actor: string } | null;
          }[];
        }[];
        skippedVersionCount: number;
      };
      expect(result.skippedVersionCount).toBe(0);
      expect(
        result.changeTransactions.map((t) => [t.timestampMillis, t.lastSemanticVersion, t.versionStamp]),
      ).toEqual(rest.map((t) => [t.timestamp, t.semVer, t.versionStamp]));
      expect(result.changeTransactions.map((t) => t.changeType)).toEqual(['ADD', 'ADD', 'MODIFY']);
      expect(result.changeTransactions[0]?.changes[0]).toMatchObject({
        urn: dataset,
        category: 'TAG',
        operation: 'ADD',
        modifier: 'urn:li:tag:PII',
      });
      // Who and when are the transaction's: the ecosystem's timeline leaves a tag change's stamp null.
      expect(result.changeTransactions[0]?.changes[0]?.auditStamp).toBeNull();
      expect(result.changeTransactions[0]?.actor).toBe('urn:li:corpuser:__datahub_system');
      expect(result.changeTransactions[0]?.changes[0]?.parameters).toContainEqual({
        key: 'tagUrn',
        value: 'urn:li:tag:PII',
      });
      // Without categories, every one: the schema and owner changes too.
      const everything = await ask(admin, TIMELINE_QUERY, { input: { urn: dataset } });
      const categories = new Set(
        (everything.data?.['getTimeline'] as typeof result).changeTransactions.flatMap((t) =>
          t.changes.map((c) => c.category),
        ),
      );
      expect([...categories].sort()).toEqual(['DOCUMENTATION', 'OWNERSHIP', 'TAG', 'TECHNICAL_SCHEMA']);
    });

    it('GraphQL getSchemaVersionList and getSchemaBlame read the schema’s versions and each field’s last change', async () => {
      const res = await ask(
        admin,
        `query ($urn: String!) {
          getSchemaVersionList(input: { datasetUrn: $urn }) {
            latestVersion { semanticVersion }
            semanticVersionList { semanticVersion semanticVersionTimestamp versionStamp }
          }
          latest: getSchemaBlame(input: { datasetUrn: $urn }) {
            version { semanticVersion }
            schemaFieldBlameList { fieldPath schemaFieldChange { changeType lastSemanticVersion lastSchemaFieldChange } }
          }
          first: getSchemaBlame(input: { datasetUrn: $urn, version: "0.0.0" }) {
            schemaFieldBlameList { fieldPath schemaFieldChange { lastSchemaFieldChange } }
          }
        }`,
        { urn: dataset },
      );
      expect(res.errors).toBeUndefined();
      const list = res.data?.['getSchemaVersionList'] as {
        latestVersion: { semanticVersion: string };
        semanticVersionList: { semanticVersion: string; semanticVersionTimestamp: number }[];
      };
      expect(list.latestVersion.semanticVersion).toBe('1.0.0');
      expect(list.semanticVersionList.map((v) => v.semanticVersion)).toEqual(['1.0.0', '0.0.0']);
      const latest = res.data?.['latest'] as {
        version: { semanticVersion: string };
        schemaFieldBlameList: { fieldPath: string; schemaFieldChange: { lastSchemaFieldChange: string } }[];
      };
      expect(latest.version.semanticVersion).toBe('1.0.0');
      const blame = (list: typeof latest.schemaFieldBlameList) =>
        Object.fromEntries(list.map((b) => [b.fieldPath, b.schemaFieldChange.lastSchemaFieldChange]));
      // The dropped field is gone; the added one is blamed on 1.0.0, the kept one on 0.0.0.
      expect(blame(latest.schemaFieldBlameList)).toEqual({ total: 'Added in v1.0.0', id: 'Added in v0.0.0' });
      const first = res.data?.['first'] as typeof latest;
      expect(blame(first.schemaFieldBlameList)).toEqual({ id: 'Added in v0.0.0', name: 'Added in v0.0.0' });
    });

    it('includeVersionSet merges the timelines of every version of the set', async () => {
      const set = `urn:li:versionSet:(timeline_${run},dataset)`;
      const versions = ['1', '2', '3'].map((n) => datasetUrn(`timeline_${run}.v${n}`, 'kafka'));
      for (const [i, urn] of versions.entries()) {
        await write(urn, 'datasetProperties', {
          name: `v${i + 1}`,
          description: `version ${i + 1}`,
          customProperties: {},
          tags: [],
        });
        const res = await request(base, 'POST', '/aspects?action=ingestProposal', {
          proposal: proposal(urn, 'versionProperties', {
            versionSet: set,
            version: { versionTag: `${i + 1}.0.0` },
            sortId: `0${i + 1}`,
            versioningScheme: 'LEXICOGRAPHIC_STRING',
            aliases: [],
          }),
        });
        expect(res.status, res.text).toBe(200);
      }
      const last = versions[2]!;
      const input = { urn: last, changeCategories: ['DOCUMENTATION'] };
      const single = await ask(admin, TIMELINE_QUERY, { input });
      const merged = await waitUntil(
        () => ask(admin, TIMELINE_QUERY, { input: { ...input, includeVersionSet: true } }),
        (r) => count(r) >= 3,
        15_000,
      );
      expect(count(single)).toBe(1);
      expect((merged.data?.['getTimeline'] as { skippedVersionCount: number }).skippedVersionCount).toBe(0);
      const rest = transactions(
        await timeline(
          `/openapi/v2/timeline/v1/${enc(last)}?categories=DOCUMENTATION&includeVersionSet=true`,
        ),
      );
      expect(rest).toHaveLength(3);
    });

    describe('who may read a timeline', () => {
      const paths = () => [
        `/openapi/v2/timeline/v1/${enc(dataset)}?categories=TAG`,
        `/openapi/timeline/v1/${enc(dataset)}?categories=TAG`,
      ];
      const graphqlAs = (authorization: string) =>
        ask(authorization, TIMELINE_QUERY, { input: { urn: dataset, changeCategories: ['TAG'] } });

      it('every user may while the All Users policy grants entity views (the ecosystem’s default)', async () => {
        for (const actor of [noRole, reader, admin]) {
          for (const path of paths()) expect(transactions(await timeline(path, actor))).toHaveLength(3);
          expect((await graphqlAs(actor)).errors).toBeUndefined();
        }
      });

      it('with it inactive, a user with no role is refused (403, GraphQL: unauthorized); a Reader and an admin are not', async () => {
        const off = await ask(
          admin,
          `mutation ($input: PolicyUpdateInput!) { updatePolicy(urn: "urn:li:dataHubPolicy:view-entity-page-all", input: $input) }`,
          {
            input: {
              type: 'METADATA',
              state: 'INACTIVE',
              name: 'All Users - View Entity Page',
              description: 'Grants entity view to all users',
              privileges: [
                'VIEW_ENTITY_PAGE',
                'SEARCH_PRIVILEGE',
                'GET_ENTITY_PRIVILEGE',
                'GET_TIMELINE_PRIVILEGE',
              ],
              actors: { users: [], resourceOwners: false, allUsers: true, allGroups: false },
            },
          },
        );
        expect(off.errors).toBeUndefined();
        await waitUntil(
          () => timeline(paths()[0]!, noRole),
          (res) => res.status === 403,
          15_000,
        );
        for (const path of paths()) {
          const refused = await timeline(path, noRole);
          expect(refused.status, path).toBe(403);
          expect(refused.text).not.toContain('urn:li:tag:PII');
        }
        const denied = await graphqlAs(noRole);
        expect(denied.errors?.[0]?.message).toMatch(/unauthorized/i);
        expect(JSON.stringify(denied.data)).not.toContain('urn:li:tag:PII');
        for (const actor of [reader, admin]) {
          for (const path of paths()) expect(transactions(await timeline(path, actor))).toHaveLength(3);
          expect((await graphqlAs(actor)).errors).toBeUndefined();
        }
      });
    });

    function count(res: GraphQLResponse): number {
      return (
        (res.data?.['getTimeline'] as { changeTransactions: unknown[] } | null)?.changeTransactions.length ??
        0
      );
    }
  });
}
