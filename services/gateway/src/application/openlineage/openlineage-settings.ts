/** The environments (fabric types) a dataset urn may name, as the ecosystem's FabricType lists them. */
export const FABRIC_TYPES = [
  'PROD',
  'DEV',
  'TEST',
  'QA',
  'UAT',
  'EI',
  'PRE',
  'STG',
  'NON_PROD',
  'CORP',
  'RVW',
  'PRD',
  'TST',
  'SIT',
  'SBX',
  'SANDBOX',
  'CERT',
] as const;

export type FabricType = (typeof FABRIC_TYPES)[number];

/**
 * How OpenLineage events become metadata: the ecosystem's `DATAHUB_OPENLINEAGE_*` settings, read once by
 * the gateway's configuration.
 */
export interface OpenLineageSettings {
  /** DATAHUB_OPENLINEAGE_ENV: datasets' environment and (lower-cased) the data flows' cluster. */
  readonly env?: FabricType;
  /** DATAHUB_OPENLINEAGE_ORCHESTRATOR: the data flows' platform, before anything the event says. */
  readonly orchestrator?: string;
  /** DATAHUB_OPENLINEAGE_PIPELINE_NAME: every data flow's name, instead of the job name's first part. */
  readonly pipelineName?: string;
  /** DATAHUB_OPENLINEAGE_PLATFORM_INSTANCE: the data flows' cluster and platform instance. */
  readonly platformInstance?: string;
  /** DATAHUB_OPENLINEAGE_COMMON_DATASET_ENV: datasets' environment, instead of DATAHUB_OPENLINEAGE_ENV. */
  readonly commonDatasetEnv?: FabricType;
  /** DATAHUB_OPENLINEAGE_COMMON_DATASET_PLATFORM_INSTANCE: prefixed to every dataset's name. */
  readonly commonDatasetPlatformInstance?: string;
  /**
   * DATAHUB_OPENLINEAGE_PLATFORM: the platform named where an event names none (a job whose orchestrator
   * cannot be told, a dataset whose namespace gives no platform); `unknown` when unset.
   */
  readonly platform?: string;
  /** DATAHUB_OPENLINEAGE_MATERIALIZE_DATASET: write the datasets an event names (key and status). */
  readonly materializeDataset: boolean;
  /** DATAHUB_OPENLINEAGE_INCLUDE_SCHEMA_METADATA: write a dataset's schema from its schema facet. */
  readonly includeSchemaMetadata: boolean;
  /** DATAHUB_OPENLINEAGE_CAPTURE_COLUMN_LEVEL_LINEAGE: map column lineage facets to fine-grained lineage. */
  readonly captureColumnLevelLineage: boolean;
  /** DATAHUB_OPENLINEAGE_USE_PATCH: add a job's edges with patches instead of replacing them. */
  readonly usePatch: boolean;
  /** DATAHUB_OPENLINEAGE_FILE_PARTITION_REGEXP_PATTERN: a path's trailing partition, cut from file datasets. */
  readonly filePartitionPattern?: string;
}

export const DEFAULT_OPENLINEAGE_SETTINGS: OpenLineageSettings = {
  materializeDataset: true,
  includeSchemaMetadata: true,
  captureColumnLevelLineage: true,
  usePatch: false,
};
