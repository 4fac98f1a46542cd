import type { Request, RequestHandler, Response } from 'express';
import type { RequestContext } from '@catalog/auth';
import type { Logger } from '@catalog/runtime';
import type { GatewayMetrics, UsageRecord } from './gateway-metrics.js';
import { requestUsage } from './request-usage.js';
import { agentClassOf } from './agent-class.js';
import { bodyBytesOf } from './response-bytes.js';

/** `corpUserInfo.system` / `isSupportUser` of a user, as the actor directory knows them. */
export type ActorFlags = (actorUrn: string) => Promise<{ system: boolean; supportUser: boolean } | undefined>;

/** The ecosystem's system actors: the system client and the anonymous actor. */
const SYSTEM_ACTORS = new Set(['urn:li:corpuser:__datahub_system', 'urn:li:corpuser:UNKNOWN']);

/**
 * Records every request in the metrics once its response is done (`close`, which follows `finish`, or an
 * aborted connection): its route and duration (http_server_requests_seconds), and, for the requests the
 * usage taxonomy classifies, the usage counters by actor class, client kind, API and authentication
 * channel, with the request's body size (Content-Length) and the response's (the body bytes written:
 * countResponseBodies must be installed on the app's response prototype). Installed right after request
 * logging, before anything can answer. The per-request cost is one listener; the rest runs after the
 * response.
 */
export function requestMetrics(
  metrics: GatewayMetrics,
  actorFlags: ActorFlags,
  contextOf: (res: Response) => RequestContext | undefined,
  logger: Logger,
): RequestHandler {
  const record = (req: Request, res: Response, started: number): void => {
    const seconds = (performance.now() - started) / 1000;
    metrics.observeRequest(req.method, routeTemplate(req, res.statusCode), res.statusCode, seconds);
    const context = contextOf(res);
    if (context === undefined) return;
    const { path, action } = pathAndAction(req.originalUrl);
    const usage = requestUsage(
      action !== undefined
        ? { method: req.method, path, action, body: req.body as unknown }
        : { method: req.method, path, body: req.body as unknown },
    );
    if (usage === undefined) return;
    const contentLength = req.headers['content-length'];
    const inputBytes = contentLength === undefined ? undefined : Number(contentLength);
    const actorUrn = context.authentication.actorUrn;
    const agentClass = agentClassCached(req.headers['user-agent']);
    const authChannel = authChannelOf(context);
    const outputBytes = res.writableFinished ? bodyBytesOf(res) : undefined;
    const recordAs = (actorClass: UsageRecord['actorClass']): void => {
      const record: { -readonly [K in keyof UsageRecord]: UsageRecord[K] } = {
        api: usage.api,
        operation: usage.operation,
        actorUrn,
        actorClass,
        agentClass,
        authChannel,
      };
      if (inputBytes !== undefined && Number.isSafeInteger(inputBytes) && inputBytes >= 0)
        record.inputBytes = inputBytes;
      if (outputBytes !== undefined) record.outputBytes = outputBytes;
      metrics.recordUsage(record);
    };
    const known = knownActorClass(context);
    if (known !== undefined) return recordAs(known);
    actorFlags(context.authentication.actorUrn)
      .then((flags) => recordAs(flags?.system ? 'system' : flags?.supportUser ? 'support' : 'regular'))
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'usage metrics: the actor class could not be read'),
      );
  };
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => record(req, res, started));
    next();
  };
}

/** User-Agent → agent class, for the few agents a catalog sees (cleared should it fill up). */
const AGENT_CLASSES = new Map<string, string>();
const MAX_AGENTS = 1_000;

function agentClassCached(userAgent: string | undefined): string {
  if (userAgent === undefined) return agentClassOf(undefined);
  let agentClass = AGENT_CLASSES.get(userAgent);
  if (agentClass === undefined) {
    agentClass = agentClassOf(userAgent);
    if (AGENT_CLASSES.size >= MAX_AGENTS) AGENT_CLASSES.clear();
    AGENT_CLASSES.set(userAgent, agentClass);
  }
  return agentClass;
}

/** The path without its query, and `?action=` when the query has one (parsed only then). */
function pathAndAction(url: string): { path: string; action?: string } {
  const q = url.indexOf('?');
  if (q < 0) return { path: url };
  const path = url.slice(0, q);
  if (!url.includes('action=', q)) return { path };
  const action = new URLSearchParams(url.slice(q + 1)).get('action');
  return action === null ? { path } : { path, action };
}

/** Route templates by mount path and route path; bounded, as a mount path may hold a parameter's value. */
const TEMPLATES = new Map<string, string>();
const MAX_TEMPLATES = 10_000;

/** Spring's `uri` tag: the matched route's template, `NOT_FOUND` for a 404 no route took, else `UNKNOWN`. */
function routeTemplate(req: Request, status: number): string {
  const route = (req as { route?: { path?: unknown } }).route;
  const raw = Array.isArray(route?.path) ? (route.path[0] as unknown) : route?.path;
  if (typeof raw !== 'string') return status === 404 ? 'NOT_FOUND' : 'UNKNOWN';
  const key = `${req.baseUrl}\u0000${raw}`;
  let template = TEMPLATES.get(key);
  if (template === undefined) {
    const joined = `${req.baseUrl}${raw}`.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{*$1}');
    template = joined === '' ? '/' : joined;
    if (TEMPLATES.size < MAX_TEMPLATES) TEMPLATES.set(key, template);
  }
  return template;
}

/** The actor class when the authentication alone tells it; undefined when the user's flags decide. */
function knownActorClass(context: RequestContext): UsageRecord['actorClass'] | undefined {
  const { authentication } = context;
  if (authentication.isSystem || SYSTEM_ACTORS.has(authentication.actorUrn)) return 'system';
  if (!authentication.actorUrn.startsWith('urn:li:corpuser:')) return 'regular';
  return undefined;
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
