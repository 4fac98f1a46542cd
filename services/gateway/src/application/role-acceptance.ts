import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { writeDecided } from './aspect-changes.js';
import type { NativeUserService } from './native-user-service.js';
import type { Proposals } from './proposals.js';
import { roleMembershipOf } from './users.js';

/**
 * Accepting a role with an invite token (acceptRole): the token, not a privilege of the user, authorizes
 * the grant, so the signed-in user takes the token's role (none for a role-less token), as the
 * ecosystem assigns it; the user's cached roles are dropped at once.
 */
export class RoleAcceptance {
  constructor(
    private readonly auth: Pick<GatewayAuth, 'actors' | 'authorizer'>,
    private readonly nativeUsers: Pick<NativeUserService, 'inviteTokenRole'>,
    private readonly proposals: Proposals,
  ) {}

  async accept(ctx: RequestContext, inviteToken: string): Promise<void> {
    const actor = ctx.authentication.actorUrn;
    if (ctx.authentication.isSystem || !actor.startsWith('urn:li:corpuser:'))
      throw new ValidationError('Only a signed-in user accepts a role');
    const role = await this.nativeUsers.inviteTokenRole(inviteToken);
    if (role === null)
      throw new ValidationError(
        `Failed to accept role using invite token ${inviteToken}: Invite token ${inviteToken} is invalid`,
      );
    await writeDecided(this.proposals, ctx, [
      { urn: actor, entityType: 'corpuser', aspect: 'roleMembership', value: roleMembershipOf(role) },
    ]);
    this.auth.actors.invalidate(actor);
    this.auth.authorizer.invalidateActor(actor);
  }
}
