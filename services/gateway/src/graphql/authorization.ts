import { ForbiddenError } from '@catalog/model';
import type { GraphQLContext } from './context.js';
import { unlessUnavailable } from '../auth/auth-unavailable.js';

/** The ecosystem's text for every GraphQL privilege denial (extensions.code 403, type UNAUTHORIZED). */
export const UNAUTHORIZED_MESSAGE =
  'Unauthorized to perform this action. Please contact your DataHub administrator.';

/** Whether the caller holds any of the privileges (on the resource, when one is named). */
export async function isAuthorized(
  ctx: GraphQLContext,
  privileges: readonly string[],
  resourceUrn?: string,
): Promise<boolean> {
  if (ctx.auth.authentication.isSystem) return true;
  return unlessUnavailable('Authorization could not be decided', () =>
    ctx.services.auth.authorizer.isAllowed({
      actorUrn: ctx.actor,
      privileges,
      ...(resourceUrn === undefined ? {} : { resourceUrn }),
    }),
  );
}

/** Throws the ecosystem's 403 GraphQL error unless the caller holds one of the privileges. */
export async function requirePrivilege(
  ctx: GraphQLContext,
  privileges: readonly string[],
  resourceUrn?: string,
): Promise<void> {
  if (!(await isAuthorized(ctx, privileges, resourceUrn))) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
}
