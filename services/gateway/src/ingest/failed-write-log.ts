import { decodeFailedMcp, decodeMcl, type Consumer, type EventLog, type LogRecord } from '@catalog/events';
import { DEAD_LETTER_HEADERS, type Logger } from '@catalog/runtime';
import type { FailedWrite, FailedWrites } from '../application/write-traces.js';

export interface FailedWriteLogOptions {
  readonly log: EventLog;
  /** The topic of failures: persistence's refused proposals, or a consumer group's dead letters. */
  readonly topic: string;
  /** What a record of the topic says failed (undefined: nothing to trace it by). */
  readonly decode: (record: LogRecord) => FailedWrite | undefined;
  /** This process's own group (every gateway reads every failure). */
  readonly groupId: string;
  readonly logger: Logger;
  /** How many failures are remembered, the oldest forgotten first (default 100,000). */
  readonly maxEntries?: number;
  readonly pollMs?: number;
  /**
   * How long after it started a partition that has delivered nothing, and grew no further since the
   * start, counts as read (default 3 s): records retention removed are never delivered.
   */
  readonly settleMs?: number;
}

const TRACE_PROPERTY = 'telemetryTraceId';

/**
 * A proposal persistence refused (the FailedMetadataChangeProposal topic): the proposal's trace id,
 * urn and aspect, and the error.
 */
export function refusedProposal(record: LogRecord): FailedWrite | undefined {
  let failed;
  try {
    failed = decodeFailedMcp(record.value);
  } catch {
    // A letter without its value (too large to keep) or not ours to read: nothing to trace it by.
    return undefined;
  }
  const mcp = failed.metadataChangeProposal;
  return failedWrite(
    mcp.systemMetadata?.properties?.[TRACE_PROPERTY],
    mcp.entityUrn ?? record.key,
    mcp.aspectName,
    failed.error,
  );
}

/**
 * A change log a consumer group gave up on (its dead-letter topic: the record as it was, the reason in
 * the headers): the trace id of the stored version it announced, its urn and aspect, and the reason.
 */
export function deadLetteredChangeLog(record: LogRecord): FailedWrite | undefined {
  let mcl;
  try {
    mcl = decodeMcl(record.value);
  } catch {
    return undefined;
  }
  const reason = record.headers[DEAD_LETTER_HEADERS.error] ?? 'The change log could not be applied';
  return failedWrite(
    mcl.systemMetadata?.properties?.[TRACE_PROPERTY],
    mcl.entityUrn ?? record.key,
    mcl.aspectName,
    reason,
  );
}

function failedWrite(
  traceId: unknown,
  urn: string | undefined,
  aspectName: string | undefined,
  error: string,
): FailedWrite | undefined {
  if (typeof traceId !== 'string' || !urn || !aspectName) return undefined;
  return { traceId, urn, aspectName, error };
}

/**
 * Failed writes of a failure topic (persistence's refused proposals, the indexer's dead letters), indexed
 * by the trace id their system metadata carries, urn and aspect: what the write trace reads to tell a
 * failed asynchronous write from a pending one, and why it failed. Read from the start of the topic by a
 * consumer of this process alone; the newest failures are kept, up to a bound.
 */
export class FailedWriteLog implements FailedWrites {
  private readonly failures = new Map<string, FailedWrite>();
  /** Per partition, the offset of the next record this reader will see. */
  private readonly next = new Map<number, bigint>();
  private consumer: Consumer | undefined;
  /** Per partition, its end offset when this reader started, and when it was ready. */
  private startEnds = new Map<number, bigint>();
  private readyAt = Number.POSITIVE_INFINITY;

  private constructor(private readonly options: FailedWriteLogOptions) {}

  static async start(options: FailedWriteLogOptions): Promise<FailedWriteLog> {
    const reader = new FailedWriteLog(options);
    await options.log.ensureTopics([{ name: options.topic }]);
    reader.consumer = await options.log.consume({
      groupId: options.groupId,
      topics: [options.topic],
      fromBeginning: true,
      ephemeral: true,
      maxBatchSize: 1000,
      handler: async (batch) => {
        for (const record of batch.records) reader.remember(record);
        const last = batch.records.at(-1);
        if (last !== undefined) reader.next.set(batch.partition, BigInt(last.offset) + 1n);
      },
      onError: (error) => options.logger.warn({ err: error }, 'reading failed writes failed; retrying'),
    });
    await reader.consumer.ready;
    const ends = await options.log.lag(options.groupId, options.topic);
    reader.startEnds = new Map(ends.map((p) => [p.partition, BigInt(p.endOffset)]));
    reader.readyAt = Date.now();
    return reader;
  }

  find(traceId: string, urn: string, aspectName: string): FailedWrite | undefined {
    return this.failures.get(keyOf(traceId, urn, aspectName));
  }

  async caughtUp(timeoutMs: number): Promise<boolean> {
    const ends = await this.options.log.lag(this.options.groupId, this.options.topic);
    const deadline = Date.now() + timeoutMs;
    const settle = this.options.settleMs ?? 3_000;
    const read = (partition: number, end: bigint): boolean => {
      const next = this.next.get(partition);
      if (next !== undefined) return next >= end;
      // Nothing delivered from it: empty, or all it held before the start was removed by retention
      // (never delivered), once the reader had time to be sent what it held.
      return end === 0n || (end === this.startEnds.get(partition) && Date.now() - this.readyAt >= settle);
    };
    for (;;) {
      if (ends.every((p) => read(p.partition, BigInt(p.endOffset)))) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 20));
    }
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
  }

  private remember(record: LogRecord): void {
    const failure = this.options.decode(record);
    if (failure === undefined) return;
    const id = keyOf(failure.traceId, failure.urn, failure.aspectName);
    this.failures.delete(id);
    this.failures.set(id, failure);
    const max = this.options.maxEntries ?? 100_000;
    while (this.failures.size > max) {
      const oldest = this.failures.keys().next();
      if (oldest.done) break;
      this.failures.delete(oldest.value);
    }
  }
}

function keyOf(traceId: string, urn: string, aspectName: string): string {
  return `${traceId.toLowerCase()}\u0000${urn}\u0000${aspectName}`;
}
