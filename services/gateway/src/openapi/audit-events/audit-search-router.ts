import { Router, type Request, type Response } from 'express';
import { jsonBodyParser } from '../../http/json-body.js';
import { ValidationError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import {
  AUDIT_EVENT_TYPES,
  DAY_MS,
  isAuditEventType,
  type AuditCursor,
  type AuditQuery,
  type AuditSearch,
} from '../../application/audit-search.js';
import { requestContextOf } from '../../auth/request-context.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { decodeAuditScrollId, encodeAuditScrollId } from './audit-scroll-id.js';
import { AUDIT_SEARCH_OPERATION } from './audit-search-operation.js';
import { usageEventOf } from './audit-usage-event.js';

export interface AuditEventsDeps {
  /** The audit search (it decides who may read which events). */
  readonly audit: AuditSearch;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /** The clock the default window is taken from. */
  readonly now?: () => number;
}

const FILTER_FIELDS = ['eventTypes', 'entityTypes', 'aspectTypes', 'actorUrns'] as const;
type FilterField = (typeof FILTER_FIELDS)[number];
type Filters = Partial<Record<FilterField, readonly string[]>>;

/**
 * The router mounted at /openapi/v1/events/audit: `POST /search` (spec 4.12) answers the audit events of
 * a time window (by default the last 24 hours), newest first, filtered by the body's lists, in pages of
 * `size` resumed with `scrollId`. The caller needs ANALYTICS READ (VIEW_ANALYTICS,
 * GET_ANALYTICS_PRIVILEGE or MANAGE_SYSTEM_OPERATIONS).
 */
export function auditEventsRouter(deps: AuditEventsDeps): Router {
  const router = Router();
  const now = deps.now ?? Date.now;
  const json = jsonBodyParser({ limit: deps.maxBodyBytes });
  router.post('/search', json, async (req: Request, res: Response) => {
    let includeRaw = true;
    const page = await deps.audit.search(requestContextOf(res), () => {
      const read = readQuery(req, now());
      includeRaw = read.includeRaw;
      return read.query;
    });
    res.json({
      ...(page.next === undefined ? {} : { nextScrollId: encodeAuditScrollId(page.next) }),
      count: page.events.length,
      total: page.total,
      usageEvents: page.events.map((event) => usageEventOf(event, includeRaw)),
    });
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}

/** The search the request asks for: its window (by default the day before `at`), page and filters. */
function readQuery(req: Request, at: number): { query: AuditQuery; includeRaw: boolean } {
  // The body first: its messages name the field (and the known event types) more plainly.
  const filters = readFilters(req.body);
  const query = requestValidator.input(AUDIT_SEARCH_OPERATION, req).query;
  const startParam = query['startTime'] as number;
  const endParam = query['endTime'] as number;
  const startTime = startParam < 0 ? at - DAY_MS : startParam;
  const endTime = endParam <= 0 ? at : endParam;
  if (endTime < startTime)
    throw new ValidationError(`endTime (${endTime}) must not be before startTime (${startTime})`);
  const scrollId = query['scrollId'] as string | undefined;
  const after: AuditCursor | undefined =
    scrollId === undefined || scrollId === '' ? undefined : decodeAuditScrollId(scrollId);
  return {
    query: {
      startTime,
      endTime,
      size: query['size'] as number,
      ...(after === undefined ? {} : { after }),
      ...filters,
    },
    includeRaw: query['includeRaw'] !== false,
  };
}

/** The body's filter lists: an object (or nothing) whose known fields are lists of strings. */
function readFilters(body: unknown): Filters {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ValidationError('The body must be a JSON object');
  const filters: Filters = {};
  for (const field of FILTER_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value))
      throw new ValidationError(`${field} must be a list of strings, got ${describe(value)}`);
    value.forEach((item: unknown, index) => {
      if (typeof item !== 'string')
        throw new ValidationError(`${field} must be a list of strings; entry ${index} is ${describe(item)}`);
    });
    filters[field] = value as string[];
  }
  const unknown = filters.eventTypes?.find((type) => !isAuditEventType(type));
  if (unknown !== undefined)
    throw new ValidationError(
      `Unknown event type ${JSON.stringify(unknown)} in eventTypes; known event types: ${AUDIT_EVENT_TYPES.join(', ')}`,
    );
  return filters;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
