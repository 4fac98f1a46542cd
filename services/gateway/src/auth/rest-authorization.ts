import type { Response } from 'express';
import { ForbiddenError } from '@catalog/model';
import type { GatewayAuth } from './gateway-auth.js';
import { requestContextOf } from './request-context.js';
import { unlessUnavailable } from './auth-unavailable.js';

/** One privilege question of a Rest.li or OpenAPI route: every group must hold (any one privilege of each). */
export interface RestRequirement {
  /** Any-of groups that must all be satisfied (MANAGE = update set AND delete set). */
  readonly privileges: readonly (readonly string[])[];
  readonly resourceUrn?: string;
  readonly resourceType?: string;
  /** The 403 message, in the ecosystem's words for the route. */
  readonly message: string;
}

/**
 * The one place the Rest.li, OpenAPI and operations routes ask whether the caller may do what it
 * asked: the system client always may; with REST_API_AUTHORIZATION_ENABLED=false every authenticated
 * caller may (as the ecosystem); otherwise the policy engine decides, and a refusal is a 403.
 */
export async function requireRest(
  auth: GatewayAuth,
  res: Response,
  requirement: RestRequirement,
): Promise<void> {
  if (!auth.settings.restApiAuthorization) return;
  await requireAlways(auth, res, requirement);
}

/** As requireRest, but also when REST API authorization is off (platform operations: tokens, users, policies). */
export async function requireAlways(
  auth: GatewayAuth,
  res: Response,
  requirement: RestRequirement,
): Promise<void> {
  const { authentication } = requestContextOf(res);
  if (authentication.isSystem) return;
  for (const anyOf of requirement.privileges) {
    const allowed = await unlessUnavailable('Authorization could not be decided', () =>
      auth.authorizer.isAllowed({
        actorUrn: authentication.actorUrn,
        privileges: anyOf,
        ...(requirement.resourceUrn === undefined ? {} : { resourceUrn: requirement.resourceUrn }),
        ...(requirement.resourceType === undefined ? {} : { resourceType: requirement.resourceType }),
      }),
    );
    if (!allowed) throw new ForbiddenError(requirement.message);
  }
}

/** The acting user's urn. */
export function actorOf(res: Response): string {
  return requestContextOf(res).authentication.actorUrn;
}
