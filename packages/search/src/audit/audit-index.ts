/**
 * The audit index: audit events (logins, entity changes) kept per UTC day for the audit search endpoint,
 * read newest first with keyset paging.
 */
export interface AuditEvent {
  /** Deterministic id (the consumer derives it from the source record): writing it twice stores it once. */
  readonly id: string;
  /** e.g. LogInEvent, UpdateAspectEvent. */
  readonly eventType: string;
  /** ms. */
  readonly timestamp: number;
  readonly actorUrn: string;
  readonly entityUrn?: string;
  readonly entityType?: string;
  readonly aspectName?: string;
  readonly sourceIP?: string;
  readonly userAgent?: string;
  readonly eventSource?: string;
  readonly telemetryTraceId?: string;
  readonly loginSource?: string;
  readonly loginDenialReason?: string;
  /** The source record as JSON (what the response's rawUsageEvent shows). */
  readonly rawUsageEvent: Readonly<Record<string, unknown>>;
}

export interface AuditCursor {
  readonly timestamp: number;
  readonly id: string;
}

export interface AuditQuery {
  /** Inclusive, ms. */
  readonly startTime: number;
  /** Exclusive, ms. */
  readonly endTime: number;
  readonly size: number;
  /** Keyset: strictly after this (timestamp desc, id desc). */
  readonly after?: AuditCursor;
  /** Empty/absent = no filter; AND across fields, OR within one. */
  readonly eventTypes?: readonly string[];
  readonly entityTypes?: readonly string[];
  readonly aspectTypes?: readonly string[];
  readonly actorUrns?: readonly string[];
}

export interface AuditPage {
  readonly events: readonly AuditEvent[];
  /** matches of the query ignoring `after`, counted up to 10,000 */
  readonly total: number;
  /** set only when more events remain after this page */
  readonly next?: AuditCursor;
}

export interface AuditIndex {
  /** Creates what it needs (idempotent). */
  ensure(): Promise<void>;
  /** Idempotent per id (upsert). */
  write(events: readonly AuditEvent[]): Promise<void>;
  /** Newest first: timestamp desc, then id desc. */
  search(query: AuditQuery): Promise<AuditPage>;
  /** Makes written events searchable (OpenSearch refresh; no-op embedded). */
  refresh(): Promise<void>;
  /**
   * Resolves when the search engine holding the audit events answers a trivial request, rejects when it cannot be reached (or once
   * closed). Cheap: readiness probes call it.
   */
  ping(): Promise<void>;

  /**
   * Removes events older than the retention (days) the adapter was opened with; must be cheap: drop
   * whole time partitions (embedded: one table per UTC day, dropped; OpenSearch: one index per UTC day
   * `<prefix>_datahub_usage_event_<yyyy.mm.dd>` behind an alias or pattern, deleted), never a scan of
   * rows. Returns how many partitions it dropped.
   */
  applyRetention(now?: number): Promise<number>;
  close(): Promise<void>;
}

export const AUDIT_TOTAL_CAP = 10_000;
