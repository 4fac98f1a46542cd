/** The topics of the pipeline, by role. Each can be renamed by configuration (the ecosystem's `*_TOPIC_NAME`). */
export interface TopicNames {
  readonly metadataChangeProposal: string;
  readonly failedMetadataChangeProposal: string;
  readonly metadataChangeLogVersioned: string;
  readonly metadataChangeLogTimeseries: string;
  readonly platformEvent: string;
  readonly upgradeHistory: string;
  /** Usage events of the web app (the tracking endpoint's): JSON values keyed by the actor. */
  readonly dataHubUsageEvent: string;
  /** Results of proposals for the gateway's synchronous writes (ours; the ecosystem has no such topic). */
  readonly proposalOutcome: string;
  /** Schemas registered with our schema registry by other producers (ours; one partition, kept forever). */
  readonly schemaRegistry: string;
}

/** The names the ecosystem uses, so its Kafka emitters and consumers work unchanged. */
export const defaultTopicNames: TopicNames = Object.freeze({
  metadataChangeProposal: 'MetadataChangeProposal_v1',
  failedMetadataChangeProposal: 'FailedMetadataChangeProposal_v1',
  metadataChangeLogVersioned: 'MetadataChangeLog_Versioned_v1',
  metadataChangeLogTimeseries: 'MetadataChangeLog_Timeseries_v1',
  platformEvent: 'PlatformEvent_v1',
  upgradeHistory: 'DataHubUpgradeHistory_v1',
  dataHubUsageEvent: 'DataHubUsageEvent_v1',
  proposalOutcome: 'MetadataChangeProposalOutcome_v1',
  schemaRegistry: 'CatalogSchemas_v1',
});
