import type { Request, RequestHandler, Response } from 'express';
import type { RequestContext } from '@catalog/auth';
import type { Logger } from '@catalog/runtime';
import type { GatewayMetrics, UsageRecord } from './gateway-metrics.js';
import { requestUsage } from './request-usage.js';
import { agentClassOf } from './agent-class.js';

/** `corpUserInfo.system` / `isSupportUser` of a user, as the actor directory knows them. */
export type ActorFlags = (actorUrn: string) => Promise<{ system: boolean; supportUser: boolean } | undefined>;

/** The ecosystem's system actors: the system client and the anonymous actor. */
const SYSTEM_ACTORS = new Set(['urn:li:corpuser:__datahub_system', 'urn:li:corpuser:UNKNOWN']);

/**
 * Records every request in the metrics once its response has ended: its route and duration
 * (http_server_requests_seconds), and, for the requests the usage taxonomy classifies, the usage
 * counters by actor class, client kind, API and authentication channel, with the request's body size
 * (Content-Length) and the response's (the bytes of body written). Installed right after request
 * logging, before anything can answer.
 */
export function requestMetrics(
  metrics: GatewayMetrics,
  actorFlags: ActorFlags,
  contextOf: (res: Response) => RequestContext | undefined,
  logger: Logger,
): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const path = req.path;
    const counted = countBodyBytes(res);
    let recorded = false;
    const done = (): void => {
      if (recorded) return;
      recorded = true;
      res.off('finish', done);
      res.off('close', done);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observeRequest(req.method, routeTemplate(req, res.statusCode), res.statusCode, seconds);
      const action = typeof req.query['action'] === 'string' ? req.query['action'] : undefined;
      const usage = requestUsage({
        method: req.method,
        path,
        ...(action !== undefined ? { action } : {}),
        body: req.body as unknown,
      });
      const context = contextOf(res);
      if (usage === undefined || context === undefined) return;
      const length = Number(req.headers['content-length']);
      void actorClassOf(context, actorFlags)
        .then((actorClass) => {
          const record: UsageRecord = {
            ...usage,
            actorUrn: context.authentication.actorUrn,
            actorClass,
            agentClass: agentClassOf(req.headers['user-agent']),
            authChannel: authChannelOf(context),
            ...(Number.isSafeInteger(length) && length >= 0 ? { inputBytes: length } : {}),
            ...(res.writableFinished ? { outputBytes: counted() } : {}),
          };
          metrics.recordUsage(record);
        })
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'usage metrics: the actor class could not be read'),
        );
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}

/** Counts the body bytes the response writes (what `res.write` and `res.end` are given). */
function countBodyBytes(res: Response): () => number {
  let bytes = 0;
  const add = (chunk: unknown, encoding: unknown): void => {
    if (typeof chunk === 'string')
      bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => {
    add(args[0], args[1]);
    return write(...args);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') add(args[0], args[1]);
    return end(...args);
  }) as Response['end'];
  return () => bytes;
}

/** Spring's `uri` tag: the matched route's template, `NOT_FOUND` for a 404 no route took, else `UNKNOWN`. */
function routeTemplate(req: Request, status: number): string {
  const route = (req as { route?: { path?: unknown } }).route;
  const raw = Array.isArray(route?.path) ? (route.path[0] as unknown) : route?.path;
  if (typeof raw !== 'string') return status === 404 ? 'NOT_FOUND' : 'UNKNOWN';
  const template = `${req.baseUrl}${raw}`.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{*$1}');
  return template === '' ? '/' : template;
}

async function actorClassOf(
  context: RequestContext,
  actorFlags: ActorFlags,
): Promise<'regular' | 'system' | 'support'> {
  const { authentication } = context;
  if (authentication.isSystem || SYSTEM_ACTORS.has(authentication.actorUrn)) return 'system';
  if (!authentication.actorUrn.startsWith('urn:li:corpuser:')) return 'regular';
  const flags = await actorFlags(authentication.actorUrn);
  if (flags?.system) return 'system';
  if (flags?.supportUser) return 'support';
  return 'regular';
}

/** The ecosystem's `auth_channel`: session, pat, oauth, system, anonymous, unknown. */
function authChannelOf(context: RequestContext): string {
  switch (context.authentication.method) {
    case 'system-client':
      return 'system';
    case 'access-token':
      return 'pat';
    case 'session-token':
      return 'session';
    case 'external-jwt':
      return 'oauth';
    case 'guest':
      return 'anonymous';
    default:
      return context.authentication.isSystem ? 'system' : 'unknown';
  }
}
