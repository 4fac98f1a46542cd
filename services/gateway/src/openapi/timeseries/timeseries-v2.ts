import { Router, type Request, type Response } from 'express';
import { entityRegistry, ValidationError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type {
  TimeseriesDocument,
  TimeseriesPosition,
  TimeseriesReads,
} from '../../application/timeseries-reads.js';
import { requestContextOf } from '../../auth/request-context.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import { TIMESERIES_SCROLL_OPERATION } from './timeseries-operations.js';

const MAX_COUNT = 10_000;

export interface TimeseriesApiDeps {
  /** The time-series reads (they decide who may read which values). */
  readonly timeseries: TimeseriesReads;
  readonly logger: Logger;
}

/**
 * GET /openapi/v2/timeseries/{entityName}/{aspectName}: every entity's values of one time-series
 * aspect, newest first, in pages of `count` (default 10) that resume from `scrollId`, optionally
 * bounded by `startTimeMillis`/`endTimeMillis`. The answer is the ecosystem's GenericScrollResult of
 * GenericTimeseriesAspect: `{scrollId?, results: [{urn, timestampMillis, messageId?, event,
 * systemMetadata?}]}`; the last page carries no scrollId.
 */
export function timeseriesApiRouter(deps: TimeseriesApiDeps): Router {
  const router = Router();
  router.get('/:entityName/:aspectName', async (req: Request, res: Response) => {
    const entity = entityRegistry.requireEntity(String(req.params['entityName']));
    const aspectName = String(req.params['aspectName']);
    const aspect = entity.aspects.get(aspectName);
    if (!aspect) throw new ValidationError(`Unknown aspect ${aspectName} for entity type ${entity.name}`);
    if (aspect.kind !== 'timeseries') throw new ValidationError('Only timeseries aspects are supported.');
    const query = requestValidator.input(TIMESERIES_SCROLL_OPERATION, req).query;
    // Above the maximum, the ecosystem clamps silently (SEARCH_SERVICE_LIMIT_RESULTS_MAX).
    const count = Math.min(query['count'] as number, MAX_COUNT);
    const startTimeMillis = query['startTimeMillis'] as number | undefined;
    const endTimeMillis = query['endTimeMillis'] as number | undefined;
    if (startTimeMillis !== undefined && endTimeMillis !== undefined && startTimeMillis > endTimeMillis)
      throw new ValidationError('startTimeMillis must not be after endTimeMillis');
    const withSystemMetadata = query['systemMetadata'] === true;
    const scrollId = query['scrollId'] as string | undefined;
    const after = scrollId !== undefined && scrollId !== '' ? decodeScrollId(scrollId) : undefined;
    const page = await deps.timeseries.scroll(requestContextOf(res), {
      entityType: entity.name,
      aspect: aspect.name,
      count,
      ...(startTimeMillis !== undefined ? { startTimeMillis } : {}),
      ...(endTimeMillis !== undefined ? { endTimeMillis } : {}),
      ...(after !== undefined ? { after } : {}),
    });
    res.json({
      ...(page.next === undefined ? {} : { scrollId: encodeScrollId(page.next) }),
      results: page.documents.map((d) => genericTimeseriesAspect(d, withSystemMetadata)),
    });
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}

function genericTimeseriesAspect(document: TimeseriesDocument, withSystemMetadata: boolean) {
  const messageId = document.value['messageId'];
  return {
    urn: document.urn,
    timestampMillis: document.timestampMillis,
    ...(typeof messageId === 'string' ? { messageId } : {}),
    event: document.value,
    ...(withSystemMetadata && document.systemMetadata !== undefined
      ? { systemMetadata: document.systemMetadata }
      : {}),
  };
}

/** The scroll id is the last document's position, `[timestampMillis, id]`, as base64url JSON. */
function encodeScrollId(position: TimeseriesPosition): string {
  return Buffer.from(JSON.stringify([position.timestampMillis, position.id])).toString('base64url');
}

function decodeScrollId(scrollId: string): TimeseriesPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    !Number.isSafeInteger(decoded[0]) ||
    typeof decoded[1] !== 'string'
  )
    throw new ValidationError(`Invalid scrollId ${JSON.stringify(scrollId)}: not one this service issued`);
  return { timestampMillis: decoded[0] as number, id: decoded[1] };
}
