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

/** A field whose values group audit events in counts. */
export type AuditCountField = 'eventType' | 'actorUrn' | 'entityType' | 'aspectName';

/** A UTC calendar interval events are grouped by: days, weeks starting on Monday, months. */
export type AuditInterval = 'DAY' | 'WEEK' | 'MONTH';

/** What to count of the events in a window (an aggregation of the index, as the analytics charts need). */
export interface AuditCountQuery {
  /** Inclusive, ms. */
  readonly startTime: number;
  /** Exclusive, ms. */
  readonly endTime: number;
  /** Only events of these types; empty or absent: any. */
  readonly eventTypes?: readonly string[];
  /** Events of these actors are left out. */
  readonly excludeActorUrns?: readonly string[];
  /** Groups the events by the interval their timestamp falls in, keyed by its first ms. */
  readonly interval?: AuditInterval;
  /** Groups the events by these fields' values too (at most three, each once). */
  readonly groupBy?: readonly AuditCountField[];
  /** What a group counts: its events (absent), or the distinct actors among them. */
  readonly distinct?: 'actorUrn';
}

/** One group of a count: its interval and values, and how many events (or distinct actors) it holds. */
export interface AuditCount {
  /** The first ms of the group's interval; set when the query has an interval. */
  readonly intervalStart?: number;
  /** The group's values of the query's groupBy fields, in its order; null where the events have none. */
  readonly values: readonly (string | null)[];
  readonly count: number;
}

export interface AuditIndex {
  /** Creates what it needs (idempotent). */
  ensure(): Promise<void>;
  /** Idempotent per id (upsert). */
  write(events: readonly AuditEvent[]): Promise<void>;
  /** Newest first: timestamp desc, then id desc. */
  search(query: AuditQuery): Promise<AuditPage>;
  /**
   * Counts the events of the window by group: every group holding an event, none other, exact.
   * Ordered by interval ascending, then count descending, then values ascending (null first).
   */
  count(query: AuditCountQuery): Promise<readonly AuditCount[]>;
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
