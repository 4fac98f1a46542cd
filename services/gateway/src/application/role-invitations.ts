import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { writeDecided } from './aspect-changes.js';
import type { NativeUserService } from './native-user-service.js';
import type { Proposals } from './proposals.js';
import { roleMembershipOf } from './users.js';

/**
 * Accepting an invite link's role (the ecosystem's acceptRole): the token is the authorization, so the
 * accepting user needs no privilege; the user gets the token's role (their roles replaced by it, as an
 * assignment does). A role-less invite grants nothing and changes nothing.
 */
export class RoleInvitations {
  constructor(
    private readonly auth: Pick<GatewayAuth, 'actors' | 'authorizer'>,
    private readonly nativeUsers: Pick<NativeUserService, 'inviteTokenRole'>,
    private readonly proposals: Proposals,
  ) {}

  async accept(ctx: RequestContext, inviteToken: string): Promise<boolean> {
    const actor = ctx.authentication.actorUrn;
    if (!actor.startsWith('urn:li:corpuser:'))
      throw new ValidationError(`Only a user can accept a role, not ${JSON.stringify(actor)}`);
    const granted = await this.nativeUsers.inviteTokenRole(inviteToken);
    if (granted === undefined) throw new ValidationError(`Invite token ${inviteToken} is invalid`);
    if (granted.role === null) return true;
    await writeDecided(this.proposals, ctx, [
      { urn: actor, entityType: 'corpuser', aspect: 'roleMembership', value: roleMembershipOf(granted.role) },
    ]);
    // What the actor may do changes now, not when the caches expire.
    this.auth.actors.invalidate(actor);
    this.auth.authorizer.invalidateActor(actor);
    return true;
  }
}
