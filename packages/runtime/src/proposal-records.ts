import { encodeMcp, type MetadataChangeProposal, type ProduceRecord } from '@catalog/events';

/** Header names of every proposal record: who produces one sets them, persistence reads them. */
export const PROPOSAL_HEADERS = { requestId: 'requestId', actor: 'actor' } as const;

/** The ecosystem's system user: the actor of writes the catalog makes itself, and of unattributed ones. */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/** A proposal as a log record: keyed by its urn (per-entity order), with its request id and actor. */
export function proposalRecord(mcp: MetadataChangeProposal, requestId: string, actor: string): ProduceRecord {
  return {
    key: mcp.entityUrn ?? '',
    value: encodeMcp(mcp),
    headers: { [PROPOSAL_HEADERS.requestId]: requestId, [PROPOSAL_HEADERS.actor]: actor },
  };
}
