import { randomUUID } from 'node:crypto';
import type {
  ConsumeOptions,
  Consumer,
  EventLog,
  LogRecord,
  ProduceRecord,
  RecordBatch,
} from '@catalog/events';

/** What the contract's test cases share: the log under test (fresh per test) and helpers bound to it. */
export interface EventLogTestContext {
  readonly log: EventLog;
  readonly consumers: ConsumerTracker;
  /** How long to wait for a condition. */
  readonly waitMs: number;
  /** Creates a fresh topic with that many partitions. */
  topicWith(partitions: number): Promise<string>;
}

export const text = (key: string, value: string): ProduceRecord => ({
  key,
  value: Buffer.from(value, 'utf8'),
});

/** A topic or group name no other test (or earlier run against the same broker) has used. */
export function freshName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Collects every delivered record, in delivery order. */
export function collector(): {
  readonly records: LogRecord[];
  readonly handler: (batch: RecordBatch) => Promise<void>;
} {
  const records: LogRecord[] = [];
  return {
    records,
    handler: async (batch) => {
      records.push(...batch.records);
    },
  };
}

export const values = (records: readonly LogRecord[]): string[] =>
  records.map((r) => r.value.toString('utf8'));
export const offsetsOf = (records: readonly { offset: string }[]): bigint[] =>
  records.map((r) => BigInt(r.offset));
export const positionKey = (r: { partition: number; offset: string }): string => `${r.partition}:${r.offset}`;

/** Starts consumers and stops whatever a test left running, so one failing test does not leak into the next. */
export class ConsumerTracker {
  private readonly running = new Set<Consumer>();

  async start(log: EventLog, options: ConsumeOptions): Promise<Consumer> {
    const consumer = await log.consume(options);
    this.running.add(consumer);
    await consumer.ready;
    return consumer;
  }

  async stop(consumer: Consumer): Promise<void> {
    this.running.delete(consumer);
    await consumer.stop();
  }

  async stopAll(): Promise<void> {
    const all = [...this.running];
    this.running.clear();
    await Promise.all(all.map((c) => c.stop()));
  }
}

/** A promise with its resolve function exposed, to hold a handler until the test lets it go. */
export function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
