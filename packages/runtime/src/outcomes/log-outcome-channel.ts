import { UnavailableError } from '@catalog/model';
import type { Consumer, EventLog, LogRecord } from '@catalog/events';
import type { Logger } from 'pino';
import type { OutcomeChannel, ProposalOutcome } from './outcome.js';
import { PendingOutcomes } from './pending-outcomes.js';

/**
 * Header names of outcome records: `replyTo` is the listener a proposal named (its PROPOSAL_HEADERS
 * replyTo), so a gateway passes over the outcomes of other gateways' writes without parsing them.
 */
export const OUTCOME_HEADERS = { replyTo: 'replyTo' } as const;

export interface LogOutcomeChannelOptions {
  readonly log: EventLog;
  readonly topic: string;
  /**
   * Present for a channel that waits for outcomes (a gateway): the id that names this process among
   * the gateways running at once. It is the `replyTo` of the proposals this process waits for, and
   * names the ephemeral consumer group that reads the topic from its end
   * (`gateway-outcomes-<listenerId>`). Absent for a publish-only channel (persistence).
   */
  readonly listenerId?: string;
  readonly logger: Logger;
}

/** What a listening channel has read since it opened. */
export interface OutcomeListenerStats {
  /** Outcome records addressed to this listener: parsed and handed to the waiting requests. */
  readonly decoded: number;
  /** Records addressed to another listener (or none): passed over unparsed. */
  readonly skipped: number;
}

/**
 * Outcomes over the event log, for services in separate processes. Records are JSON, keyed by request
 * id, with the listener they are for in a header. Outcomes are notifications, not state: a gateway
 * that was down simply missed them (its HTTP requests failed with it), so its group is ephemeral:
 * nothing is committed, the group is deleted when the gateway stops, and the broker drops the group of
 * one that died. A restart therefore leaves no group behind, whatever the listener id.
 */
export class LogOutcomeChannel implements OutcomeChannel {
  private readonly pending = new PendingOutcomes();
  private consumer: Consumer | undefined;
  private decoded = 0;
  private skipped = 0;

  private constructor(private readonly options: LogOutcomeChannelOptions) {}

  static async open(options: LogOutcomeChannelOptions): Promise<LogOutcomeChannel> {
    const channel = new LogOutcomeChannel(options);
    await options.log.ensureTopics([{ name: options.topic, retentionMs: 60 * 60 * 1000 }]);
    const { listenerId } = options;
    if (listenerId !== undefined) {
      channel.consumer = await options.log.consume({
        groupId: `gateway-outcomes-${listenerId}`,
        topics: [options.topic],
        fromBeginning: false,
        ephemeral: true,
        maxBatchSize: 1000,
        handler: async (batch) => {
          for (const record of batch.records) channel.receive(record, listenerId);
        },
      });
      await channel.consumer.ready;
    }
    return channel;
  }

  get replyTo(): string | undefined {
    return this.options.listenerId;
  }

  async publish(outcomes: readonly ProposalOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.options.log.produce(
      this.options.topic,
      outcomes.map(({ replyTo, ...outcome }) => ({
        key: outcome.requestId,
        value: Buffer.from(JSON.stringify(outcome)),
        ...(replyTo === undefined ? {} : { headers: { [OUTCOME_HEADERS.replyTo]: replyTo } }),
      })),
    );
  }

  expect(requestId: string, timeoutMs: number): Promise<ProposalOutcome> {
    if (!this.consumer) throw new Error('This outcome channel only publishes');
    return this.pending.expect(requestId, timeoutMs);
  }

  forget(requestId: string): void {
    this.pending.forget(requestId);
  }

  stats(): OutcomeListenerStats {
    return { decoded: this.decoded, skipped: this.skipped };
  }

  async close(): Promise<void> {
    this.pending.rejectAll(new UnavailableError('The service is shutting down'));
    if (!this.consumer) return;
    await this.consumer.stop();
    this.options.logger.info(
      { listenerId: this.options.listenerId, ...this.stats() },
      'outcome listener stopped',
    );
  }

  private receive(record: LogRecord, listenerId: string): void {
    if (record.headers[OUTCOME_HEADERS.replyTo] !== listenerId) {
      this.skipped += 1;
      return;
    }
    this.decoded += 1;
    const outcome = parseOutcome(record.value);
    if (outcome) this.pending.settle(outcome);
    else this.options.logger.warn({ offset: record.offset }, 'ignored a malformed proposal outcome');
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
