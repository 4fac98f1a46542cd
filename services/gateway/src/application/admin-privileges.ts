import type { RequestContext } from '@catalog/auth';
import type { AccessPolicy } from './access-policy.js';

/**
 * The ecosystem's text for a refused GraphQL operation of the administrative and editing use cases
 * (tokens, users, policies, ingestion sources, metadata edits): extensions.code 403, type UNAUTHORIZED.
 */
export const UNAUTHORIZED_MESSAGE =
  'Unauthorized to perform this action. Please contact your DataHub administrator.';

/**
 * Throws a 403 (the ecosystem's text unless another is given) unless the actor holds any of
 * `privileges`: a platform privilege, or one on `resourceUrn` when it is given.
 */
export function requireAnyOf(
  policy: AccessPolicy,
  ctx: RequestContext,
  privileges: readonly string[],
  options: { readonly resourceUrn?: string; readonly message?: string } = {},
): Promise<void> {
  return policy.require(ctx, {
    privileges: [privileges],
    ...(options.resourceUrn === undefined ? {} : { resourceUrn: options.resourceUrn }),
    message: options.message ?? UNAUTHORIZED_MESSAGE,
  });
}
