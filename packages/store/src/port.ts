/**
 * The aspect store port: the primary copy of versioned aspects. Version 0 is always the latest value;
 * when a new value differs from version 0 the old value moves to max+1, atomically.
 * The MongoDB adapter and the embedded adapter both satisfy the contract suite in @catalog/testkit.
 */

export interface AuditStamp {
  readonly time: number;
  readonly actor: string;
  readonly impersonator?: string;
  readonly message?: string;
}

/** The ecosystem's SystemMetadata record, as JSON. */
export interface SystemMetadata {
  readonly lastObserved?: number;
  readonly runId?: string;
  readonly lastRunId?: string;
  readonly pipelineName?: string;
  readonly registryName?: string;
  readonly registryVersion?: string;
  readonly properties?: Readonly<Record<string, string>>;
  /**
   * The aspect's version number, as a string: "1" for its first value, one more for each new value.
   * The stores set it (with aspectCreated and aspectModified) on every value they store as version 0.
   */
  readonly version?: string;
  /** The audit stamp of the aspect's first version. */
  readonly aspectCreated?: AuditStamp;
  /** The audit stamp of the write that made the current version. */
  readonly aspectModified?: AuditStamp;
  readonly [extra: string]: unknown;
}

export interface StoredAspect {
  readonly urn: string;
  readonly aspect: string;
  readonly version: number;
  readonly value: Readonly<Record<string, unknown>>;
  readonly systemMetadata: SystemMetadata | null;
  readonly created: AuditStamp;
}

/** What a patch learns about the stored aspect besides its value, for conditional writes. */
export interface StoredState {
  /** How many versions the aspect has had: 1 after its first write, 0 when it is absent. */
  readonly versions: number;
  /** When version 0 was written (its audit stamp), ms since the epoch; undefined when absent. */
  readonly modifiedAt: number | undefined;
  /**
   * The `version` of version 0's stored system metadata; undefined when the aspect is absent or was
   * stored without one (before the stores kept it: its version is then the count, `versions`).
   */
  readonly version: string | undefined;
}

/**
 * How many earlier values of an aspect to keep: the ecosystem's Retention record
 * (`dataHubRetentionConfig.retention`), as resolved for the write's entity type and aspect.
 * Version 0 (the latest) is never removed.
 */
export interface AspectRetention {
  /**
   * Keep the newest `maxVersions` history rows (version 0 besides); 1 or less keeps none, as the
   * ecosystem makes no history row for such an aspect.
   */
  readonly version?: { readonly maxVersions: number };
  /**
   * Keep the history rows written (their audit stamp) less than `maxAgeInSeconds` before the write.
   * With `version` too, a row goes only when both would remove it (the ecosystem's one DELETE ANDs them).
   */
  readonly time?: { readonly maxAgeInSeconds: number };
}

/**
 * An aspect a write stores besides its own (the entity's key aspect, an entity default), with the
 * write's system metadata but for `schemaVersion`: its own here, or none.
 */
export interface SideAspect {
  readonly name: string;
  readonly value: Readonly<Record<string, unknown>>;
  /** The aspect's schema version, recorded as its systemMetadata.schemaVersion. */
  readonly schemaVersion?: number;
}

export type AspectWriteMode =
  /** Store the value as version 0 (new version if it differs, lastObserved update if identical). */
  | 'UPSERT'
  /** Like UPSERT, but rejected (CONFLICT) when the aspect already exists. */
  | 'CREATE'
  /** Remove the aspect, all its versions. NOT_FOUND when it does not exist. */
  | 'DELETE'
  /** Remove every aspect of the entity (the key-aspect delete). NOT_FOUND when the entity has none. */
  | 'DELETE_ENTITY';

export interface AspectWrite {
  /** Idempotency key: a write whose request id was applied before returns the recorded result. */
  readonly requestId: string;
  readonly mode: AspectWriteMode;
  readonly urn: string;
  readonly aspect: string;
  /** Required for UPSERT and CREATE, unless `patch` gives it. */
  readonly value?: Readonly<Record<string, unknown>>;
  /**
   * A patch: the new value computed from version 0 (undefined when there is none) inside the atomic
   * write, so patches of one aspect compose in order, concurrent writers lose nothing (the adapter
   * recomputes after a lost race) and a redelivered patch is found by its request id. A DomainError
   * it throws rejects the write with status INVALID; nothing is stored.
   */
  readonly patch?: (
    current: Readonly<Record<string, unknown>> | undefined,
    stored: StoredState,
  ) => Readonly<Record<string, unknown>>;
  readonly systemMetadata?: SystemMetadata | null;
  readonly created: AuditStamp;
  /**
   * The entity's key aspect (derived from the URN). For UPSERT and CREATE, when the entity has no key
   * aspect stored yet it is stored too, in the same atomic step, and reported in `keyCreated`.
   */
  readonly keyAspect?: SideAspect;
  /**
   * The aspects a new entity gets (the ecosystem's defaults, such as browsePathsV2). For UPSERT and
   * CREATE with a `keyAspect`: when this write creates the entity (stores its key aspect, or is a
   * CREATED write of the key aspect itself), each of these the entity does not have yet is stored too,
   * in the same atomic step, and reported in `defaultsCreated`; one it has already is left alone.
   */
  readonly entityDefaults?: readonly SideAspect[];
  /**
   * The retention of the aspect's history. For UPSERT and CREATE: when the write makes a new version
   * (status UPDATED), the history rows it rules out are removed in the same atomic step. Absent, every
   * version is kept.
   */
  readonly retention?: AspectRetention;
}

export type ApplyStatus =
  | 'CREATED'
  | 'UPDATED'
  | 'UNCHANGED'
  | 'DELETED'
  | 'CONFLICT'
  | 'NOT_FOUND'
  /** The patch refused the value it would make (see `rejection`). */
  | 'INVALID';

export interface ApplyResult {
  readonly requestId: string;
  readonly status: ApplyStatus;
  /** The value that was version 0 before this write (absent when there was none). */
  readonly previous?: StoredAspect;
  /** Version 0 after this write (absent after a delete or a rejected write). */
  readonly current?: StoredAspect;
  /** The key aspect this write stored because the entity had none. */
  readonly keyCreated?: StoredAspect;
  /** The `entityDefaults` this write stored because it created the entity. */
  readonly defaultsCreated?: readonly StoredAspect[];
  /** For DELETE_ENTITY: every aspect (version 0) that was removed. */
  readonly removed?: readonly StoredAspect[];
  /** True when the request id had been applied before and this is the recorded result. */
  readonly replayed: boolean;
  /** Why an INVALID write was refused: the domain error's code and message. */
  readonly rejection?: { readonly code: string; readonly message: string };
}

export interface ScanOptions {
  /** Only this entity. */
  readonly urn?: string;
  /** Only this aspect name. */
  readonly aspect?: string;
  /**
   * SQL LIKE pattern over URNs (`%` any run, `_` one character, `\` makes the next character literal),
   * matched case-sensitively, as URNs are compared everywhere else.
   */
  readonly urnLike?: string;
  /** Row number to start from, in scan order (offset paging, as restoreIndices' `start`). */
  readonly start?: number;
  /** Continue after this cursor (keyset paging, for full scans); exclusive with `start`. */
  readonly after?: string;
  readonly limit: number;
}

export interface ScanPage {
  /** Version-0 aspects in stable order: by urn, then aspect name. */
  readonly items: readonly StoredAspect[];
  /** Cursor to pass as `after` for the next page; absent at the end. */
  readonly next?: string;
}

/** Which latest rows of one ingestion run to read (see AspectStore.findRunRows). */
export interface RunRowsOptions {
  /** The run: version-0 rows whose systemMetadata.runId is this (none stored counts as DEFAULT_RUN_ID). */
  readonly runId: string;
  /** Rows to skip, in (urn, aspect) order. */
  readonly start?: number;
  readonly limit: number;
}

/** One ingestion run as the latest rows record it (see AspectStore.listRuns). */
export interface RunSummary {
  readonly runId: string;
  /** Version-0 rows whose runId is this run. */
  readonly rows: number;
  /** The newest lastObserved among those rows (their write time when they have none). */
  readonly lastObserved: number;
}

export interface AspectStore {
  /**
   * Applies writes in order. Each write is atomic on its own; a redelivered request id returns its
   * recorded result (`replayed: true`) and changes nothing.
   */
  applyBatch(writes: readonly AspectWrite[]): Promise<readonly ApplyResult[]>;
  /** One version of one aspect (0 = latest); null when absent. */
  get(urn: string, aspect: string, version?: number): Promise<StoredAspect | null>;
  /** Version 0 of the entity's aspects (all, or the names given), ordered by aspect name. */
  getLatest(urn: string, aspects?: readonly string[]): Promise<readonly StoredAspect[]>;
  /** getLatest for many entities at once; entities with no aspects are absent from the map. */
  getLatestMany(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<ReadonlyMap<string, readonly StoredAspect[]>>;
  /**
   * Which of `urns` have any version-0 aspect: getLatestMany's keys without reading a value, for a
   * caller that only asks whether an entity is stored (a restore looking for orphaned documents).
   */
  existingUrns(urns: readonly string[]): Promise<ReadonlySet<string>>;
  /** Every stored version of one aspect, newest first (version 0 first). */
  listVersions(urn: string, aspect: string): Promise<readonly StoredAspect[]>;
  /** Stable scan of version-0 aspects, for restoring indices. */
  scan(options: ScanOptions): Promise<ScanPage>;
  /** Number of version-0 aspects matching the filter (aspect name, urnLike). */
  count(options?: Pick<ScanOptions, 'aspect' | 'urnLike'>): Promise<number>;
  /**
   * Version-0 aspects whose systemMetadata.runId is `runId` (the rows an ingestion run wrote last), by
   * urn then aspect name, from an index on the run id (never a scan of every row).
   */
  findRunRows(options: RunRowsOptions): Promise<readonly StoredAspect[]>;
  /**
   * The runs that version-0 aspects carry, newest lastObserved first (then by run id), paged; a row
   * stored without a runId counts under DEFAULT_RUN_ID.
   */
  listRuns(options: { readonly start?: number; readonly limit: number }): Promise<readonly RunSummary[]>;
  /**
   * An upgrade step for adapters that copy the run fields out of the system metadata when a row is
   * written (MongoDB): gives every row stored before they were kept its runId and lastObserved, as
   * the write path sets them, so findRunRows and listRuns see it. Idempotent (rows that have them are
   * left alone); resolves with how many rows it updated. Absent on adapters that read the run fields
   * from the stored system metadata itself (SQLite's run index is on expressions over it).
   */
  backfillRunFields?(options?: { readonly batchSize?: number }): Promise<number>;
  /**
   * Forgets recorded request ids outside the dedup window (the adapter's requestRetentionMs) and beyond
   * its row bound (maxRequestRows, oldest first), in bounded steps; a later write with a forgotten id is
   * applied as new. Adapters also run it in the background; resolves with how many ids were forgotten.
   */
  pruneRequests(): Promise<number>;
  /**
   * Resolves when the store answers a trivial request, rejects when it cannot be reached (or once
   * closed). Cheap: readiness probes call it.
   */
  ping(): Promise<void>;
  /**
   * What the store has done since it opened, for profiles and the consumers' `/stats` (stores with a
   * server to talk to): batches applied, writes in them, rounds, and the commands sent per name.
   */
  workStats?(): StoreWorkStats;
  close(): Promise<void>;
}

/** Per command name: how many were sent, their round-trip milliseconds, the documents moved, failures. */
export interface CommandTotals {
  readonly count: number;
  readonly ms: number;
  readonly documents: number;
  readonly failed: number;
}

/** Counters of a store's work since it opened (see AspectStore.workStats). */
export interface StoreWorkStats {
  readonly batches: number;
  readonly writes: number;
  /** Rounds of independent writes the batches took (a write that lost a race adds one). */
  readonly rounds: number;
  readonly commands: Readonly<Record<string, CommandTotals>>;
}
