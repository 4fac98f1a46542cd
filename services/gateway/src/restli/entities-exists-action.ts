import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { EntityReads } from '../application/entity-reads.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';
import { parseEntityUrn } from './entity-reads.js';
import { sendJson } from './send-json.js';

/**
 * POST /entities?action=exists `{urn, includeSoftDelete?}` → `{"value": bool}`: whether the entity's key
 * aspect is stored. A soft-deleted entity (status.removed) exists unless includeSoftDelete is false
 * (absent counts as true, as in the ecosystem).
 */
export async function existsEntityAction(req: Request, res: Response, reads: EntityReads): Promise<void> {
  const body = ActionBody.of(req);
  const { urn, entity } = parseEntityUrn(body.requiredString('urn'));
  const includeSoftDelete = readBoolean(body.raw('includeSoftDelete'), 'includeSoftDelete', true);
  const exists = await reads.exists(
    requestContextOf(res),
    urn.raw,
    { keyAspect: entity.keyAspect, hasStatus: entity.aspects.has('status') },
    includeSoftDelete,
  );
  sendJson(res, { value: exists });
}

function readBoolean(raw: unknown, name: string, fallback: boolean): boolean {
  if (raw === undefined || raw === null) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new ValidationError(`${name} must be a boolean`);
}
