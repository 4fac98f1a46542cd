import type { Request, Response } from 'express';
import { entityRegistry, parseUrn, stringifyJson, ValidationError, withDoubles } from '@catalog/model';
import { normalizeFilter } from '@catalog/search';
import type { TimeseriesReads } from '../application/timeseries-reads.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';

/** The ecosystem's default and our ceiling for one time-series query. */
const DEFAULT_LIMIT = 10_000;

/** POST /aspects?action=getTimeseriesAspectValues: newest first, each value an escaped JSON string. */
export async function getTimeseriesAspectValues(
  req: Request,
  res: Response,
  timeseries: TimeseriesReads,
): Promise<void> {
  const body = ActionBody.of(req);
  const urn = parseUrn(body.requiredString('urn'));
  const entityName = body.optionalString('entity') ?? urn.entityType;
  const entity = entityRegistry.requireEntity(entityName);
  if (entity.name !== urn.entityType) {
    throw new ValidationError(
      `The entity type of urn ${urn.raw} is ${urn.entityType}, but entity is ${entity.name}`,
    );
  }
  const aspectName = body.requiredString('aspect');
  const aspect = entity.aspects.get(aspectName);
  if (!aspect) throw new ValidationError(`Unknown aspect ${aspectName} for entity type ${entity.name}`);
  if (aspect.kind !== 'timeseries') throw new ValidationError(`${aspectName} is not a time-series aspect`);
  const startTimeMillis = body.optionalInt('startTimeMillis', { min: 0 });
  const endTimeMillis = body.optionalInt('endTimeMillis', { min: 0 });
  if (startTimeMillis !== undefined && endTimeMillis !== undefined && startTimeMillis > endTimeMillis) {
    throw new ValidationError('startTimeMillis must not be after endTimeMillis');
  }
  const limit = body.int('limit', DEFAULT_LIMIT, { min: 1, max: DEFAULT_LIMIT });
  const rawFilter = body.raw('filter');
  const documents = await timeseries.values(requestContextOf(res), {
    entityType: entity.name,
    aspect: aspect.name,
    urn: urn.raw,
    limit,
    ...(startTimeMillis !== undefined ? { startTimeMillis } : {}),
    ...(endTimeMillis !== undefined ? { endTimeMillis } : {}),
    ...(rawFilter !== undefined && rawFilter !== null ? { filter: normalizeFilter(rawFilter) } : {}),
  });
  res.json({
    value: {
      entityName: entity.name,
      aspectName: aspect.name,
      limit,
      ...(startTimeMillis !== undefined ? { startTimeMillis } : {}),
      ...(endTimeMillis !== undefined ? { endTimeMillis } : {}),
      values: documents.map((d) => ({
        aspect: { value: stringifyJson(withDoubles(aspect.name, d.value)), contentType: 'application/json' },
        ...(d.systemMetadata ? { systemMetadata: d.systemMetadata } : {}),
      })),
    },
  });
}
