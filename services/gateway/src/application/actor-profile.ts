import type { RequestContext } from '@catalog/auth';
import type { AccessPolicy } from './access-policy.js';

/** What the acting identity may do across the platform (GraphQL `me`). */
export class ActorProfile {
  constructor(private readonly policy: AccessPolicy) {}

  /** The platform privileges the actor holds ('all' for the system actor). */
  platformPrivileges(ctx: RequestContext): Promise<ReadonlySet<string> | 'all'> {
    return this.policy.platformPrivileges(ctx);
  }
}
