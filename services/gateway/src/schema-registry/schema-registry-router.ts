import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { TopicNames } from '@catalog/events';
import {
  openSchemaRegistrations,
  type SchemaRegistrationsOptions,
} from '../application/schema-registrations.js';
import type { Logger } from '@catalog/runtime';
import { RegistryError, registryErrors } from './registry-errors.js';
import { RegistryModel } from './registry-model.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';
const COMPATIBILITY_LEVELS = [
  'NONE',
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
];

export interface SchemaRegistryRouterOptions extends SchemaRegistrationsOptions {
  /** Subjects are `<topic>-value` of the configured topic names. */
  readonly topics: TopicNames;
  readonly logger?: Logger;
}

/**
 * A Confluent-compatible schema registry (the ecosystem's INTERNAL type, at /schema-registry/api), so Kafka
 * producers using KafkaAvroSerializer / confluent_kafka's AvroSerializer register and get our fixed ids.
 */
export function schemaRegistryRouter(options: SchemaRegistryRouterOptions): Router {
  const registrations = openSchemaRegistrations(options, registryErrors.unavailable);
  const model = new RegistryModel(options.topics, registrations);
  const compatibility = new Map<string, string>();
  const router = Router();
  router.use(express.json({ type: () => true, limit: '8mb', strict: false }));

  const route =
    (handler: (req: Request) => Promise<unknown>) =>
    async (req: Request, res: Response): Promise<void> =>
      send(res, 200, await handler(req));

  router.get(
    '/subjects',
    route(() => model.subjects()),
  );
  router.get(
    '/schemas/types',
    route(async () => ['AVRO']),
  );
  router.get(
    '/subjects/:subject/versions',
    route(async (req) => {
      const versions = await model.versions(param(req, 'subject'));
      if (versions.length === 0) throw registryErrors.subjectNotFound(param(req, 'subject'));
      return versions.map((v) => v.version);
    }),
  );
  router.get(
    '/subjects/:subject/versions/:version',
    route(async (req) => {
      const v = await model.version(param(req, 'subject'), param(req, 'version'));
      return { subject: v.subject, version: v.version, id: v.id, schema: v.schema };
    }),
  );
  router.get('/subjects/:subject/versions/:version/schema', async (req, res) => {
    const v = await model.version(param(req, 'subject'), param(req, 'version'));
    res.status(200).type(CONTENT_TYPE).send(v.schema);
  });
  router.get(
    '/schemas/ids/:id',
    route(async (req) => ({ schema: (await model.byId(schemaId(req))).schema })),
  );
  router.get(
    '/schemas/ids/:id/versions',
    route(async (req) => (await model.byId(schemaId(req))).subjects),
  );
  router.post(
    '/subjects/:subject/versions',
    route(async (req) => ({ id: await model.register(param(req, 'subject'), schemaText(req)) })),
  );
  router.post(
    '/subjects/:subject',
    route(async (req) => {
      const v = await model.lookup(param(req, 'subject'), schemaText(req));
      return { subject: v.subject, version: v.version, id: v.id, schema: v.schema };
    }),
  );
  router.post(
    '/compatibility/subjects/:subject/versions/:version',
    route(async (req) => ({
      is_compatible: await model.compatible(param(req, 'subject'), param(req, 'version'), schemaText(req)),
    })),
  );
  router.post(
    '/compatibility/subjects/:subject/versions',
    route(async (req) => ({
      is_compatible: await model.compatible(param(req, 'subject'), 'latest', schemaText(req)),
    })),
  );
  const getConfig = (key: string) => async () => ({ compatibilityLevel: compatibility.get(key) ?? 'NONE' });
  const putConfig = (key: (req: Request) => string) => async (req: Request) => {
    const level = String(
      (req.body as { compatibility?: unknown } | undefined)?.compatibility ?? '',
    ).toUpperCase();
    if (!COMPATIBILITY_LEVELS.includes(level)) throw registryErrors.invalidCompatibility(level);
    compatibility.set(key(req), level);
    return { compatibility: level };
  };
  router.get('/config', route(getConfig('')));
  router.put('/config', route(putConfig(() => '')));
  router.get('/config/:subject', async (req, res) =>
    send(res, 200, {
      compatibilityLevel: compatibility.get(param(req, 'subject')) ?? compatibility.get('') ?? 'NONE',
    }),
  );
  router.put('/config/:subject', route(putConfig((req) => param(req, 'subject'))));

  router.use((_req: Request, res: Response) =>
    send(res, 404, { error_code: 404, message: 'HTTP 404 Not Found' }),
  );
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof RegistryError) {
      send(res, error.status, { error_code: error.errorCode, message: error.message });
      return;
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      send(res, status, { error_code: status, message: (error as Error).message });
      return;
    }
    options.logger?.error({ err: error }, 'schema registry request failed');
    send(res, 500, { error_code: 50001, message: 'Error in the backend data store' });
  });
  return router;
}

function send(res: Response, status: number, body: unknown): void {
  res.status(status).type(CONTENT_TYPE).send(JSON.stringify(body));
}

function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

function schemaId(req: Request): number {
  const raw = param(req, 'id');
  if (!/^\d+$/.test(raw)) throw registryErrors.schemaNotFound(`Schema ${raw} not found`);
  return Number(raw);
}

/** The `schema` of a request body `{schema, schemaType?, references?}`; only self-contained Avro is accepted. */
function schemaText(req: Request): string {
  const body = req.body as { schema?: unknown; schemaType?: unknown; references?: unknown } | undefined;
  if (typeof body?.schema !== 'string') throw registryErrors.invalidSchema('the body has no "schema" string');
  if (body.schemaType !== undefined && body.schemaType !== 'AVRO') {
    throw registryErrors.invalidSchema(`schema type ${String(body.schemaType)} is not supported (only AVRO)`);
  }
  if (Array.isArray(body.references) && body.references.length > 0) {
    throw registryErrors.invalidSchema('schema references are not supported');
  }
  return body.schema;
}
