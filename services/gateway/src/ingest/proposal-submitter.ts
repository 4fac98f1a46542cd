import type { RequestOrigin } from '@catalog/auth';
import { UnavailableError, type CheckedProposal } from '@catalog/model';
import { genericAspectFromJson, type EventLog, type MetadataChangeProposal } from '@catalog/events';
import { proposalRecord, type OutcomeChannel, type ProposalOutcome } from '@catalog/runtime';
import { assertChangeLogFits } from './message-size.js';
import { withOrigin } from './proposal-origin.js';

export { withOrigin };

export interface ProposalSubmitterDeps {
  readonly log: EventLog;
  readonly topic: string;
  readonly outcomes: OutcomeChannel;
  readonly syncTimeoutMs: number;
  readonly newRequestId: () => string;
  /** The log's message-size limit (MAX_MESSAGE_BYTES): writes whose change log could not fit are refused. */
  readonly maxMessageBytes: number;
}

/** Turns checked proposals into MCP records on the log and, for synchronous writes, waits for outcomes. */
export class ProposalSubmitter {
  constructor(private readonly deps: ProposalSubmitterDeps) {}

  /**
   * Produces the proposals (one produce call, so one durable append for the lot, keyed by URN for
   * per-entity order). Sync: resolves with each proposal's outcome; async: resolves once durable.
   */
  async submit(
    proposals: readonly CheckedProposal[],
    options: { readonly sync: boolean; readonly actor: string; readonly origin?: RequestOrigin },
  ): Promise<readonly ProposalOutcome[] | undefined> {
    const { origin } = options;
    if (origin !== undefined) proposals = proposals.map((p) => withOrigin(p, origin));
    const ids = proposals.map(() => this.deps.newRequestId());
    const records = proposals.map((p, i) =>
      proposalRecord(toMcp(p), ids[i]!, options.actor, {
        ...(origin?.userAgent ? { userAgent: origin.userAgent } : {}),
        ...(origin?.requestId ? { httpRequestId: origin.requestId } : {}),
        // Only an awaited outcome is addressed: the others are passed over by every gateway.
        ...(options.sync && this.deps.outcomes.replyTo ? { replyTo: this.deps.outcomes.replyTo } : {}),
      }),
    );
    // Checked for every proposal before any is produced: a refused request leaves nothing behind.
    records.forEach((record, i) => assertChangeLogFits(proposals[i]!, record, this.deps.maxMessageBytes));
    const waits = options.sync ? ids.map((id) => this.deps.outcomes.expect(id, this.deps.syncTimeoutMs)) : [];
    // A rejected wait is observed below; this keeps an early timeout from surfacing as unhandled.
    for (const wait of waits) wait.catch(() => undefined);
    try {
      await this.deps.log.produce(this.deps.topic, records);
    } catch (error) {
      for (const id of ids) this.deps.outcomes.forget(id);
      throw new UnavailableError('The proposal log is unavailable; nothing was written', { cause: error });
    }
    return options.sync ? Promise.all(waits) : undefined;
  }
}

export function toMcp(p: CheckedProposal): MetadataChangeProposal {
  return {
    entityType: p.entity.name,
    entityUrn: p.urn.raw,
    changeType: p.changeType,
    aspectName: p.aspect.name,
    ...(p.value !== undefined ? { aspect: genericAspectFromJson(p.value) } : {}),
    ...(p.patchDocument !== undefined
      ? { aspect: genericAspectFromJson(p.patchDocument, 'application/json-patch+json') }
      : {}),
    ...(p.systemMetadata ? { systemMetadata: p.systemMetadata } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
  };
}
