import { createLogger, openEventLog } from '@catalog/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogConfig } from '../src/config.js';
import { FAMILIES } from './families.js';
import {
  callAs,
  datasetUrn,
  ingest,
  logIn,
  proposal,
  startTestCatalog,
  waitUntil,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

/**
 * Entity change events end to end: every write goes through persistence to a change log, the change
 * event producer diffs it as the timeline does and produces the ecosystem's EntityChangeEvent on
 * PlatformEvent_v1, and GET /openapi/v1/events/poll serves it as the ecosystem's events API does (the
 * form its Actions framework reads), under GET_PLATFORM_EVENTS.
 */

interface Polled {
  offsetId: string;
  count: number;
  events: { contentType: string; value: string }[];
}

interface EntityChangeEvent {
  entityType: string;
  entityUrn: string;
  category: string;
  operation: string;
  modifier?: string;
  parameters?: Record<string, unknown>;
  auditStamp: { time: number; actor: string };
  version: number;
}

const PLATFORM_EVENTS = 'PlatformEvent_v1';
const bearer = (token: string) => `Bearer ${token}`;
const field = (fieldPath: string) => ({
  fieldPath,
  nativeDataType: 'string',
  type: { type: { 'com.linkedin.schema.StringType': {} } },
  nullable: false,
  recursive: false,
});
const schema = (...paths: string[]) => ({
  schemaName: 'orders',
  platform: 'urn:li:dataPlatform:kafka',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: paths.map(field),
});

/** The entity change events of a poll's platform events (the envelope unwrapped as the Actions framework does). */
function changeEventsOf(polled: Polled): EntityChangeEvent[] {
  return polled.events.flatMap((e) => {
    const envelope = JSON.parse(e.value) as {
      name: string;
      header: { timestampMillis: number };
      payload: { value: string; contentType: string };
    };
    if (envelope.name !== 'entityChangeEvent') return [];
    expect(envelope.payload.contentType).toBe('application/json');
    const event = JSON.parse(envelope.payload.value) as EntityChangeEvent;
    expect(envelope.header.timestampMillis).toBe(event.auditStamp.time);
    return [event];
  });
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`entity change events and the events poll (${family.name})`, () => {
    let env: Record<string, string>;
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let reader: string;
    let noRole: string;
    /** Where the platform events stood before this file's writes. */
    let start: string;
    const run = Date.now().toString(36);
    const dataset = datasetUrn(`events_${run}.orders`, 'kafka');

    const poll = (authorization: string, query: string): Promise<JsonResponse> =>
      callAs(base, 'GET', `/openapi/v1/events/poll?${query}`, authorization);
    const polled = (res: JsonResponse): Polled => {
      expect(res.status, res.text).toBe(200);
      return res.body as Polled;
    };
    /** Every change event of `urn` after `from`, polling until `done` holds of them. */
    const eventsAfter = async (from: string, urn: string, done: (events: EntityChangeEvent[]) => boolean) => {
      let offsetId = from;
      const seen: EntityChangeEvent[] = [];
      await waitUntil(
        async () => {
          const page = polled(
            await poll(
              admin,
              `topic=${PLATFORM_EVENTS}&offsetId=${encodeURIComponent(offsetId)}&pollTimeoutSeconds=1&limit=1000`,
            ),
          );
          offsetId = page.offsetId;
          seen.push(...changeEventsOf(page).filter((e) => e.entityUrn === urn || e.entityUrn.includes(urn)));
          return seen;
        },
        (events) => done(events),
        60_000,
      );
      return { events: seen, offsetId };
    };
    const write = async (urn: string, aspect: string, value: unknown) => {
      const res = await ingest(base, proposal(urn, aspect, value));
      expect(res.status, res.text).toBe(200);
    };

    beforeAll(async () => {
      env = family.env();
      catalog = await startTestCatalog(env);
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `ev_norole_${run}@example.com`);
      reader = await signUpUser(base, admin, `ev_reader_${run}@example.com`, 'Reader');
      start = polled(await poll(admin, `topic=${PLATFORM_EVENTS}&pollTimeoutSeconds=0`)).offsetId;
    }, 120_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('produces an event for each category of change: creation, tag, term, owner, domain, documentation, deprecation, schema fields, soft delete', async () => {
      await write(dataset, 'globalTags', { tags: [{ tag: 'urn:li:tag:PII' }] });
      await write(dataset, 'glossaryTerms', {
        terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }],
        auditStamp: { time: 1, actor: 'urn:li:corpuser:datahub' },
      });
      await write(dataset, 'ownership', {
        owners: [{ owner: 'urn:li:corpuser:alice', type: 'TECHNICAL_OWNER' }],
      });
      await write(dataset, 'domains', { domains: ['urn:li:domain:finance'] });
      await write(dataset, 'editableDatasetProperties', { description: 'Orders, one row each' });
      await write(dataset, 'deprecation', {
        deprecated: true,
        note: 'use orders_v2',
        actor: 'urn:li:corpuser:datahub',
      });
      await write(dataset, 'schemaMetadata', schema('id', 'dropped'));
      await write(dataset, 'schemaMetadata', schema('id', 'added'));
      await write(dataset, 'schemaMetadata', schema('id', 'added', 'more'));
      await write(dataset, 'schemaMetadata', schema('id', 'more'));
      await write(dataset, 'status', { removed: true });
      const expected = [
        ['LIFECYCLE', 'CREATE', undefined],
        ['LIFECYCLE', 'SOFT_DELETE', undefined],
        ['TAG', 'ADD', 'urn:li:tag:PII'],
        ['GLOSSARY_TERM', 'ADD', 'urn:li:glossaryTerm:Revenue'],
        ['OWNERSHIP', 'ADD', 'urn:li:corpuser:alice'],
        ['DOMAIN', 'ADD', 'urn:li:domain:finance'],
        ['DOCUMENTATION', 'ADD', undefined],
        ['DEPRECATION', 'MODIFY', undefined],
        ['TECHNICAL_SCHEMA', 'ADD', `urn:li:schemaField:(${dataset},more)`],
        ['TECHNICAL_SCHEMA', 'REMOVE', `urn:li:schemaField:(${dataset},added)`],
      ];
      const has = (events: EntityChangeEvent[], [category, operation, modifier]: (string | undefined)[]) =>
        events.some(
          (e) =>
            e.category === category &&
            e.operation === operation &&
            (modifier === undefined || e.modifier === modifier),
        );
      const { events } = await eventsAfter(start, dataset, (seen) => expected.every((x) => has(seen, x)));
      for (const x of expected) expect(has(events, x), JSON.stringify(x)).toBe(true);
      const tag = events.find((e) => e.category === 'TAG')!;
      expect(tag).toMatchObject({
        entityType: 'dataset',
        entityUrn: dataset,
        operation: 'ADD',
        modifier: 'urn:li:tag:PII',
        parameters: { tagUrn: 'urn:li:tag:PII' },
        // ingest writes as the system client.
        auditStamp: { actor: 'urn:li:corpuser:__datahub_system' },
        version: 0,
      });
      expect(events.find((e) => e.category === 'DEPRECATION')!.parameters).toMatchObject({
        status: 'DEPRECATED',
        note: 'use orders_v2',
      });
      // The entity's events keep the order of its writes.
      const order = events.map((e) => e.category);
      expect(order.indexOf('TAG')).toBeLessThan(order.indexOf('DEPRECATION'));
    });

    it('produces a RUN COMPLETED event for a completed assertion run (a time-series change log)', async () => {
      const assertion = `urn:li:assertion:events_${run}`;
      await write(assertion, 'assertionRunEvent', {
        timestampMillis: Date.now(),
        runId: `run_${run}`,
        asserteeUrn: dataset,
        assertionUrn: assertion,
        status: 'COMPLETE',
        result: { type: 'SUCCESS' },
      });
      const { events } = await eventsAfter(start, assertion, (seen) =>
        seen.some((e) => e.category === 'RUN'),
      );
      expect(events.find((e) => e.category === 'RUN')).toMatchObject({
        entityType: 'assertion',
        operation: 'COMPLETED',
        parameters: {
          runResult: 'COMPLETE',
          runId: `run_${run}`,
          asserteeUrn: dataset,
          assertionResult: 'SUCCESS',
        },
      });
    });

    it('answers 403 with an empty body without GET_PLATFORM_EVENTS and for topics that cannot be polled', async () => {
      for (const who of [noRole, reader]) {
        const res = await poll(who, `topic=${PLATFORM_EVENTS}&pollTimeoutSeconds=0`);
        expect(res.status, res.text).toBe(403);
        expect(res.text).toBe('');
      }
      const other = await poll(admin, 'topic=MetadataChangeProposal_v1&pollTimeoutSeconds=0');
      expect(other.status, other.text).toBe(403);
      expect(other.text).toBe('');
      expect((await poll(reader, 'topic=MetadataChangeLog_Versioned_v1&pollTimeoutSeconds=0')).status).toBe(
        403,
      );
      const changeLogs = polled(
        await poll(
          admin,
          'topic=MetadataChangeLog_Versioned_v1&pollTimeoutSeconds=0&lookbackWindowDays=1&limit=5',
        ),
      );
      expect(changeLogs.count).toBe(changeLogs.events.length);
      expect(changeLogs.count).toBeGreaterThan(0);
      const mcl = JSON.parse(changeLogs.events[0]!.value) as Record<string, unknown>;
      expect(mcl['entityUrn']).toMatchObject({ string: expect.stringMatching(/^urn:li:/) as unknown });
    });

    it('refuses bad parameters with a 400 naming them, and clamps a large limit', async () => {
      const missing = await poll(admin, 'pollTimeoutSeconds=0');
      expect(missing.status).toBe(400);
      expect(missing.text).toContain('topic');
      for (const bad of [
        'not base64!',
        Buffer.from('[1]').toString('base64'),
        Buffer.from('{"OtherTopic-0":1}').toString('base64'),
      ]) {
        const res = await poll(
          admin,
          `topic=${PLATFORM_EVENTS}&offsetId=${encodeURIComponent(bad)}&pollTimeoutSeconds=0`,
        );
        expect(res.status, res.text).toBe(400);
        expect(res.text).toContain('offsetId');
      }
      const limit = await poll(admin, `topic=${PLATFORM_EVENTS}&limit=abc`);
      expect(limit.status).toBe(400);
      expect(limit.text).toContain('limit');
      const clamped = polled(
        await poll(admin, `topic=${PLATFORM_EVENTS}&limit=999999&pollTimeoutSeconds=0&lookbackWindowDays=1`),
      );
      expect(clamped.count).toBeLessThanOrEqual(5000);
    });

    it('gives no event twice when the change logs are processed again after a restart', async () => {
      const urn = datasetUrn(`events_${run}.replayed`, 'kafka');
      await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:Once' }] });
      // Its creation and its tag.
      const before = await eventsAfter(start, urn, (seen) => seen.length >= 2);
      expect(before.events.map((e) => `${e.category} ${e.operation}`).sort()).toEqual([
        'LIFECYCLE CREATE',
        'TAG ADD',
      ]);
      // Stop the catalog, move the producer's group back to the start of the change logs (as a kill
      // between its produce and its commit would leave it), and start again on the same data.
      await catalog.close();
      const config = readCatalogConfig({
        ...env,
        CATALOG_DATA_DIR: catalog.dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      });
      const log = await openEventLog(config.adapters, createLogger({ name: 'rewind', level: 'warn' }));
      const topic = config.adapters.topics.metadataChangeLogVersioned;
      const rewind = await log.consume({
        groupId: config.changeEvents.groupId,
        topics: [topic],
        handler: () => Promise.reject(new Error('hold')),
      });
      await rewind.ready;
      for (const { partition, start: first } of await log.offsets(topic))
        await rewind.seek(topic, partition, first);
      await rewind.stop();
      await log.close();
      const dataDir = catalog.dataDir;
      catalog = await startTestCatalog({ ...env, CATALOG_DATA_DIR: dataDir });
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      await waitUntil(
        async () => catalog.log.lag(config.changeEvents.groupId, topic),
        (lags) => lags.every((l) => l.lag === 0 && l.offset !== '-1'),
        60_000,
      );
      const after = polled(
        await poll(
          admin,
          `topic=${PLATFORM_EVENTS}&offsetId=${encodeURIComponent(start)}&pollTimeoutSeconds=0&limit=5000`,
        ),
      );
      const mine = changeEventsOf(after).filter((e) => e.entityUrn === urn);
      expect(mine).toHaveLength(2);
      const tags = changeEventsOf(after).filter((e) => e.entityUrn === dataset && e.category === 'TAG');
      expect(tags).toHaveLength(1);
    });
  });
}
