import type { RequestOrigin } from '@catalog/auth';
import type { CheckedProposal } from '@catalog/model';

/**
 * The proposal with where it came from in `systemMetadata.properties`, exactly the keys the ecosystem
 * records there (`telemetryTraceId`, `eventSource`, `sourceIP`; the user agent is not one of them, and
 * clients compare these properties): the values the gateway observed
 * replace any the client sent, so that the change log and the audit trail record the request as it
 * reached the catalog. Other properties the client sent are kept.
 */
export function withOrigin(proposal: CheckedProposal, origin: RequestOrigin): CheckedProposal {
  return { ...proposal, systemMetadata: systemMetadataWithOrigin(proposal.systemMetadata, origin) };
}

/** System metadata as a proposal of this request is submitted with it (see withOrigin). */
export function systemMetadataWithOrigin(
  given: CheckedProposal['systemMetadata'],
  origin: RequestOrigin,
): NonNullable<CheckedProposal['systemMetadata']> {
  const systemMetadata = given ?? {};
  return {
    ...systemMetadata,
    properties: {
      ...(systemMetadata.properties ?? {}),
      telemetryTraceId: origin.traceId,
      eventSource: origin.eventSource,
      sourceIP: origin.sourceIp,
    },
  };
}
