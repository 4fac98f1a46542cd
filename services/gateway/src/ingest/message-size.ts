import { PayloadTooLargeError, type CheckedProposal } from '@catalog/model';
import { recordBytes, type ProduceRecord } from '@catalog/events';

/**
 * What a change-log event carries beyond its proposal's record: the created audit stamp, the change-log
 * headers, the entity key and the event's own framing. Generous, so the estimate never undershoots.
 */
export const CHANGE_LOG_RESERVE_BYTES = 16 * 1024;

/**
 * Refuses (413, before anything is produced) a proposal whose change-log event could not fit in the log.
 * A versioned aspect's event carries the previous value and system metadata beside the new ones, and
 * the previous ones passed this same check when they were written, so twice the proposal's record plus
 * the reserve bounds the event; a time-series event carries only the new value.
 */
export function assertChangeLogFits(
  proposal: CheckedProposal,
  record: ProduceRecord,
  maxMessageBytes: number,
): void {
  const bytes = recordBytes(record);
  const copies = proposal.aspect.kind === 'timeseries' ? 1 : 2;
  const eventBytes = copies * bytes + CHANGE_LOG_RESERVE_BYTES;
  if (eventBytes <= maxMessageBytes) return;
  const largest = Math.floor((maxMessageBytes - CHANGE_LOG_RESERVE_BYTES) / copies);
  throw new PayloadTooLargeError(
    `The ${proposal.aspect.name} aspect of ${proposal.urn.raw} makes a proposal of ${bytes} bytes; ` +
      `its change-log event${copies === 2 ? ', which carries the previous and the new value,' : ''} ` +
      `would exceed the log's message-size limit of ${maxMessageBytes} bytes (MAX_MESSAGE_BYTES), so ` +
      `the largest proposal for this aspect is ${largest} bytes. Nothing was written.`,
  );
}
