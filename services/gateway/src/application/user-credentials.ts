import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { NativeUserService } from './native-user-service.js';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';

/** The ecosystem's privilege for invite links and password resets. */
const MANAGE_USER_CREDENTIALS = ['MANAGE_USER_CREDENTIALS'] as const;

/**
 * Invite links and password reset links of native users: each takes MANAGE_USER_CREDENTIALS, and the
 * token is made acting as the caller. A role given as null or not at all is the role-less invite.
 */
export class UserCredentials {
  constructor(
    private readonly nativeUsers: Pick<
      NativeUserService,
      'getInviteToken' | 'createInviteToken' | 'createResetToken'
    >,
    private readonly policy: AccessPolicy,
  ) {}

  /** The current invite token for the role (made when there is none). */
  async inviteToken(ctx: RequestContext, roleUrn: string | null | undefined): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_USER_CREDENTIALS);
    return this.nativeUsers.getInviteToken(roleUrn ?? undefined, ctx.authentication.actorUrn);
  }

  /** A new invite token for the role, replacing the previous one. */
  async newInviteToken(ctx: RequestContext, roleUrn: string | null | undefined): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_USER_CREDENTIALS);
    return this.nativeUsers.createInviteToken(roleUrn ?? undefined, ctx.authentication.actorUrn);
  }

  /** A token with which the user sets a new password. */
  async resetToken(ctx: RequestContext, userUrn: string): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_USER_CREDENTIALS);
    if (!userUrn.startsWith('urn:li:corpuser:'))
      throw new ValidationError(`userUrn must be a corpuser urn, got ${JSON.stringify(userUrn)}`);
    return this.nativeUsers.createResetToken(userUrn, ctx.authentication.actorUrn, ctx.origin);
  }
}
