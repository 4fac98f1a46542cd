import { silentLogger, type EventLogLogger } from '../event-log-logger.js';
import type { Consumer, EventLog, RecordBatch } from '../port.js';
import {
  addRegistration,
  SchemaIdCollisionError,
  type RegisteredSchema,
  type SchemaRegistrations,
} from './schema-registrations.js';

export interface LogSchemaRegistrationsOptions {
  readonly log: EventLog;
  /** One partition, kept forever; keyed by schema id (compaction-friendly). */
  readonly topic: string;
  /** Unique per process: every process reads every registration from the beginning. */
  readonly groupId: string;
  readonly logger?: EventLogLogger;
  /** How long byId waits for a registration it has not seen yet. Default 5 s. */
  readonly waitMs?: number;
}

/**
 * Registrations kept in the event log, so they survive restarts and reach every process: the gateway that
 * registered a schema and the persistence instances that decode records written with it.
 */
export class LogSchemaRegistrations implements SchemaRegistrations {
  private readonly registered: RegisteredSchema[] = [];
  private readonly waiters = new Set<() => void>();
  private consumer: Consumer | undefined;

  private constructor(private readonly options: LogSchemaRegistrationsOptions) {}

  static async open(options: LogSchemaRegistrationsOptions): Promise<LogSchemaRegistrations> {
    const registrations = new LogSchemaRegistrations(options);
    await options.log.ensureTopics([{ name: options.topic, partitions: 1, retentionMs: -1 }]);
    registrations.consumer = await options.log.consume({
      groupId: options.groupId,
      topics: [options.topic],
      fromBeginning: true,
      handler: (batch) => registrations.apply(batch),
    });
    await registrations.consumer.ready;
    await registrations.caughtUp(options.waitMs ?? 5_000);
    return registrations;
  }

  /** Waits (bounded) until every registration already in the log has been read. */
  private async caughtUp(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const lag = await this.options.log.lag(this.options.groupId, this.options.topic);
      if (lag.every((p) => p.lag === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  list(): readonly RegisteredSchema[] {
    return this.registered;
  }

  async byId(id: number, waitMs = this.options.waitMs ?? 5_000): Promise<RegisteredSchema | undefined> {
    const find = () => this.registered.find((r) => r.id === id);
    const found = find();
    if (found || waitMs <= 0) return found;
    return new Promise((resolve) => {
      const check = (): void => {
        const now = find();
        if (!now) return;
        done(now);
      };
      const done = (value: RegisteredSchema | undefined): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => done(undefined), waitMs);
      this.waiters.add(check);
    });
  }

  async register(registration: RegisteredSchema): Promise<RegisteredSchema> {
    // Checks for a collision before writing; the log then carries it to every other process.
    const known = addRegistration([...this.registered], registration);
    if (known !== registration) return known;
    await this.options.log.produce(this.options.topic, [
      { key: String(registration.id), value: Buffer.from(JSON.stringify(registration)) },
    ]);
    const added = addRegistration(this.registered, registration);
    this.wake();
    return added;
  }

  async close(): Promise<void> {
    await this.consumer?.stop();
    for (const wake of [...this.waiters]) wake();
  }

  private async apply(batch: RecordBatch): Promise<void> {
    const logger = this.options.logger ?? silentLogger;
    for (const record of batch.records) {
      const registration = parseRegistration(record.value);
      if (!registration) {
        logger.warn(
          { topic: record.topic, offset: record.offset },
          'ignored a malformed schema registration',
        );
        continue;
      }
      try {
        addRegistration(this.registered, registration);
      } catch (error) {
        if (!(error instanceof SchemaIdCollisionError)) throw error;
        logger.warn(
          { id: registration.id, offset: record.offset },
          'ignored a colliding schema registration',
        );
      }
    }
    this.wake();
  }

  private wake(): void {
    for (const check of [...this.waiters]) check();
  }
}

function parseRegistration(value: Buffer): RegisteredSchema | undefined {
  try {
    const parsed = JSON.parse(value.toString('utf8')) as Partial<RegisteredSchema>;
    const { id, subject, schema, fingerprint } = parsed;
    if (
      typeof id !== 'number' ||
      typeof subject !== 'string' ||
      typeof schema !== 'string' ||
      typeof fingerprint !== 'string'
    ) {
      return undefined;
    }
    return { id, subject, schema, fingerprint };
  } catch {
    return undefined;
  }
}
