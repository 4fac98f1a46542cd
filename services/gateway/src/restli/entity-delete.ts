import type { Request, Response } from 'express';
import {
  checkUrnForWrite,
  entityRegistry,
  parseUrn,
  ValidationError,
  type TimeseriesRange,
} from '@catalog/model';
import type { EntityDeletion } from '../application/entity-deletion.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';
import { wantsIndexWait } from './ingest-proposal.js';

/** A boolean parameter; Rest.li clients send booleans, some send "true"/"false". */
function optionalBoolean(body: ActionBody, name: string, fallback: boolean): boolean {
  const value = body.raw(name);
  if (value === undefined || value === null) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ValidationError(`${name} must be a boolean`);
}

/**
 * POST /entities?action=delete {urn, aspectName?, startTimeMillis?, endTimeMillis?} (facts 5.1):
 * `{value: {urn, rows, timeseriesRows}}`, or `{value: {urn, timeseriesRows}}` for one time-series aspect.
 */
export async function deleteEntityAction(
  req: Request,
  res: Response,
  deletion: EntityDeletion,
): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.requiredString('urn');
  // A delete is a write: the same urn checks, even when nothing is stored under the urn.
  checkUrnForWrite(urn);
  const entity = entityRegistry.requireEntity(parseUrn(urn).entityType);
  const aspectName = body.optionalString('aspectName');
  const startTimeMillis = body.optionalInt('startTimeMillis', { min: 0 });
  const endTimeMillis = body.optionalInt('endTimeMillis', { min: 0 });
  if (startTimeMillis !== undefined && endTimeMillis !== undefined && startTimeMillis > endTimeMillis)
    throw new ValidationError(
      `startTimeMillis (${startTimeMillis}) must not be after endTimeMillis (${endTimeMillis})`,
    );
  const range: TimeseriesRange = {
    ...(startTimeMillis === undefined ? {} : { startTimeMillis }),
    ...(endTimeMillis === undefined ? {} : { endTimeMillis }),
  };
  const aspect = aspectName === undefined ? undefined : entity.aspects.get(aspectName);
  if (aspectName !== undefined && aspect?.kind !== 'timeseries')
    throw new ValidationError(
      aspect === undefined
        ? `Not supported for non-timeseries aspect ${aspectName}: ${entity.name} has no such aspect.`
        : `Not supported for non-timeseries aspect ${aspectName}.`,
    );
  const waitIndex = wantsIndexWait(req);
  const value = await deletion.delete(requestContextOf(res), {
    urn,
    ...(aspectName === undefined ? {} : { aspect: aspectName }),
    range,
    waitIndex,
  });
  res.json({ value });
}

/**
 * POST /entities?action=deleteReferences {urn, dryRun?} (facts 5.2): `{value: {total, relatedAspects}}`,
 * the referencing aspects (a sample) that were (dryRun: would be) rewritten without the urn.
 */
export async function deleteReferencesAction(
  req: Request,
  res: Response,
  deletion: EntityDeletion,
): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.requiredString('urn');
  entityRegistry.requireEntity(parseUrn(urn).entityType);
  const dryRun = optionalBoolean(body, 'dryRun', false);
  const waitIndex = wantsIndexWait(req);
  res.json({ value: await deletion.deleteReferences(requestContextOf(res), { urn, dryRun, waitIndex }) });
}
