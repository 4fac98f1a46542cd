import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { UnavailableError, ValidationError } from '@catalog/model';
import { createLogger } from '@catalog/runtime';
import { maskError, useRetryAfterOnOutage } from './graphql/graphql-errors.js';
import { openApiErrorHandler } from './openapi/openapi-errors.js';
import { outageOf, RETRY_AFTER_SECONDS } from './outage.js';
import { restliErrorHandler } from './restli/restli-errors.js';

const logger = createLogger({ name: 'outage-test', level: 'silent' });

/** What a mapper wrote: status, headers, JSON body. */
interface Sent {
  status?: number;
  headers: Record<string, string>;
  body?: unknown;
}

function fakeResponse(): { res: Response; sent: Sent } {
  const sent: Sent = { headers: {} };
  const res = {
    headersSent: false,
    status(code: number) {
      sent.status = code;
      return res;
    },
    set(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return res;
    },
    json(body: unknown) {
      sent.body = body;
      return res;
    },
    end() {
      return res;
    },
  };
  return { res: res as unknown as Response, sent };
}

const request = { method: 'GET', path: '/x' } as Request;

function named(name: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${name} happened at 10.0.0.7:9200`), { name }, extra);
}

const OUTAGES: [string, unknown, RegExp][] = [
  ['a domain UnavailableError', new UnavailableError('The proposal log is unavailable'), /proposal log/],
  ['an OpenSearch connection error', named('ConnectionError'), /search engine \(OpenSearch\)/],
  ['an OpenSearch 503', named('ResponseError', { meta: { statusCode: 503 } }), /OpenSearch.*503/],
  ['a MongoDB server selection error', named('MongoServerSelectionError'), /aspect store \(MongoDB\)/],
  ['a Kafka connection error', named('KafkaJSConnectionError'), /event log \(Kafka\)/],
  [
    'a busy SQLite database',
    Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
    /SQLite/,
  ],
  [
    'a refused socket, as a cause',
    new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }),
    /unreachable/,
  ],
];

describe('outageOf', () => {
  it.each(OUTAGES)('names what is down for %s', (_what, error, message) => {
    const outage = outageOf(error);
    expect(outage).toBeInstanceOf(UnavailableError);
    expect(outage?.message).toMatch(message);
    // The client's own message may name internal hosts: the caller is not shown it.
    expect(outage?.message).not.toContain('10.0.0.7');
  });

  it('is undefined for bad input and for bugs', () => {
    expect(outageOf(new ValidationError('bad'))).toBeUndefined();
    expect(outageOf(new TypeError('x is undefined'))).toBeUndefined();
    expect(outageOf(named('ResponseError', { meta: { statusCode: 400 } }))).toBeUndefined();
    expect(outageOf('a string')).toBeUndefined();
  });
});

describe('Rest.li mapper', () => {
  const handle = (error: unknown) => {
    const { res, sent } = fakeResponse();
    restliErrorHandler(logger)(error, request, res, () => undefined);
    return sent;
  };

  it.each(OUTAGES)('answers %s with 503, Retry-After and what is down', (_what, error, message) => {
    const sent = handle(error);
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(sent.body).toMatchObject({ status: 503, message: expect.stringMatching(message) });
  });

  it('keeps bad input a 400 and a bug a 500, neither with Retry-After', () => {
    const bad = handle(new ValidationError('Invalid urn'));
    expect(bad.status).toBe(400);
    expect(bad.headers['retry-after']).toBeUndefined();
    const bug = handle(new TypeError('x is undefined'));
    expect(bug.status).toBe(500);
    expect(bug.headers['retry-after']).toBeUndefined();
  });
});

describe('OpenAPI mapper', () => {
  const handle = (error: unknown) => {
    const { res, sent } = fakeResponse();
    openApiErrorHandler(logger)(error, request, res, () => undefined);
    return sent;
  };

  it.each(OUTAGES)('answers %s with 503, Retry-After and what is down', (_what, error, message) => {
    const sent = handle(error);
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(sent.body).toMatchObject({ error: expect.stringMatching(message) });
  });

  it('keeps bad input a 400 and a bug a 500', () => {
    expect(handle(new ValidationError('bad')).status).toBe(400);
    expect(handle(new TypeError('x is undefined')).status).toBe(500);
  });
});

describe('GraphQL mapper', () => {
  const mask = maskError(logger);

  it.each(OUTAGES)('reports %s as SERVICE_UNAVAILABLE 503 naming what is down', (_what, error, message) => {
    const masked = mask(error) as Error & { extensions?: Record<string, unknown> };
    expect(masked.message).toMatch(message);
    expect(masked.extensions).toMatchObject({ code: 503, type: 'SERVICE_UNAVAILABLE' });
  });

  it('masks a bug as SERVER_ERROR 500', () => {
    const masked = mask(new TypeError('x is undefined')) as Error & { extensions?: Record<string, unknown> };
    expect(masked.extensions).toMatchObject({ code: 500, type: 'SERVER_ERROR' });
  });

  it('sets Retry-After on a response that carries an outage, and only then', () => {
    const plugin = useRetryAfterOnOutage();
    const headers = (errors: unknown[]): Record<string, string> => {
      const set: Record<string, string> = {};
      const res = { setHeader: (name: string, value: string) => (set[name] = value) };
      plugin.onResultProcess?.({
        result: { data: null, errors },
        serverContext: { res },
      } as unknown as Parameters<NonNullable<typeof plugin.onResultProcess>>[0]);
      return set;
    };
    expect(headers([mask(new UnavailableError('The aspect store is unavailable'))])).toEqual({
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
    expect(headers([mask(new ValidationError('bad'))])).toEqual({});
  });
});
