import { accessTokenResolvers, accessTokenSchema } from './access-tokens/access-tokens.js';
import { appConfigResolvers, appConfigSchema } from './app-config/app-config.js';
import { documentsResolvers } from './documents/documents-resolvers.js';
import { documentsSchema } from './documents/documents-schema.js';
import { dataProductResolvers, dataProductSchema } from './data-products/data-products.js';
import { domainResolvers, domainSchema } from './domains/domains.js';
import { entityResolvers } from './entities/entity-resolvers.js';
import { logicalParentResolvers, logicalParentSchema } from './logical/logical-parents.js';
import { entitySchema } from './entities/entity-schema.js';
import { inputFieldsResolvers, inputFieldsSchema } from './entities/input-fields.js';
import { ingestionSourceResolvers, ingestionSourceSchema } from './ingestion-sources/ingestion-sources.js';
import { executionRequestResolvers, executionRequestSchema } from './ingestion-sources/execution-requests.js';
import { analyticsHighlightsResolvers, analyticsHighlightsSchema } from './analytics/analytics-highlights.js';
import { analyticsChartsResolvers, analyticsChartsSchema } from './analytics/analytics-charts.js';
import { lifecycleResolvers, lifecycleSchema } from './lifecycle/lifecycle.js';
import { meResolvers, meSchema } from './me/me.js';
import { entityUpdateResolvers, entityUpdateSchema } from './mutations/entity-updates.js';
import { labelMutationResolvers, labelMutationSchema } from './mutations/label-mutations.js';
import { lineageMutationResolvers, lineageMutationSchema } from './mutations/lineage-mutations.js';
import { linkMutationResolvers, linkMutationSchema } from './mutations/link-mutations.js';
import { softDeleteMutationResolvers, softDeleteMutationSchema } from './mutations/soft-delete-mutations.js';
import { mutationResolvers, mutationSchema } from './mutations/mutation-resolvers.js';
import { nativeUserResolvers, nativeUserSchema } from './native-users/native-users.js';
import { entityPatchResolvers, entityPatchSchema } from './patch/entity-patch.js';
import { secretResolvers, secretSchema } from './secrets/secrets.js';
import { webhookResolvers, webhookSchema } from './webhooks/webhooks.js';
import { serviceAccountResolvers, serviceAccountSchema } from './service-accounts/service-accounts.js';
import { viewResolvers, viewSchema } from './views/views.js';
import { incidentResolvers, incidentSchema } from './incidents/incidents.js';
import { assertionResolvers, assertionSchema } from './assertions/assertions.js';
import { formResolvers, formSchema } from './forms/forms.js';
import { roleMutationResolvers, roleMutationSchema } from './mutations/role-mutations.js';
import { policyResolvers, policySchema } from './policies/policies.js';
import { queryEntityResolvers, queryEntitySchema } from './queries/query-entity.js';
import { listQueriesResolvers, listQueriesSchema } from './queries/list-queries.js';
import { entityDetailsResolvers, entityDetailsSchema } from './entity-details/entity-details.js';
import { testResolvers, testSchema } from './tests/tests.js';
import { schemaHistoryResolvers, schemaHistorySchema } from './timeline/schema-history.js';
import { timelineResolvers, timelineSchema } from './timeline/timeline.js';
import { entityChangedResolvers, entityChangedSchema } from './subscriptions/entity-changed.js';
import { browseV2, browseV2Schema } from './search/browse-v2.js';
import {
  lineageSearchSchema,
  scrollAcrossLineage,
  searchAcrossLineage,
  searchAcrossLineageCounts,
} from './search/lineage-search.js';
import { searchResolvers } from './search/search-resolvers.js';
import { entityCountsResolvers, entityCountsSchema } from './search/entity-counts.js';
import { entityPrivilegesResolvers, entityPrivilegesSchema } from './privileges/entity-privileges.js';
import { searchSchema } from './search/search-schema.js';
import { structuredPropertyMutationResolvers } from './structured-properties/structured-properties-mutations.js';
import { structuredPropertySchema } from './structured-properties/structured-properties-schema.js';
import { userAdminResolvers, userAdminSchema } from './users/user-admin.js';
import { versionLinkResolvers, versionLinkSchema } from './versioning/version-links.js';
import { versionPropertiesResolvers, versionPropertiesSchema } from './versioning/version-properties.js';

/** Every slice's SDL: the catalog's whole GraphQL schema (the endpoint and slice tests build it alike). */
export function catalogTypeDefs(): string[] {
  return [
    entitySchema(),
    inputFieldsSchema,
    searchSchema,
    entityCountsSchema,
    entityPrivilegesSchema,
    browseV2Schema,
    lineageSearchSchema,
    meSchema,
    mutationSchema,
    labelMutationSchema,
    lineageMutationSchema,
    entityUpdateSchema,
    linkMutationSchema,
    softDeleteMutationSchema,
    entityPatchSchema,
    secretSchema,
    webhookSchema,
    serviceAccountSchema,
    viewSchema,
    incidentSchema,
    assertionSchema,
    formSchema,
    roleMutationSchema,
    structuredPropertySchema,
    accessTokenSchema,
    policySchema,
    userAdminSchema,
    nativeUserSchema,
    ingestionSourceSchema,
    executionRequestSchema,
    analyticsHighlightsSchema,
    analyticsChartsSchema,
    testSchema,
    appConfigSchema,
    documentsSchema(),
    lifecycleSchema,
    timelineSchema,
    schemaHistorySchema,
    dataProductSchema,
    domainSchema,
    logicalParentSchema,
    versionLinkSchema,
    versionPropertiesSchema,
    queryEntitySchema,
    listQueriesSchema,
    entityDetailsSchema,
    entityChangedSchema,
  ];
}

/**
 * Every slice's resolvers, in the order they merge: the generated entity resolvers first, so that a
 * slice's own resolver of an entity field takes precedence.
 */
export function catalogResolvers(): Record<string, Record<string, unknown>>[] {
  return [
    entityResolvers(),
    inputFieldsResolvers(),
    searchResolvers(),
    entityCountsResolvers(),
    entityPrivilegesResolvers(),
    { Query: { browseV2, searchAcrossLineage, scrollAcrossLineage, searchAcrossLineageCounts } },
    meResolvers(),
    mutationResolvers(),
    labelMutationResolvers(),
    lineageMutationResolvers(),
    entityUpdateResolvers(),
    linkMutationResolvers(),
    softDeleteMutationResolvers(),
    entityPatchResolvers(),
    secretResolvers(),
    webhookResolvers(),
    serviceAccountResolvers(),
    viewResolvers(),
    incidentResolvers(),
    assertionResolvers(),
    formResolvers(),
    roleMutationResolvers(),
    structuredPropertyMutationResolvers(),
    accessTokenResolvers(),
    policyResolvers(),
    userAdminResolvers(),
    nativeUserResolvers(),
    ingestionSourceResolvers(),
    executionRequestResolvers(),
    analyticsHighlightsResolvers(),
    analyticsChartsResolvers(),
    testResolvers(),
    appConfigResolvers(),
    documentsResolvers(),
    lifecycleResolvers(),
    timelineResolvers(),
    schemaHistoryResolvers(),
    dataProductResolvers(),
    domainResolvers(),
    logicalParentResolvers(),
    versionLinkResolvers(),
    versionPropertiesResolvers(),
    queryEntityResolvers(),
    listQueriesResolvers(),
    entityDetailsResolvers(),
    entityChangedResolvers(),
  ];
}
