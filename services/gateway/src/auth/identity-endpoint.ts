import type { Request, Response } from 'express';
import { requestContextOf } from './request-context.js';

/** `GET /openapi/operations/identity/user/urn`: who the credentials act as, exactly `{"urn": …}`. */
export function identityUserUrn(_req: Request, res: Response): void {
  res.json({ urn: requestContextOf(res).authentication.actorUrn });
}
