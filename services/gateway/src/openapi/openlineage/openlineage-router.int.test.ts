import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, UnavailableError, ValidationError } from '@catalog/model';
import { EmptyLineageMappingError, type OpenLineageIngest } from '../../application/openlineage-ingest.js';
import { setRequestContext } from '../../auth/request-context.js';
import { openLineageRouter } from './openlineage-router.js';

/** What the fake use case does with the next event. */
let next: () => Promise<void> = () => Promise.resolve();
let server: Server;
let url: string;

const event = {
  eventType: 'START',
  eventTime: '2026-11-29T10:00:00Z',
  producer: 'https://example.com/etl',
  run: { runId: '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a11' },
  job: { namespace: 'prod', name: 'etl.load' },
};

beforeAll(async () => {
  const app = express();
  app.use((_req, res, nextHandler) => {
    setRequestContext(res, {
      authentication: {
        actorUrn: 'urn:li:corpuser:u',
        actorId: 'u',
        method: 'access-token',
        isSystem: false,
      },
      origin: { eventSource: 'OPENAPI', sourceIp: '127.0.0.1' },
    } as never);
    nextHandler();
  });
  const ingest = { receive: () => next() } as unknown as OpenLineageIngest;
  app.use(
    '/openapi/openlineage',
    openLineageRouter({ ingest, logger: pino({ level: 'silent' }), maxBodyBytes: 1024 }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi/openlineage/api/v1/lineage`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function post(body: string, contentType = 'application/json') {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': contentType }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the OpenLineage receiver answers what became of an event', () => {
  it('403 AUTHORIZATION_DENIED when the writes are refused', async () => {
    next = () =>
      Promise.reject(new ForbiddenError('User urn:li:corpuser:u is unauthorized to edit entity x'));
    expect(await post(JSON.stringify(event))).toEqual({
      status: 403,
      body: {
        code: 'AUTHORIZATION_DENIED',
        message: 'User urn:li:corpuser:u is unauthorized to edit entity x',
        details: {},
      },
    });
  });

  it('400 INVALID_EVENT when the event maps to an aspect its schema refuses', async () => {
    next = () => Promise.reject(new ValidationError('Invalid urn'));
    expect(await post(JSON.stringify(event))).toMatchObject({
      status: 400,
      body: {
        code: 'INVALID_EVENT',
        details: { errors: [{ path: '/', rule: 'mapping', message: 'Invalid urn' }] },
      },
    });
  });

  it('503 INGESTION_FAILED naming what is down during an outage', async () => {
    next = () => Promise.reject(new UnavailableError('The event log (Kafka) is unavailable'));
    expect(await post(JSON.stringify(event))).toEqual({
      status: 503,
      body: { code: 'INGESTION_FAILED', message: 'The event log (Kafka) is unavailable', details: {} },
    });
  });

  it('500 INGESTION_FAILED with the cause class and a correlation id for an internal failure', async () => {
    next = () => Promise.reject(new EmptyLineageMappingError());
    expect(await post(JSON.stringify(event))).toEqual({
      status: 500,
      body: {
        code: 'INGESTION_FAILED',
        message: 'Failed to ingest OpenLineage event',
        details: { exception: 'EmptyLineageMappingError', correlationId: expect.any(String) },
      },
    });
  });

  it('413 for a body over the limit, before anything is read', async () => {
    next = () => Promise.reject(new Error('must not be called'));
    const res = await post(JSON.stringify({ ...event, padding: 'x'.repeat(2048) }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('415 for a charset the body cannot be read in (found by the fuzz test: it was a 500)', async () => {
    next = () => Promise.reject(new Error('must not be called'));
    const res = await post(JSON.stringify(event), 'application/json; charset=UTF-42');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});
