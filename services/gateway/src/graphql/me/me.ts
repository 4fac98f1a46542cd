import type { GraphQLContext } from '../context.js';
import { refOf } from '../entities/entity-ref.js';

/** The privileges a platform grants, as `me` reports them (every one while authorization is off). */
const PLATFORM_PRIVILEGES = [
  'viewAnalytics',
  'managePolicies',
  'manageIdentities',
  'generatePersonalAccessTokens',
  'createDomains',
  'manageDomains',
  'manageIngestion',
  'manageSecrets',
  'manageTokens',
  'viewTests',
  'manageTests',
  'manageGlossaries',
  'manageUserCredentials',
  'createTags',
  'manageTags',
  'manageGlobalViews',
  'manageOwnershipTypes',
  'manageGlobalAnnouncements',
  'createBusinessAttributes',
  'manageBusinessAttributes',
  'manageStructuredProperties',
  'viewStructuredPropertiesPage',
] as const;

export const meSchema = `
type PlatformPrivileges { ${PLATFORM_PRIVILEGES.map((p) => `${p}: Boolean!`).join(' ')} }
type AuthenticatedUser { corpUser: CorpUser! platformPrivileges: PlatformPrivileges! }
extend type Query { me: AuthenticatedUser }
`;

export function meResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      me: (_root: unknown, _args: unknown, ctx: GraphQLContext) => ({
        corpUser: refOf(ctx.actor),
        platformPrivileges: Object.fromEntries(PLATFORM_PRIVILEGES.map((p) => [p, true])),
      }),
    },
  };
}
