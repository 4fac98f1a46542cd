/**
 * The events as JavaScript objects. Optional Avro fields (`["null", T]`) are optional properties here:
 * absent on decode, and omitted fields take the schema default on encode.
 */

export const changeTypes = [
  'UPSERT',
  'CREATE',
  'UPDATE',
  'DELETE',
  'PATCH',
  'RESTATE',
  'CREATE_ENTITY',
] as const;
export type ChangeType = (typeof changeTypes)[number];

/** An aspect serialized as bytes: `value` is the aspect's JSON text for "application/json". */
export interface GenericAspect {
  readonly value: Buffer;
  /** "application/json", or "application/json-patch+json" for PATCH. */
  readonly contentType: string;
}

/** The platform event payload has the same shape as a generic aspect (GenericPayload on the wire). */
export type GenericPayload = GenericAspect;

export interface AuditStamp {
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly actor: string;
  readonly impersonator?: string;
  readonly message?: string;
}

export interface SystemMetadata {
  /** Defaults to 0 on the wire. */
  readonly lastObserved?: number;
  /** Defaults to "no-run-id-provided" on the wire. */
  readonly runId?: string;
  /** Defaults to "no-run-id-provided" on the wire. */
  readonly lastRunId?: string;
  readonly pipelineName?: string;
  readonly registryName?: string;
  readonly registryVersion?: string;
  readonly properties?: Readonly<Record<string, string>>;
  readonly version?: string;
  readonly schemaVersion?: number;
  readonly aspectCreated?: AuditStamp;
  readonly aspectModified?: AuditStamp;
}

/** Unused by the open-source ecosystem; carried so records that have one survive a round trip. */
export interface KafkaAuditHeader {
  readonly time: number;
  readonly server: string;
  readonly instance?: string;
  readonly appName: string;
  /** 16 bytes. */
  readonly messageId: Buffer;
  readonly auditVersion?: number;
  readonly fabricUrn?: string;
  readonly clusterConnectionString?: string;
}

export interface MetadataChangeProposal {
  readonly auditHeader?: KafkaAuditHeader;
  readonly entityType: string;
  readonly entityUrn?: string;
  readonly entityKeyAspect?: GenericAspect;
  readonly changeType: ChangeType;
  readonly aspectName?: string;
  readonly aspect?: GenericAspect;
  readonly systemMetadata?: SystemMetadata;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface MetadataChangeLog extends MetadataChangeProposal {
  readonly previousAspectValue?: GenericAspect;
  readonly previousSystemMetadata?: SystemMetadata;
  readonly created?: AuditStamp;
}

export interface FailedMetadataChangeProposal {
  readonly auditHeader?: KafkaAuditHeader;
  readonly metadataChangeProposal: MetadataChangeProposal;
  readonly error: string;
}

export interface PlatformEventHeader {
  readonly timestampMillis: number;
}

export interface PlatformEvent {
  readonly header: PlatformEventHeader;
  /** e.g. "entityChangeEvent". */
  readonly name: string;
  readonly payload: GenericPayload;
}

export interface DataHubUpgradeHistoryEvent {
  readonly version: string;
  readonly systemMetadata?: SystemMetadata;
}
