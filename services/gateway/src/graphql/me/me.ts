import { GRAPHQL_PLATFORM_PRIVILEGES } from '@catalog/auth';
import type { GraphQLContext } from '../context.js';
import { refOf } from '../entities/entity-ref.js';

/** The fields of `PlatformPrivileges`, as the ecosystem's app.graphql lists them. */
export const PLATFORM_PRIVILEGE_FIELDS = [
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
type PlatformPrivileges { ${PLATFORM_PRIVILEGE_FIELDS.map((p) => `${p}: Boolean!`).join(' ')} }
type AuthenticatedUser { corpUser: CorpUser! platformPrivileges: PlatformPrivileges! }
extend type Query { me: AuthenticatedUser }
`;

/**
 * Each PlatformPrivileges field: true when the actor holds any platform privilege that grants it
 * (`all` for the system client, which is allowed everything).
 */
export function platformPrivilegeFlags(held: ReadonlySet<string> | 'all'): Record<string, boolean> {
  return Object.fromEntries(
    PLATFORM_PRIVILEGE_FIELDS.map((field) => [
      field,
      held === 'all' || (GRAPHQL_PLATFORM_PRIVILEGES[field] ?? []).some((p) => held.has(p)),
    ]),
  );
}

export function meResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      me: async (_root: unknown, _args: unknown, ctx: GraphQLContext) => {
        const held = await ctx.services.app.me.platformPrivileges(ctx.auth);
        return { corpUser: refOf(ctx.actor), platformPrivileges: platformPrivilegeFlags(held) };
      },
    },
  };
}
