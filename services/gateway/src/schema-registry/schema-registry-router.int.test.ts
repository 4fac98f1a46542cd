import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEventDecoder,
  defaultTopicNames,
  eventSchemas,
  LogSchemaRegistrations,
  openEmbeddedEventLog,
  parseAvroSchema,
  registeredSchemaResolver,
  SchemaIds,
  type EventLog,
  type TopicNames,
} from '@catalog/events';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaRegistryRouter } from './schema-registry-router.js';

const topics: TopicNames = {
  ...defaultTopicNames,
  metadataChangeProposal: 'sr-test.MetadataChangeProposal_v1',
  schemaRegistry: 'sr-test.CatalogSchemas_v1',
};
const MCP_SUBJECT = 'sr-test.MetadataChangeProposal_v1-value';
const mcpSchema = JSON.parse(eventSchemas[0]!.schema) as { fields: Record<string, unknown>[] };

/** Our MCP schema plus one optional field: what a newer producer might register. */
const extendedMcp = JSON.stringify({
  ...mcpSchema,
  fields: [...mcpSchema.fields, { name: 'traceId', type: ['null', 'string'], default: null }],
});

let dir: string;
let log: EventLog;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schema-registry-'));
  log = await openEmbeddedEventLog({ directory: dir, pollIntervalMs: 10 });
  const app = express();
  app.use('/schema-registry/api', schemaRegistryRouter({ topics, log }));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema-registry/api`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await log.close();
  await rm(dir, { recursive: true, force: true });
});

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.schemaregistry\.v1\+json/);
  return { status: res.status, json: await res.json() };
}

describe('schema registry (Confluent API)', () => {
  it('lists a <topic>-value subject per event topic, with the configured names', async () => {
    const { status, json } = await call('GET', '/subjects');
    expect(status).toBe(200);
    expect(json).toEqual(
      expect.arrayContaining([
        MCP_SUBJECT,
        'FailedMetadataChangeProposal_v1-value',
        'MetadataChangeLog_Versioned_v1-value',
        'MetadataChangeLog_Timeseries_v1-value',
        'PlatformEvent_v1-value',
        'DataHubUpgradeHistory_v1-value',
      ]),
    );
  });

  it('serves versions and schemas by subject and by fixed id', async () => {
    expect(await call('GET', `/subjects/${MCP_SUBJECT}/versions`)).toEqual({ status: 200, json: [1] });
    expect((await call('GET', `/subjects/${MCP_SUBJECT}/versions/latest`)).json).toEqual({
      subject: MCP_SUBJECT,
      version: 1,
      id: SchemaIds.metadataChangeProposal,
      schema: eventSchemas[0]!.schema,
    });
    expect((await call('GET', '/schemas/ids/3')).json).toEqual({ schema: eventSchemas[3]!.schema });
    expect((await call('GET', '/schemas/ids/0/versions')).json).toEqual([
      { subject: MCP_SUBJECT, version: 1 },
    ]);
  });

  it('gives our fixed id to a schema with the same canonical form (docs and key order aside)', async () => {
    const reordered = JSON.stringify({
      ...mcpSchema,
      doc: 'registered by an emitter',
      name: 'MetadataChangeProposal',
    });
    expect(await call('POST', `/subjects/${MCP_SUBJECT}/versions`, { schema: reordered })).toEqual({
      status: 200,
      json: { id: 0 },
    });
    expect((await call('POST', `/subjects/${MCP_SUBJECT}`, { schema: reordered })).json).toMatchObject({
      id: 0,
      version: 1,
    });
  });

  it('registers a readable variant under a new id that a decoder in another process resolves', async () => {
    const first = await call('POST', `/subjects/${MCP_SUBJECT}/versions`, { schema: extendedMcp });
    const id = (first.json as { id: number }).id;
    expect(first.status).toBe(200);
    expect(id).toBeGreaterThanOrEqual(100);
    expect((await call('POST', `/subjects/${MCP_SUBJECT}/versions`, { schema: extendedMcp })).json).toEqual({
      id,
    });
    expect((await call('GET', `/schemas/ids/${id}`)).json).toEqual({ schema: extendedMcp });
    expect((await call('GET', `/subjects/${MCP_SUBJECT}/versions`)).json).toEqual([1, 2]);

    // Another process: its own view of the registrations, read from the log.
    const elsewhere = await LogSchemaRegistrations.open({
      log,
      topic: topics.schemaRegistry,
      groupId: 'other',
    });
    const decoder = createEventDecoder(registeredSchemaResolver(elsewhere));
    const writer = parseAvroSchema(extendedMcp).type;
    const body = writer.toBuffer({
      auditHeader: null,
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      entityKeyAspect: null,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: null,
      systemMetadata: null,
      headers: null,
      traceId: 'abc',
    });
    const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), body]);
    framed.writeInt32BE(id, 1);
    await expect(decoder.decode('metadataChangeProposal', framed)).resolves.toEqual({
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      changeType: 'UPSERT',
      aspectName: 'status',
    });
    await elsewhere.close();
  });

  it('rejects what our reader cannot read (409) and what is not Avro (422)', async () => {
    const incompatible = JSON.stringify({
      ...mcpSchema,
      fields: mcpSchema.fields.map((f) =>
        f['name'] === 'entityType' ? { name: 'entityType', type: 'int' } : f,
      ),
    });
    expect(await call('POST', `/subjects/${MCP_SUBJECT}/versions`, { schema: incompatible })).toEqual({
      status: 409,
      json: {
        error_code: 409,
        message: `Schema being registered is incompatible with an earlier schema for subject "${MCP_SUBJECT}"`,
      },
    });
    const invalid = await call('POST', `/subjects/${MCP_SUBJECT}/versions`, { schema: '{"type":"nope"}' });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toMatchObject({ error_code: 42201 });
    expect(
      (await call('POST', `/compatibility/subjects/${MCP_SUBJECT}/versions/1`, { schema: incompatible }))
        .json,
    ).toEqual({ is_compatible: false });
    expect(
      (await call('POST', `/compatibility/subjects/${MCP_SUBJECT}/versions/latest`, { schema: extendedMcp }))
        .json,
    ).toEqual({ is_compatible: true });
  });

  it("answers unknown subjects, versions and ids with Confluent's error codes", async () => {
    expect(await call('GET', '/subjects/nope-value/versions')).toEqual({
      status: 404,
      json: { error_code: 40401, message: "Subject 'nope-value' not found." },
    });
    expect((await call('GET', `/subjects/${MCP_SUBJECT}/versions/9`)).json).toMatchObject({
      error_code: 40402,
    });
    expect((await call('GET', '/schemas/ids/4242')).json).toMatchObject({ error_code: 40403 });
    expect((await call('GET', '/nowhere')).status).toBe(404);
  });

  it('reports and accepts compatibility levels', async () => {
    expect((await call('GET', '/config')).json).toEqual({ compatibilityLevel: 'NONE' });
    expect((await call('PUT', `/config/${MCP_SUBJECT}`, { compatibility: 'backward' })).json).toEqual({
      compatibility: 'BACKWARD',
    });
    expect((await call('GET', `/config/${MCP_SUBJECT}`)).json).toEqual({ compatibilityLevel: 'BACKWARD' });
    expect((await call('PUT', '/config', { compatibility: 'SIDEWAYS' })).status).toBe(422);
  });
});
