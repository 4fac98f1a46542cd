import type { Response } from 'express';
import type { RequestContext } from '@catalog/auth';

const KEY = 'requestContext';

/** Stores the request's context once the authentication middleware has established it. */
export function setRequestContext(res: Response, context: RequestContext): void {
  res.locals[KEY] = context;
}

/** The request's context; every route behind the authentication middleware has one. */
export function requestContextOf(res: Response): RequestContext {
  const context = res.locals[KEY] as RequestContext | undefined;
  if (context === undefined)
    throw new Error('No request context: the route is not behind the authentication middleware');
  return context;
}

/** The request's context when the authentication middleware has established one (else undefined). */
export function requestContextIfAny(res: Response): RequestContext | undefined {
  return res.locals[KEY] as RequestContext | undefined;
}
