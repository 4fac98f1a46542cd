import { accessTokenResolvers, accessTokenSchema } from './access-tokens/access-tokens.js';
import { dataProductResolvers, dataProductSchema } from './data-products/data-products.js';
import { domainResolvers, domainSchema } from './domains/domains.js';
import { entityResolvers } from './entities/entity-resolvers.js';
import { logicalParentResolvers, logicalParentSchema } from './logical/logical-parents.js';
import { entitySchema } from './entities/entity-schema.js';
import { ingestionSourceResolvers, ingestionSourceSchema } from './ingestion-sources/ingestion-sources.js';
import { meResolvers, meSchema } from './me/me.js';
import { entityUpdateResolvers, entityUpdateSchema } from './mutations/entity-updates.js';
import { labelMutationResolvers, labelMutationSchema } from './mutations/label-mutations.js';
import { mutationResolvers, mutationSchema } from './mutations/mutation-resolvers.js';
import { nativeUserResolvers, nativeUserSchema } from './native-users/native-users.js';
import { policyResolvers, policySchema } from './policies/policies.js';
import { testResolvers, testSchema } from './tests/tests.js';
import { browseV2, browseV2Schema } from './search/browse-v2.js';
import { lineageSearchSchema, scrollAcrossLineage, searchAcrossLineage } from './search/lineage-search.js';
import { searchResolvers } from './search/search-resolvers.js';
import { searchSchema } from './search/search-schema.js';
import { structuredPropertyMutationResolvers } from './structured-properties/structured-properties-mutations.js';
import { structuredPropertySchema } from './structured-properties/structured-properties-schema.js';
import { userAdminResolvers, userAdminSchema } from './users/user-admin.js';

/** Every slice's SDL: the catalog's whole GraphQL schema (the endpoint and slice tests build it alike). */
export function catalogTypeDefs(): string[] {
  return [
    entitySchema(),
    searchSchema,
    browseV2Schema,
    lineageSearchSchema,
    meSchema,
    mutationSchema,
    labelMutationSchema,
    entityUpdateSchema,
    structuredPropertySchema,
    accessTokenSchema,
    policySchema,
    userAdminSchema,
    nativeUserSchema,
    ingestionSourceSchema,
    testSchema,
    dataProductSchema,
    domainSchema,
    logicalParentSchema,
  ];
}

/**
 * Every slice's resolvers, in the order they merge: the generated entity resolvers first, so that a
 * slice's own resolver of an entity field takes precedence.
 */
export function catalogResolvers(): Record<string, Record<string, unknown>>[] {
  return [
    entityResolvers(),
    searchResolvers(),
    { Query: { browseV2, searchAcrossLineage, scrollAcrossLineage } },
    meResolvers(),
    mutationResolvers(),
    labelMutationResolvers(),
    entityUpdateResolvers(),
    structuredPropertyMutationResolvers(),
    accessTokenResolvers(),
    policyResolvers(),
    userAdminResolvers(),
    nativeUserResolvers(),
    ingestionSourceResolvers(),
    testResolvers(),
    dataProductResolvers(),
    domainResolvers(),
    logicalParentResolvers(),
  ];
}
