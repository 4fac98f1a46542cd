import { encodeMcp, type MetadataChangeProposal, type ProduceRecord } from '@catalog/events';

/**
 * Header names of every proposal record: who produces one sets them, persistence reads them.
 * `systemOperation: "true"` marks a proposal the catalog makes itself as part of an internal
 * operation (the value removal of a structured property's hard delete, a rollback): the lifecycle
 * rules that guard users from irreversible steps (spec 3.2: no hard delete of an active structured
 * property) exempt it. The gateway never sets it from client input.
 */
export const PROPOSAL_HEADERS = {
  requestId: 'requestId',
  actor: 'actor',
  systemOperation: 'systemOperation',
  userAgent: 'userAgent',
  /** The gateway waiting for the outcome (a synchronous write): persistence copies it onto the outcome. */
  replyTo: 'replyTo',
  /**
   * The id of the HTTP request that sent the proposal (`X-Request-Id`, or the `traceparent` trace id):
   * one per request, where `requestId` is one per proposal (idempotency). Log lines carry it as
   * `httpRequestId`, so one write can be followed from the gateway through persistence and the indexer.
   */
  httpRequestId: 'httpRequestId',
} as const;

/**
 * Header names of change-log records persistence produces: the request id of the proposal that made
 * the change (the audit trail's event id derives from it, so a change log produced again after a
 * redelivery records the same event) and the user agent of the request that sent it (the audit
 * trail's userAgent; not in systemMetadata.properties, which clients compare).
 */
export const CHANGE_LOG_HEADERS = {
  requestId: 'requestId',
  userAgent: 'userAgent',
  /** The proposal's PROPOSAL_HEADERS.httpRequestId, for the indexer's and audit's log lines. */
  httpRequestId: 'httpRequestId',
} as const;

/** The ecosystem's system user: the actor of writes the catalog makes itself, and of unattributed ones. */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/** A proposal as a log record: keyed by its urn (per-entity order), with its request id, actor and user agent. */
export function proposalRecord(
  mcp: MetadataChangeProposal,
  requestId: string,
  actor: string,
  options: {
    readonly systemOperation?: boolean;
    readonly userAgent?: string;
    readonly replyTo?: string;
    readonly httpRequestId?: string;
  } = {},
): ProduceRecord {
  return {
    key: mcp.entityUrn ?? '',
    value: encodeMcp(mcp),
    headers: {
      [PROPOSAL_HEADERS.requestId]: requestId,
      [PROPOSAL_HEADERS.actor]: actor,
      ...(options.systemOperation === true ? { [PROPOSAL_HEADERS.systemOperation]: 'true' } : {}),
      ...(options.userAgent ? { [PROPOSAL_HEADERS.userAgent]: options.userAgent } : {}),
      ...(options.replyTo ? { [PROPOSAL_HEADERS.replyTo]: options.replyTo } : {}),
      ...(options.httpRequestId ? { [PROPOSAL_HEADERS.httpRequestId]: options.httpRequestId } : {}),
    },
  };
}
