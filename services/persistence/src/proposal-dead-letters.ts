import {
  encodeFailedMcp,
  RecordTooLargeError,
  type EventDecoder,
  type EventLog,
  type MetadataChangeProposal,
} from '@catalog/events';
import {
  deadLetterHeaders,
  produceDeadLetter,
  PROPOSAL_HEADERS,
  undecodableProposal,
  type DeadLetterSink,
  type OutcomeChannel,
} from '@catalog/runtime';
import { isDomainError, type ErrorCode } from '@catalog/model';
import { decodeProposalRecord, requestIdOf } from './proposal-record.js';

/**
 * The code a waiting writer gets: a domain error's own; a change log too large for the log is the
 * write's size; anything else kept failing inside the catalog, which is never the caller's mistake.
 */
function outcomeCode(error: unknown): ErrorCode {
  if (isDomainError(error)) return error.code;
  if (error instanceof RecordTooLargeError) return 'PAYLOAD_TOO_LARGE';
  return 'UNAVAILABLE';
}

/**
 * The persistence group's dead letters: the ecosystem's FailedMetadataChangeProposal (the proposal and
 * the error) on its topic, with the dead-letter context in the record headers (and the proposal record's
 * own headers, its request id among them, so a replay is applied at most once). The write's outcome is
 * published too, so a gateway waiting on it answers now rather than at its timeout.
 */
export function proposalDeadLetters(deps: {
  readonly log: EventLog;
  readonly topic: string;
  readonly outcomes: OutcomeChannel;
  readonly decoder?: EventDecoder;
}): DeadLetterSink {
  return {
    topic: deps.topic,
    write: async (record, why) => {
      let mcp: MetadataChangeProposal;
      try {
        const decoded = await decodeProposalRecord(record, deps.decoder);
        mcp = decoded.kind === 'undecodable' ? undecodableProposal(record.value) : decoded.mcp;
      } catch {
        mcp = undecodableProposal(record.value);
      }
      const error = `${why.failureClass} failure in ${why.groupId} after ${why.attempts} attempt(s): ${why.reason}`;
      await produceDeadLetter(deps.log, deps.topic, {
        key: record.key || mcp.entityUrn || 'unknown',
        value: encodeFailedMcp({ metadataChangeProposal: mcp, error }),
        headers: deadLetterHeaders(record, why),
      });
      const replyTo = record.headers[PROPOSAL_HEADERS.replyTo];
      await deps.outcomes.publish([
        {
          requestId: requestIdOf(record),
          ok: false,
          ...(replyTo === undefined ? {} : { replyTo }),
          code: outcomeCode(why.error),
          message: `The write could not be applied and was set aside for replay: ${why.reason}`,
        },
      ]);
    },
  };
}
