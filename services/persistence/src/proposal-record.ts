import { checkProposal, isDomainError, type CheckedProposal, type DomainError } from '@catalog/model';
import {
  createEventDecoder,
  fixedSchemaResolver,
  SerdeError,
  type EventDecoder,
  type LogRecord,
  type MetadataChangeProposal,
} from '@catalog/events';
import { PROPOSAL_HEADERS, SYSTEM_ACTOR } from '@catalog/runtime';

/** The actor of a proposal record that names none. */
export const DEFAULT_ACTOR = SYSTEM_ACTOR;

export type DecodedProposal =
  | {
      readonly kind: 'checked';
      readonly requestId: string;
      readonly actor: string;
      /** Made by the catalog itself (PROPOSAL_HEADERS.systemOperation): exempt from lifecycle guards. */
      readonly systemOperation: boolean;
      /** The user agent of the request that sent it (PROPOSAL_HEADERS.userAgent), for the change log. */
      readonly userAgent?: string;
      /** The HTTP request that sent it (PROPOSAL_HEADERS.httpRequestId), for the change log's logs. */
      readonly httpRequestId?: string;
      readonly time: number;
      readonly mcp: MetadataChangeProposal;
      readonly proposal: CheckedProposal;
    }
  | {
      readonly kind: 'rejected';
      readonly requestId: string;
      readonly mcp: MetadataChangeProposal;
      readonly error: DomainError;
    }
  | { readonly kind: 'undecodable'; readonly requestId: string; readonly reason: string };

/** A proposal record's idempotency key: its request id header, else its log position. */
export function requestIdOf(record: LogRecord): string {
  return record.headers[PROPOSAL_HEADERS.requestId] ?? `${record.topic}-${record.partition}-${record.offset}`;
}

/** Our fixed schema ids only: records of producers that registered elsewhere need a resolver. */
const fixedIdDecoder = createEventDecoder(fixedSchemaResolver);

/**
 * Decodes and checks one proposal record. Producers other than our gateway (the ecosystem's Kafka
 * emitters) send no request id; the record's log position then serves as its idempotency key.
 */
export async function decodeProposalRecord(
  record: LogRecord,
  decoder: EventDecoder = fixedIdDecoder,
): Promise<DecodedProposal> {
  const requestId = requestIdOf(record);
  let mcp: MetadataChangeProposal;
  try {
    mcp = await decoder.decode('metadataChangeProposal', record.value);
  } catch (error) {
    // Only bytes that are not a proposal are poison; a registry that cannot be reached is retried.
    if (!(error instanceof SerdeError)) throw error;
    return { kind: 'undecodable', requestId, reason: (error as Error).message };
  }
  try {
    const proposal = checkProposal({
      entityType: mcp.entityType,
      entityUrn: mcp.entityUrn,
      entityKeyAspect: mcp.entityKeyAspect,
      changeType: mcp.changeType,
      aspectName: mcp.aspectName,
      aspect: mcp.aspect,
      systemMetadata: mcp.systemMetadata,
      headers: mcp.headers,
    });
    const actor = record.headers[PROPOSAL_HEADERS.actor] ?? DEFAULT_ACTOR;
    const systemOperation = record.headers[PROPOSAL_HEADERS.systemOperation] === 'true';
    const userAgent = record.headers[PROPOSAL_HEADERS.userAgent];
    const httpRequestId = record.headers[PROPOSAL_HEADERS.httpRequestId];
    return {
      kind: 'checked',
      requestId,
      actor,
      systemOperation,
      ...(userAgent ? { userAgent } : {}),
      ...(httpRequestId ? { httpRequestId } : {}),
      time: record.timestamp,
      mcp,
      proposal,
    };
  } catch (error) {
    if (isDomainError(error)) return { kind: 'rejected', requestId, mcp, error };
    throw error;
  }
}
