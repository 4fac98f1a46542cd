import type { Request, Response } from 'express';
import type { AspectCounts } from '../application/aspect-counts.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';
import { sendJson } from './send-json.js';

/** POST /aspects?action=getCount {aspect, urnLike?}: `{"value": n}`, the SDK's `get_aspect_counts`. */
export async function getAspectCountAction(req: Request, res: Response, counts: AspectCounts): Promise<void> {
  const body = ActionBody.of(req);
  const aspect = body.requiredString('aspect');
  const urnLike = body.optionalString('urnLike');
  sendJson(res, { value: await counts.count(requestContextOf(res), aspect, urnLike) });
}
