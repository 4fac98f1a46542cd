import { ANALYTICS_READ_PRIVILEGES } from './api-privileges.js';

/**
 * Each field of GraphQL `me.platformPrivileges`, with the platform privileges any one of which makes it
 * true. The "manage" fields of entity types (policies, identities, ingestion, secrets, structured
 * properties) are MANAGE = UPDATE and DELETE on the type; listed here is the platform privilege that
 * satisfies both on its own, which is what a PLATFORM policy can grant.
 */
export const GRAPHQL_PLATFORM_PRIVILEGES: Readonly<Record<string, readonly string[]>> = {
  viewAnalytics: ANALYTICS_READ_PRIVILEGES,
  managePolicies: ['MANAGE_POLICIES'],
  manageIdentities: ['MANAGE_USERS_AND_GROUPS'],
  generatePersonalAccessTokens: ['GENERATE_PERSONAL_ACCESS_TOKENS'],
  createDomains: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'],
  manageDomains: ['MANAGE_DOMAINS'],
  manageIngestion: ['MANAGE_INGESTION'],
  manageSecrets: ['MANAGE_SECRETS'],
  manageTokens: ['MANAGE_ACCESS_TOKENS'],
  viewTests: ['VIEW_TESTS'],
  manageTests: ['MANAGE_TESTS'],
  manageGlossaries: ['MANAGE_GLOSSARIES'],
  manageUserCredentials: ['MANAGE_USER_CREDENTIALS'],
  createTags: ['CREATE_TAGS', 'MANAGE_TAGS'],
  manageTags: ['MANAGE_TAGS'],
  manageGlobalViews: ['MANAGE_GLOBAL_VIEWS'],
  manageOwnershipTypes: ['MANAGE_GLOBAL_OWNERSHIP_TYPES'],
  manageGlobalAnnouncements: ['MANAGE_GLOBAL_ANNOUNCEMENTS'],
  createBusinessAttributes: ['CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'],
  manageBusinessAttributes: ['MANAGE_BUSINESS_ATTRIBUTE'],
  manageStructuredProperties: ['MANAGE_STRUCTURED_PROPERTIES'],
  viewStructuredPropertiesPage: ['VIEW_STRUCTURED_PROPERTIES_PAGE'],
};
