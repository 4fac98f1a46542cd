import { decodeMcl, type MetadataChangeLog } from '@catalog/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  personalAccessToken,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const TRACEPARENT = `00-${TRACE}-b7ad6b7169203331-01`;
const AGENT = 'origin-test/1.0';

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`where a write came from, carried through the log (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let authorization: string;
    const changeLogs: MetadataChangeLog[] = [];
    let stopConsumer: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      authorization = `Bearer ${await personalAccessToken(base)}`;
      const consumer = await catalog.log.consume({
        groupId: `origin-${Date.now()}`,
        topics: [catalog.topics.metadataChangeLogVersioned],
        fromBeginning: true,
        handler: async (batch) => {
          for (const record of batch.records) changeLogs.push(decodeMcl(record.value));
        },
      });
      stopConsumer = () => consumer.stop();
    });
    afterAll(async () => {
      await stopConsumer?.();
      await catalog?.dispose();
    });

    const headers = { traceparent: TRACEPARENT, 'User-Agent': AGENT };
    const storedProperties = async (urn: string, aspect: string) => {
      const res = await callAs(
        base,
        'GET',
        `/openapi/v3/entity/dataset/${enc(urn)}/${aspect}?systemMetadata=true`,
        authorization,
      );
      expect(res.status, res.text).toBe(200);
      return (res.body as { systemMetadata: { properties: Record<string, string> } }).systemMetadata
        .properties;
    };
    const changeLogProperties = (urn: string, aspect: string) =>
      waitUntil(
        async () => changeLogs.find((c) => c.entityUrn === urn && c.aspectName === aspect),
        (found) => found !== undefined,
        20_000,
      ).then((found) => found!.systemMetadata?.properties);

    it('records the trace id, API and address of a Rest.li write, in the store and the change log', async () => {
      const urn = datasetUrn(`origin_restli_${Date.now()}`);
      const res = await callAs(
        base,
        'POST',
        '/aspects?action=ingestProposal',
        authorization,
        { proposal: proposal(urn, 'datasetProperties', { name: 'o', customProperties: {} }) },
        headers,
      );
      expect(res.status, res.text).toBe(200);
      const expected = { telemetryTraceId: TRACE, eventSource: 'RESTLI' };
      const stored = await storedProperties(urn, 'datasetProperties');
      expect(stored).toMatchObject(expected);
      expect(stored['sourceIP']).toMatch(/127\.0\.0\.1/);
      expect(await changeLogProperties(urn, 'datasetProperties')).toMatchObject(expected);
    });

    it('records OPENAPI and GRAPHQL as the source of writes through those interfaces, and answers with the trace id', async () => {
      const urn = datasetUrn(`origin_openapi_${Date.now()}`);
      const res = await fetch(`${base}/openapi/v3/entity/dataset/${enc(urn)}/datasetProperties`, {
        method: 'POST',
        headers: { ...headers, Authorization: authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ value: { name: 'o', customProperties: {} } }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('traceparent')).toContain(TRACE);
      expect(await storedProperties(urn, 'datasetProperties')).toMatchObject({
        telemetryTraceId: TRACE,
        eventSource: 'OPENAPI',
      });
      const tag = `origin_${Date.now()}`;
      const created = await graphql(
        base,
        `mutation { createTag(input: {id: "${tag}", name: "${tag}"}) }`,
        {},
        {
          headers: { Authorization: authorization },
        },
      );
      expect(created.errors).toBeUndefined();
      const tagged = await graphql(
        base,
        `mutation { addTag(input: {tagUrn: "urn:li:tag:${tag}", resourceUrn: "${urn}"}) }`,
        {},
        { headers: { ...headers, Authorization: authorization } },
      );
      expect(tagged.errors).toBeUndefined();
      expect(await changeLogProperties(urn, 'globalTags')).toMatchObject({
        telemetryTraceId: TRACE,
        eventSource: 'GRAPHQL',
      });
    });

    it('replaces a client-sent source address with the one it observed, and starts a trace when none is sent', async () => {
      const urn = datasetUrn(`origin_forged_${Date.now()}`);
      const res = await callAs(base, 'POST', '/aspects?action=ingestProposal', authorization, {
        proposal: proposal(
          urn,
          'datasetProperties',
          { name: 'o', customProperties: {} },
          { systemMetadata: { properties: { sourceIP: '198.51.100.1', clientId: 'kept' } } },
        ),
      });
      expect(res.status, res.text).toBe(200);
      const stored = await storedProperties(urn, 'datasetProperties');
      expect(stored['sourceIP']).not.toBe('198.51.100.1');
      expect(stored['clientId']).toBe('kept');
      expect(stored['telemetryTraceId']).toMatch(/^[\da-f]{32}$/);
    });
  });
}
