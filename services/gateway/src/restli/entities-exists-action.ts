import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import type { RouteGuards } from '../auth/route-guards.js';
import { ActionBody } from './action-body.js';
import { parseEntityUrn } from './entity-reads.js';
import { sendJson } from './send-json.js';

/**
 * POST /entities?action=exists `{urn, includeSoftDelete?}` → `{"value": bool}`: whether the entity's key
 * aspect is stored. A soft-deleted entity (status.removed) exists unless includeSoftDelete is false
 * (absent counts as true, as in the ecosystem).
 */
export async function existsEntityAction(
  req: Request,
  res: Response,
  deps: { readonly store: AspectStore; readonly guard: RouteGuards },
): Promise<void> {
  const body = ActionBody.of(req);
  const raw = body.requiredString('urn');
  await deps.guard.entityExists(res, raw);
  const { urn, entity } = parseEntityUrn(raw);
  const includeSoftDelete = readBoolean(body.raw('includeSoftDelete'), 'includeSoftDelete', true);
  const names = entity.aspects.has('status') ? [entity.keyAspect, 'status'] : [entity.keyAspect];
  const stored = await deps.store.getLatest(urn.raw, names);
  const key = stored.some((a) => a.aspect === entity.keyAspect);
  const removed = stored.some((a) => a.aspect === 'status' && a.value['removed'] === true);
  sendJson(res, { value: key && (includeSoftDelete || !removed) });
}

function readBoolean(raw: unknown, name: string, fallback: boolean): boolean {
  if (raw === undefined || raw === null) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new ValidationError(`${name} must be a boolean`);
}
