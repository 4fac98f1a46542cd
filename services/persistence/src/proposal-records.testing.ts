import { randomUUID } from 'node:crypto';
import { encodeMcp, type LogRecord, type MetadataChangeProposal } from '@catalog/events';

/** The actor the test records are written by. */
export const TEST_ACTOR = 'urn:li:corpuser:tester';
let offset = 0;

/** A proposal record as the gateway produces it: the request id and actor in its headers. */
export function proposalRecord(
  mcp: MetadataChangeProposal,
  requestId: string = randomUUID(),
  timestamp: number = Date.now(),
): LogRecord {
  return {
    topic: 'MetadataChangeProposal_v1',
    partition: 0,
    offset: String(offset++),
    key: mcp.entityUrn ?? '',
    value: encodeMcp(mcp),
    headers: { requestId, actor: TEST_ACTOR },
    timestamp,
  };
}
