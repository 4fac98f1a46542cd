import { randomUUID } from 'node:crypto';
import { PINNED_SDK_VERSION } from '@catalog/model';
import type { AuditIndex, GraphIndex, SearchIndex, TimeseriesIndex } from '@catalog/search';
import type { RequestContext } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';
import type { ProposalOutcome } from '@catalog/runtime';
import { IngestionRuns } from './ingestion-runs.js';
import { EntityDeletion } from './entity-deletion.js';
import { IndexDocuments } from './index-documents.js';
import { IndexRestore } from './index-restore.js';
import type { EventLog, TopicNames } from '@catalog/events';
import { CatalogSearch } from './catalog-search.js';
import { EventsPoll } from './events-poll.js';
import { ChangeEventFeed } from './change-event-stream.js';
import { ChangeSubscriptions, type ChangeSubscriptionLimits } from './change-subscriptions.js';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { NativeUserService } from './native-user-service.js';
import { AccessPolicy } from './access-policy.js';
import { AccessTokens } from './access-tokens.js';
import { ActorEntityLoader, type ReadPacing } from './actor-entity-loader.js';
import { AuditSearch } from './audit-search.js';
import { ApiThrottle } from './api-throttle.js';
import { AnalyticsHighlights } from './analytics-highlights.js';
import { AnalyticsCharts } from './analytics-charts.js';
import { Browse } from './browse.js';
import { DocumentImport } from './document-import.js';
import { DocumentSearch } from './document-search.js';
import { Documents } from './documents.js';
import { DataProducts } from './data-products.js';
import { DomainAdmin } from './domain-admin.js';
import { LogicalParents } from './logical-parents.js';
import { WriteTraces, type FailedWrites } from './write-traces.js';
import { RegistryModels } from './registry-models.js';
import { UsageTracking } from './usage-tracking.js';
import { OpenLineageIngest } from './openlineage-ingest.js';
import {
  DEFAULT_OPENLINEAGE_SETTINGS,
  type OpenLineageSettings,
} from './openlineage/openlineage-settings.js';
import { GlossaryHierarchy } from './glossary-hierarchy.js';
import { EntityCreation } from './entity-creation.js';
import { EntityLookups } from './entity-lookups.js';
import { EntityPages } from './entity-pages.js';
import { EntityReads } from './entity-reads.js';
import { EntitySearch } from './entity-search.js';
import { EntityTimeline } from './entity-timeline.js';
import { EntityWrites } from './entity-writes.js';
import { IngestionSources } from './ingestion-sources.js';
import { LabelEdits } from './label-edits.js';
import { EntityPrivileges } from './entity-privileges.js';
import { AspectCounts } from './aspect-counts.js';
import { SystemInfo, type PropertyValue } from './system-info.js';
import { EdgeScrolls } from './edge-scrolls.js';
import { Lineage } from './lineage.js';
import { LineageEdits } from './lineage-edits.js';
import { EntityPatches } from './entity-patches.js';
import { LinkEdits } from './link-edits.js';
import { SecretAdmin } from './secret-admin.js';
import { WebhookAdmin, type WebhookSettings } from './webhook-admin.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import { ServiceAccounts } from './service-accounts.js';
import { SoftDeletion } from './soft-deletion.js';
import { Incidents } from './incidents.js';
import { Assertions } from './assertions.js';
import { FormAdmin } from './form-admin.js';
import { RoleAcceptance } from './role-acceptance.js';
import { Views } from './views.js';
import { HiddenLifecycleStages, LifecycleStages } from './lifecycle-stages.js';
import { MetadataEdits } from './metadata-edits.js';
import { MetadataTests } from './metadata-tests.js';
import { PolicyAdmin } from './policies.js';
import { Proposals } from './proposals.js';
import { Relationships } from './relationships.js';
import { StoredEntities } from './stored-entities.js';
import { EntityVersioning } from './entity-versioning.js';
import { StructuredPropertyAdmin } from './structured-property-admin.js';
import { TimeseriesReads } from './timeseries-reads.js';
import { UsageSummaries } from './usage-summaries.js';
import { TestEvaluation } from './test-evaluation.js';
import { ActorProfile } from './actor-profile.js';
import { Sessions } from './sessions.js';
import type { Logger } from '@catalog/runtime';
import { PipelineOperations, type PipelineOperationsDeps } from './pipeline-operations.js';
import { UserAdmin } from './users.js';
import { UserProfileEdits } from './user-profile-edits.js';
import { UserCredentials } from './user-credentials.js';
import { withStructuredPropertyChecks } from './structured-property-filter-check.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';

/** What the application layer is built over: the ports and the authorizer, chosen by the composition root. */
export interface CatalogApplicationDeps {
  readonly store: AspectStore;
  readonly auth: GatewayAuth;
  readonly submitter: ProposalSubmitter;
  readonly readModels: {
    readonly search: SearchIndex;
    readonly graph: GraphIndex;
    readonly timeseries: TimeseriesIndex;
  };
  /** Waits until the outcomes' change logs are indexed (read-your-writes). */
  readonly waitForIndex: (outcomes: readonly ProposalOutcome[]) => Promise<void>;
  readonly log: EventLog;
  readonly topics: TopicNames;
  readonly nativeUsers: NativeUserService;
  readonly audit: AuditIndex;
  readonly operations: PipelineOperationsDeps;
  /** The proposals persistence refused, for the write trace. */
  readonly failedWrites: FailedWrites;
  /** The change logs the indexer gave up on, for the write trace. */
  readonly failedIndexing: FailedWrites;
  readonly logger: Logger;
  /** What the system information reports: the version and the effective configuration. */
  /** The acryl-datahub release a manual ingestion run uses when its source names none. */
  readonly defaultCliVersion?: string;
  readonly systemInfo?: {
    readonly version: string;
    readonly configuration: Readonly<Record<string, PropertyValue>>;
  };
  /** DATAHUB_ANALYTICS_ENABLED: whether the analytics charts are served (default true). */
  readonly analyticsEnabled?: boolean;
  /** The DATAHUB_OPENLINEAGE_* settings (the ecosystem's defaults when absent). */
  readonly openLineage?: OpenLineageSettings;
  /** Which webhook destinations are allowed and testWebhook's deadline (private ones refused when absent). */
  readonly webhooks?: WebhookSettings;
  /**
   * The process's live tail of entity change events (the composition root owns and closes it); absent,
   * the application reads one of its own (started by the first subscriber).
   */
  readonly changeFeed?: ChangeEventFeed;
  /** What bounds live subscriptions; the defaults when absent. */
  readonly subscriptionLimits?: ChangeSubscriptionLimits;
}

const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = { allowPrivate: false, timeoutMs: 10_000 };

/**
 * The catalog's use cases, grouped by what a user does. Every interface (Rest.li, OpenAPI, GraphQL, and
 * those to come) calls these with the request's context; authorization and what the actor may see are
 * decided here, once, the same for every route.
 */
export interface CatalogApplication {
  /** Logging in and out; the native users' sign-up, credential checks and resets. */
  readonly sessions: Sessions;
  /** What the acting identity may do across the platform. */
  readonly me: ActorProfile;
  /** Entity reads: single, batch, and the pages of lists, scrolls and searches. */
  readonly entities: EntityReads;
  /** The Rest.li search actions: the type's search gate, then pages as the actor may see them. */
  readonly catalogSearch: CatalogSearch;
  /** Hard deletes of entities and removal of references to them. */
  readonly deletion: EntityDeletion;
  /** Restoring the indices from the store. */
  readonly restore: IndexRestore;
  /** Ingestion runs: list, describe, roll back. */
  readonly runs: IngestionRuns;
  /** Aspect writes as proposals on the log. */
  readonly proposals: Proposals;
  /** Minting, revoking, listing and reading personal access tokens. */
  readonly accessTokens: AccessTokens;
  /** Users' status, removal, groups and their members, role assignment; listing users, groups, roles. */
  readonly users: UserAdmin;
  /** Edits of a user's profile (corpUserEditableInfo): by the user, or who may edit that user. */
  readonly userProfiles: UserProfileEdits;
  /** Invite and password reset tokens of native users. */
  readonly userCredentials: UserCredentials;
  /** Access policies. */
  readonly policies: PolicyAdmin;
  /** Ingestion sources and their recipes. */
  readonly ingestionSources: IngestionSources;
  /** Tags, glossary terms and owners of entities and schema fields. */
  readonly labels: LabelEdits;
  /** Which edits of an entity the actor may make (what a client shows or hides). */
  readonly entityPrivileges: EntityPrivileges;
  /** Descriptions, names, deprecation and domains. */
  readonly metadataEdits: MetadataEdits;
  /** Links of entities (their institutional memory). */
  readonly linkEdits: LinkEdits;
  /** The generic patch mutations: any aspect patched as the write path patches it. */
  readonly entityPatches: EntityPatches;
  /** Secrets for ingestion recipes (MANAGE_SECRETS). */
  readonly secrets: SecretAdmin;
  /** Webhook subscriptions (MANAGE_GLOBAL_SETTINGS). */
  readonly webhooks: WebhookAdmin;
  /** What the webhook dispatcher reads and writes of the catalog (not an interface's: the dispatcher's). */
  readonly webhookDeliveries: WebhookDeliveries;
  /** Service accounts: users for programs (MANAGE_SERVICE_ACCOUNTS). */
  readonly serviceAccounts: ServiceAccounts;
  /** Views: saved filters, personal and global. */
  readonly views: Views;
  /** Soft deletion of assets by users. */
  readonly softDeletion: SoftDeletion;
  /** Incidents on assets and the assets' incident health. */
  readonly incidents: Incidents;
  /** Assertions on assets: custom assertions, their run results, an asset's assertions. */
  readonly assertions: Assertions;
  /** Documentation forms: creating them, assigning them to assets. */
  readonly forms: FormAdmin;
  /** Accepting a role with an invite token. */
  readonly roleAcceptance: RoleAcceptance;
  /** Creating tags, domains and glossary entities; deleting tags. */
  readonly entityCreation: EntityCreation;
  readonly glossaryHierarchy: GlossaryHierarchy;
  /** Structured property definitions and their values on assets. */
  readonly structuredProperties: StructuredPropertyAdmin;
  /** Metadata tests. */
  readonly metadataTests: MetadataTests;
  /** The operators' view of the pipeline: transport, consumer lag, dead letters, clean-up progress. */
  readonly operations: PipelineOperations;
  /** The API write throttle (`/openapi/operations/throttle`). */
  readonly throttle: ApiThrottle;
  /** The analytics page's highlight cards. */
  readonly analytics: AnalyticsHighlights;
  /** The analytics page's charts. */
  readonly analyticsCharts: AnalyticsCharts;
  /** Running metadata tests against entities. */
  readonly testEvaluation: TestEvaluation;
  /** Lists and scrolls of entities, unreadable ones left out. */
  readonly entityPages: EntityPages;
  /** Existence, numbered versions and per-item batch reads of entities. */
  readonly entityLookups: EntityLookups;
  /** The entity API's writes and deletes, and the read back of what was written. */
  readonly entityWrites: EntityWrites;
  /** Entities related to an entity, unreadable ones left out. */
  readonly relationships: Relationships;
  /** Time-series aspect values. */
  readonly timeseries: TimeseriesReads;
  /** The last 30 days of an entity's usage (statsSummary). */
  readonly usage: UsageSummaries;
  /** Entities' change history (timeline), computed from the aspects' stored versions. */
  readonly timeline: EntityTimeline;
  /** The audit event search. */
  readonly auditEvents: AuditSearch;
  /** The events poll: platform events and change logs after a position, under their privileges. */
  readonly eventsPoll: EventsPoll;
  /** Live subscriptions to entity change events (GraphQL over Server-Sent Events). */
  readonly changeSubscriptions: ChangeSubscriptions;
  /** One request's batched entity reads, as its actor may see them (GraphQL's per-request loader). */
  entityLoader(ctx: RequestContext, pacing?: ReadPacing): ActorEntityLoader;
  /** Searches, scrolls, aggregations and autocompletion. */
  readonly search: EntitySearch;
  /** Browsing by browse paths. */
  readonly browse: Browse;
  /** Relationships and lineage. */
  readonly lineage: Lineage;
  /** Lineage a user draws. */
  readonly lineageEdits: LineageEdits;
  /** The search documents as indexed, for operators. */
  readonly indexDocuments: IndexDocuments;
  /** Scrolls of the graph's edges: relationships and lineage edges. */
  readonly edgeScrolls: EdgeScrolls;
  /** Counts of stored aspects. */
  readonly aspectCounts: AspectCounts;
  /** The system information: components and configuration. */
  readonly systemInfo: SystemInfo;
  /** Documents of the knowledge base: creation, edits, hierarchy, change history. */
  readonly documents: Documents;
  /** Importing documents from files. */
  readonly documentImport: DocumentImport;
  /** Document searches, related documents, and the document filter of searches across types. */
  readonly documentSearch: DocumentSearch;
  /** Lifecycle stage types and the stage of an entity. */
  readonly lifecycleStages: LifecycleStages;
  /** Data products and the assets they hold. */
  readonly dataProducts: DataProducts;
  /** Deleting and moving domains. */
  readonly domains: DomainAdmin;
  /** Physical assets' logical parents. */
  readonly logicalParents: LogicalParents;
  /** Linking entities to version sets and unlinking them. */
  readonly versioning: EntityVersioning;
  /** What became of asynchronous writes, by trace id. */
  readonly writeTraces: WriteTraces;
  /** The entity registry's entity and aspect specifications. */
  readonly registryModels: RegistryModels;
  /** The web app's usage events, published for analytics. */
  readonly tracking: UsageTracking;
  /** OpenLineage events of lineage producers, written as data flows, jobs, runs and lineage. */
  readonly openLineage: OpenLineageIngest;
}

export function createCatalogApplication(deps: CatalogApplicationDeps): CatalogApplication {
  const policy = new AccessPolicy(deps.auth, deps.store);
  const entities = new EntityReads(deps.store, policy);
  const throttle = new ApiThrottle(policy);
  const proposals = new Proposals(deps.store, deps.submitter, policy, throttle);
  const stored = new StoredEntities(deps.store);
  // Searches naming structured properties are checked against the store first (spec 3.2, 7).
  const searchIndex = withStructuredPropertyChecks(deps.readModels.search, deps.store);
  const search = new EntitySearch(searchIndex, policy);
  const browse = new Browse(searchIndex, policy);
  const relationships = new Relationships(deps.readModels.graph, policy);
  const timeline = new EntityTimeline(deps.store, deps.readModels.search, policy);
  return {
    me: new ActorProfile(policy),
    sessions: new Sessions(deps.auth, deps.nativeUsers, deps.logger),
    catalogSearch: new CatalogSearch(search, browse, searchIndex, policy),
    entities,
    proposals,
    deletion: new EntityDeletion({
      store: deps.store,
      graph: deps.readModels.graph,
      search: deps.readModels.search,
      timeseries: deps.readModels.timeseries,
      proposals,
      policy,
      waitForIndex: deps.waitForIndex,
    }),
    restore: new IndexRestore(deps.store, deps.log, deps.topics.metadataChangeLogVersioned, policy),
    runs: new IngestionRuns(deps.store, policy, {
      store: deps.store,
      timeseries: deps.readModels.timeseries,
      submitter: deps.submitter,
      authorize: (ctx, urns) => proposals.authorizeRollback(ctx, urns),
      waitForIndex: deps.waitForIndex,
    }),
    accessTokens: new AccessTokens(deps.auth, stored, policy, proposals),
    users: new UserAdmin(deps.auth, search, stored, policy, proposals),
    userProfiles: new UserProfileEdits(stored, policy, proposals),
    userCredentials: new UserCredentials(deps.nativeUsers, policy),
    policies: new PolicyAdmin(deps.auth, stored, policy, proposals),
    ingestionSources: new IngestionSources(stored, policy, proposals, deps.readModels.search, {
      defaultCliVersion: deps.defaultCliVersion ?? PINNED_SDK_VERSION,
      waitForIndex: deps.waitForIndex,
    }),
    labels: new LabelEdits(stored, policy, proposals),
    entityPrivileges: new EntityPrivileges(policy),
    metadataEdits: new MetadataEdits(stored, policy, proposals),
    linkEdits: new LinkEdits(stored, policy, proposals),
    entityPatches: new EntityPatches(policy, proposals),
    secrets: new SecretAdmin(stored, policy, proposals, deps.auth.settings.secretEncryptionKey),
    webhooks: new WebhookAdmin(
      stored,
      policy,
      proposals,
      deps.auth.settings.secretEncryptionKey,
      deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS,
    ),
    webhookDeliveries: new WebhookDeliveries(
      stored,
      deps.store,
      policy,
      proposals,
      deps.auth.settings.secretEncryptionKey,
      deps.logger,
    ),
    serviceAccounts: new ServiceAccounts(stored, policy, proposals),
    views: new Views(stored, policy, proposals),
    softDeletion: new SoftDeletion(stored, policy, proposals),
    incidents: new Incidents(stored, policy, proposals, relationships),
    assertions: new Assertions(
      stored,
      policy,
      proposals,
      relationships,
      new TimeseriesReads(deps.readModels.timeseries, policy),
    ),
    forms: new FormAdmin(stored, policy, proposals),
    roleAcceptance: new RoleAcceptance(deps.auth, deps.nativeUsers, proposals),
    entityCreation: new EntityCreation(policy, proposals),
    glossaryHierarchy: new GlossaryHierarchy(deps.store, policy, proposals),
    structuredProperties: new StructuredPropertyAdmin(stored, policy, proposals),
    operations: new PipelineOperations(deps.operations, policy),
    throttle,
    testEvaluation: new TestEvaluation(deps.store, proposals, policy, deps.waitForIndex),
    metadataTests: new MetadataTests(deps.readModels.graph, stored, policy, proposals),
    entityPages: new EntityPages(searchIndex, policy, entities),
    entityLookups: new EntityLookups(deps.store, policy, entities),
    entityWrites: new EntityWrites(deps.store, deps.readModels.timeseries, policy, proposals),
    relationships,
    timeseries: new TimeseriesReads(deps.readModels.timeseries, policy),
    usage: new UsageSummaries(new TimeseriesReads(deps.readModels.timeseries, policy)),
    timeline,
    auditEvents: new AuditSearch(deps.audit, policy),
    eventsPoll: new EventsPoll(deps.log, deps.topics, policy, deps.logger),
    changeSubscriptions: new ChangeSubscriptions(
      deps.changeFeed ??
        new ChangeEventFeed({
          log: deps.log,
          topic: deps.topics.platformEvent,
          groupId: `gateway-change-stream-${randomUUID()}`,
          logger: deps.logger,
        }),
      policy,
      deps.subscriptionLimits,
    ),
    analytics: new AnalyticsHighlights(deps.readModels.search, deps.audit, policy),
    analyticsCharts: new AnalyticsCharts(
      deps.readModels.search,
      deps.audit,
      stored,
      policy,
      deps.analyticsEnabled ?? true,
    ),
    entityLoader: (ctx, pacing) => new ActorEntityLoader(deps.store, policy, ctx, pacing),
    search,
    browse,
    lineage: new Lineage(deps.readModels.graph, search, policy, deps.store),
    indexDocuments: new IndexDocuments(deps.readModels.search, policy),
    lineageEdits: new LineageEdits(stored, policy, proposals),
    edgeScrolls: new EdgeScrolls(deps.readModels.graph, policy),
    aspectCounts: new AspectCounts(deps.store, policy),
    systemInfo: new SystemInfo(
      {
        operations: deps.operations,
        version: deps.systemInfo?.version ?? '',
        configuration: deps.systemInfo?.configuration ?? {},
      },
      policy,
    ),
    documents: new Documents(stored, timeline, policy, proposals, deps.waitForIndex),
    documentImport: new DocumentImport(stored, policy, proposals, deps.waitForIndex),
    documentSearch: new DocumentSearch(search, stored, policy, new HiddenLifecycleStages(stored)),
    lifecycleStages: new LifecycleStages(stored, policy, proposals),
    dataProducts: new DataProducts(stored, deps.readModels.graph, policy, proposals, deps.waitForIndex),
    domains: new DomainAdmin(stored, deps.readModels.search, policy, proposals),
    logicalParents: new LogicalParents(policy, proposals),
    versioning: new EntityVersioning(stored, deps.readModels.search, policy, proposals, deps.waitForIndex),
    writeTraces: new WriteTraces(
      {
        store: deps.store,
        log: deps.log,
        topics: deps.topics,
        groups: deps.operations.groups,
        failures: deps.failedWrites,
        indexFailures: deps.failedIndexing,
        refresh: async () => {
          await Promise.all([
            deps.readModels.search.refresh(),
            deps.readModels.graph.refresh(),
            deps.readModels.timeseries.refresh(),
          ]);
        },
      },
      policy,
    ),
    registryModels: new RegistryModels(policy),
    tracking: new UsageTracking(deps.log, deps.topics.dataHubUsageEvent),
    openLineage: new OpenLineageIngest(proposals, deps.openLineage ?? DEFAULT_OPENLINEAGE_SETTINGS),
  };
}
