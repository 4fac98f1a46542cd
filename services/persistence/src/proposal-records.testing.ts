import { randomUUID } from 'node:crypto';
import type { LogRecord, MetadataChangeProposal } from '@catalog/events';
import { proposalRecord as produced } from '@catalog/runtime';

/** The actor the test records are written by. */
export const TEST_ACTOR = 'urn:li:corpuser:tester';
let offset = 0;

/** A proposal record as the gateway produces it: the request id and actor in its headers. */
export function proposalRecord(
  mcp: MetadataChangeProposal,
  requestId: string = randomUUID(),
  timestamp: number = Date.now(),
  options: { readonly systemOperation?: boolean } = {},
): LogRecord {
  const { key, value, headers = {} } = produced(mcp, requestId, TEST_ACTOR, options);
  return {
    topic: 'MetadataChangeProposal_v1',
    partition: 0,
    offset: String(offset++),
    key,
    value,
    headers,
    timestamp,
  };
}
