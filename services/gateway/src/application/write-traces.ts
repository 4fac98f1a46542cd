import type { RequestContext } from '@catalog/auth';
import { partitionForKey, type EventLog, type PartitionLag, type TopicNames } from '@catalog/events';
import {
  entityRegistry,
  ForbiddenError,
  parseUrn,
  ValidationError,
  type AspectSpec,
  type EntitySpec,
} from '@catalog/model';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import type { ConsumerGroups } from './consumer-lag.js';

/** The ecosystem's TraceWriteStatus. */
export type TraceWriteStatus =
  'ERROR' | 'PENDING' | 'ACTIVE_STATE' | 'HISTORIC_STATE' | 'NO_OP' | 'UNKNOWN' | 'TRACE_NOT_IMPLEMENTED';

/** The ecosystem's TraceStorageStatus: absent members are left out of the JSON. */
export interface TraceStorageStatus {
  readonly writeStatus: TraceWriteStatus;
  readonly writeMessage?: string;
  readonly writeExceptions?: readonly { readonly message: string }[];
}

/** The ecosystem's TraceStatus of one aspect of one urn. */
export interface TraceStatus {
  readonly success: boolean;
  readonly primaryStorage: TraceStorageStatus;
  readonly searchStorage: TraceStorageStatus;
}

/** A proposal persistence refused, as the failed-proposal topic holds it. */
export interface FailedWrite {
  readonly traceId: string;
  readonly urn: string;
  readonly aspectName: string;
  readonly error: string;
}

/** Failed writes (refused proposals, dead-lettered change logs) by trace id, urn and aspect (FailedWriteLog reads them off the log). */
export interface FailedWrites {
  find(traceId: string, urn: string, aspectName: string): FailedWrite | undefined;
  /** Resolves true once every failure on the log when asked is read (false when not within the time). */
  caughtUp(timeoutMs: number): Promise<boolean>;
}

export interface WriteTraceQuery {
  /** A trace id (32 hex digits) or a whole W3C traceparent. */
  readonly traceId: string;
  /** The body: urn → aspect names. */
  readonly aspects: unknown;
  readonly onlyIncludeErrors: boolean;
  readonly detailed: boolean;
}

export interface WriteTracesDeps {
  readonly store: AspectStore;
  readonly log: EventLog;
  readonly topics: TopicNames;
  readonly groups: Pick<ConsumerGroups, 'persistence' | 'indexer'>;
  readonly failures: FailedWrites;
  /** The change logs the indexer gave up on (its dead letters): written, but never searchable. */
  readonly indexFailures: FailedWrites;
  /** Makes what the indexer wrote visible to searches (OpenSearch refresh; a no-op embedded). */
  readonly refresh: () => Promise<void>;
  /** How long one trace request waits for a consumer to pass the records it asks about (default 2 s). */
  readonly waitMs?: number;
  readonly pollMs?: number;
}

const PENDING_PRIMARY = 'Pending primary storage write.';
const NOT_PROCESSED = 'Consumer has not processed offset.';
const PROCESSED_PAST = 'Consumer has processed past the offset.';
const PRIMARY_FAILED = 'Primary storage write failed.';
const TRACE_PROPERTY = 'telemetryTraceId';
const TRACE_ID = /^[0-9a-f]{32}$/;
/** Trace ids encode their time from 2020 on; an earlier (or far future) prefix is not a time. */
const MIN_TRACE_TIME = 1_577_836_800_000;
const MAX_CLOCK_SKEW = 86_400_000;

/**
 * The write trace (`POST /openapi/v1/trace/write/{traceId}`): what became of the asynchronous writes
 * made under one trace id (every write of a request carries the request's trace id in its system
 * metadata), per urn and aspect, in the primary store and in search, as the ecosystem's
 * TraceService answers: ACTIVE_STATE when the stored version is the traced write's, HISTORIC_STATE when
 * a later write replaced it, NO_OP when it wrote what was there already (time-series values are not
 * traced in search), ERROR with persistence's reason when it was refused, PENDING while its proposal
 * (or, for search, its change log) is still on the log. The caller must be allowed to read every urn.
 */
export class WriteTraces {
  constructor(
    private readonly deps: WriteTracesDeps,
    private readonly policy: AccessPolicy,
  ) {}

  async trace(
    ctx: RequestContext,
    query: WriteTraceQuery,
  ): Promise<Record<string, Record<string, TraceStatus>>> {
    const traceId = traceIdOf(query.traceId);
    const requested = requestedAspects(query.aspects);
    const urns = [...requested.keys()];
    const readable = await this.policy.readable(ctx, urns);
    if (readable.length < urns.length)
      throw new ForbiddenError(
        `${ctx.authentication.actorUrn} is unauthorized to READ at least one of the requested URNs.`,
      );
    const traceTime = timeOfTraceId(traceId);
    // Persistence must pass every proposal on the urns' partitions as they are now (the traced ones were
    // produced before this request) before a write found nowhere is taken as processed.
    const processed = await this.passed(
      this.deps.groups.persistence,
      this.deps.topics.metadataChangeProposal,
      urns,
    );
    const failuresRead = await this.deps.failures.caughtUp(this.waitMs());
    const versioned = urns.flatMap((urn) =>
      requested
        .get(urn)!
        .filter((a) => a.kind !== 'timeseries')
        .map(() => urn),
    );
    const stored =
      versioned.length === 0
        ? new Map<string, readonly StoredAspect[]>()
        : await this.deps.store.getLatestMany(
            [...new Set(versioned)],
            [...new Set(urns.flatMap((u) => requested.get(u)!.map((a) => a.name)))],
          );
    const answer: Record<string, Record<string, TraceStatus>> = {};
    let indexed: Promise<ReadonlySet<string>> | undefined;
    for (const urn of urns) {
      const rows = new Map((stored.get(urn) ?? []).map((row) => [row.aspect, row]));
      const statuses: Record<string, TraceStatus> = {};
      for (const aspect of requested.get(urn)!) {
        const failure = this.deps.failures.find(traceId, urn, aspect.name);
        const primary = primaryStatus({
          aspect,
          row: rows.get(aspect.name),
          traceId,
          traceTime,
          failure,
          detailed: query.detailed,
          processed: processed.has(urn) && failuresRead,
        });
        let search: TraceStorageStatus;
        if (primary.writeStatus === 'ACTIVE_STATE') {
          indexed ??= this.indexed(urns.filter((u) => processed.has(u)));
          const dropped = (await indexed).has(urn)
            ? this.deps.indexFailures.find(traceId, urn, aspect.name)
            : undefined;
          search = !(await indexed).has(urn)
            ? { writeStatus: 'PENDING', writeMessage: NOT_PROCESSED }
            : dropped === undefined
              ? { writeStatus: 'ACTIVE_STATE' }
              : { writeStatus: 'ERROR', writeMessage: dropped.error };
        } else search = searchStatusOf(primary, aspect);
        const success = primary.writeStatus !== 'ERROR' && search.writeStatus !== 'ERROR';
        if (query.onlyIncludeErrors && success) continue;
        statuses[aspect.name] = { success, primaryStorage: primary, searchStorage: search };
      }
      if (Object.keys(statuses).length > 0) answer[urn] = statuses;
    }
    return answer;
  }

  /**
   * The urns whose change logs (as on the log now) the indexer has applied, made visible to searches:
   * ACTIVE_STATE in search means a search finds the write.
   */
  private async indexed(urns: readonly string[]): Promise<ReadonlySet<string>> {
    const passed = await this.passed(
      this.deps.groups.indexer,
      this.deps.topics.metadataChangeLogVersioned,
      urns,
    );
    if (passed.size > 0) {
      // What the indexer set aside is on its dead-letter topic before it moves past it.
      await Promise.all([this.deps.refresh(), this.deps.indexFailures.caughtUp(this.waitMs())]);
    }
    return passed;
  }

  private waitMs(): number {
    return this.deps.waitMs ?? 2_000;
  }

  /**
   * The urns whose partition of `topic` the group has read up to the end the partition has now: all it
   * holds for them now is processed (waited for a while; those not passed in time are left out).
   */
  private async passed(group: string, topic: string, urns: readonly string[]): Promise<ReadonlySet<string>> {
    if (urns.length === 0) return new Set();
    const at = await this.deps.log.lag(group, topic);
    if (at.length === 0) return new Set();
    const partitionOf = (urn: string) => partitionForKey(urn, at.length);
    const ends = new Map(at.map((p) => [p.partition, BigInt(p.endOffset)]));
    const deadline = Date.now() + this.waitMs();
    let lag: readonly PartitionLag[] = at;
    for (;;) {
      const committed = new Map(lag.map((p) => [p.partition, BigInt(p.offset)]));
      const done = (urn: string) => {
        const partition = partitionOf(urn);
        const end = ends.get(partition) ?? 0n;
        // An empty partition holds nothing to process (a group that never read one has no offset).
        return end === 0n || (committed.get(partition) ?? -1n) >= end;
      };
      if (urns.every(done) || Date.now() >= deadline) return new Set(urns.filter(done));
      await new Promise((resolve) => setTimeout(resolve, this.deps.pollMs ?? 25));
      lag = await this.deps.log.lag(group, topic);
    }
  }
}

/** The status of the traced write of one aspect in the primary store. */
function primaryStatus(input: {
  readonly aspect: AspectSpec;
  readonly row: StoredAspect | undefined;
  readonly traceId: string;
  readonly traceTime: number | undefined;
  readonly failure: FailedWrite | undefined;
  readonly detailed: boolean;
  readonly processed: boolean;
}): TraceStorageStatus {
  const { row, traceId, traceTime, failure } = input;
  if (failure !== undefined) return failed(failure, input.detailed);
  // Time-series values are not kept in the store: nothing there to compare with.
  if (input.aspect.kind === 'timeseries') return { writeStatus: 'NO_OP' };
  if (row !== undefined) {
    const storedTrace = row.systemMetadata?.properties?.[TRACE_PROPERTY];
    if (typeof storedTrace === 'string' && storedTrace.toLowerCase() === traceId)
      return { writeStatus: 'ACTIVE_STATE' };
    if (traceTime !== undefined) {
      const storedTime =
        (typeof storedTrace === 'string' ? timeOfTraceId(storedTrace.toLowerCase()) : undefined) ??
        row.created.time;
      if (traceTime <= storedTime) return { writeStatus: 'HISTORIC_STATE' };
      const observed = row.systemMetadata?.lastObserved;
      // The same value written again: the store only saw it again (lastObserved moved on).
      if (row.created.time < traceTime && typeof observed === 'number' && traceTime <= observed)
        return { writeStatus: 'NO_OP' };
    }
  }
  return input.processed
    ? { writeStatus: 'ERROR', writeMessage: PROCESSED_PAST }
    : { writeStatus: 'PENDING', writeMessage: NOT_PROCESSED };
}

function failed(failure: FailedWrite, detailed: boolean): TraceStorageStatus {
  return detailed
    ? { writeStatus: 'ERROR', writeExceptions: [{ message: failure.error }] }
    : { writeStatus: 'ERROR', writeMessage: failure.error };
}

/** Search follows the primary store, as the ecosystem decides it (ACTIVE_STATE is looked up). */
function searchStatusOf(primary: TraceStorageStatus, aspect: AspectSpec): TraceStorageStatus {
  switch (primary.writeStatus) {
    case 'PENDING':
      return { writeStatus: 'PENDING', writeMessage: PENDING_PRIMARY };
    case 'NO_OP':
      return aspect.kind === 'timeseries'
        ? { writeStatus: 'TRACE_NOT_IMPLEMENTED' }
        : { writeStatus: 'NO_OP' };
    case 'HISTORIC_STATE':
      return { writeStatus: 'HISTORIC_STATE' };
    case 'ERROR':
      return { writeStatus: 'ERROR', writeMessage: PRIMARY_FAILED };
    default:
      return { writeStatus: 'UNKNOWN', writeMessage: 'Primary storage write indeterminate.' };
  }
}

/** The trace id of a path parameter: 32 hex digits, or the second part of a traceparent. */
function traceIdOf(raw: string): string {
  const text = raw.trim().toLowerCase();
  const id = text.includes('-') ? (text.split('-')[1] ?? '') : text;
  if (!TRACE_ID.test(id))
    throw new ValidationError(
      `Invalid trace id ${JSON.stringify(raw)}: expected 32 hex digits or a traceparent`,
    );
  return id;
}

/** The write time a trace id encodes (its first 16 hex digits, in microseconds), when it is plausible. */
function timeOfTraceId(traceId: string): number | undefined {
  if (!/^[0-9a-f]{16}/.test(traceId)) return undefined;
  const millis = Number(BigInt(`0x${traceId.slice(0, 16)}`) / 1000n);
  return millis >= MIN_TRACE_TIME && millis <= Date.now() + MAX_CLOCK_SKEW ? millis : undefined;
}

/** The body `{urn: [aspectName, ...]}`, each urn parsed and each aspect resolved in its entity's registry. */
function requestedAspects(body: unknown): Map<string, AspectSpec[]> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError('The body must be an object of urns to lists of aspect names');
  const out = new Map<string, AspectSpec[]>();
  for (const [raw, names] of Object.entries(body as Record<string, unknown>)) {
    const urn = parseUrn(raw);
    const entity = entityRegistry.requireEntity(urn.entityType);
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))
      throw new ValidationError(`The aspects of ${raw} must be a list of aspect names`);
    const aspects = (names as string[]).map((name) => aspectOf(entity, name));
    out.set(urn.raw, [...new Map(aspects.map((a) => [a.name, a])).values()]);
  }
  if (out.size === 0) throw new ValidationError('The body names no urn to trace');
  return out;
}

/** An aspect of the entity by name, as written or in any case (the ecosystem resolves lower-case names). */
function aspectOf(entity: EntitySpec, name: string): AspectSpec {
  const exact = entity.aspects.get(name);
  if (exact !== undefined) return exact;
  const lower = name.toLowerCase();
  const found = [...entity.aspects.values()].find((a) => a.name.toLowerCase() === lower);
  if (found === undefined) throw new ValidationError(`Unknown aspect ${name} for entity ${entity.name}`);
  return found;
}
