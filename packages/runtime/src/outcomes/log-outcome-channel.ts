import { UnavailableError } from '@catalog/model';
import type { Consumer, EventLog } from '@catalog/events';
import type { Logger } from 'pino';
import type { OutcomeChannel, ProposalOutcome } from './outcome.js';
import { PendingOutcomes } from './pending-outcomes.js';

export interface LogOutcomeChannelOptions {
  readonly log: EventLog;
  readonly topic: string;
  /**
   * Unique per gateway process: every gateway reads every outcome (from the end of the topic) and keeps
   * the ones it waits for. Absent for a publish-only channel (persistence).
   */
  readonly listenerGroupId?: string;
  readonly logger: Logger;
}

/**
 * Outcomes over the event log, for services in separate processes. Records are JSON, keyed by request
 * id. Outcomes are notifications, not state: a gateway that was down simply missed them (its HTTP
 * requests failed with it).
 */
export class LogOutcomeChannel implements OutcomeChannel {
  private readonly pending = new PendingOutcomes();
  private consumer: Consumer | undefined;

  private constructor(private readonly options: LogOutcomeChannelOptions) {}

  static async open(options: LogOutcomeChannelOptions): Promise<LogOutcomeChannel> {
    const channel = new LogOutcomeChannel(options);
    await options.log.ensureTopics([{ name: options.topic, retentionMs: 60 * 60 * 1000 }]);
    if (options.listenerGroupId) {
      channel.consumer = await options.log.consume({
        groupId: options.listenerGroupId,
        topics: [options.topic],
        fromBeginning: false,
        maxBatchSize: 1000,
        handler: async (batch) => {
          for (const record of batch.records) {
            const outcome = parseOutcome(record.value);
            if (outcome) channel.pending.settle(outcome);
            else options.logger.warn({ offset: record.offset }, 'ignored a malformed proposal outcome');
          }
        },
      });
      await channel.consumer.ready;
    }
    return channel;
  }

  async publish(outcomes: readonly ProposalOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.options.log.produce(
      this.options.topic,
      outcomes.map((o) => ({ key: o.requestId, value: Buffer.from(JSON.stringify(o)) })),
    );
  }

  expect(requestId: string, timeoutMs: number): Promise<ProposalOutcome> {
    if (!this.consumer) throw new Error('This outcome channel only publishes');
    return this.pending.expect(requestId, timeoutMs);
  }

  forget(requestId: string): void {
    this.pending.forget(requestId);
  }

  async close(): Promise<void> {
    this.pending.rejectAll(new UnavailableError('The service is shutting down'));
    await this.consumer?.stop();
  }
}

function parseOutcome(value: Buffer): ProposalOutcome | undefined {
  try {
    const parsed: unknown = JSON.parse(value.toString('utf8'));
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as ProposalOutcome).requestId === 'string'
    ) {
      return parsed as ProposalOutcome;
    }
  } catch {
    // fall through: reported by the caller
  }
  return undefined;
}
