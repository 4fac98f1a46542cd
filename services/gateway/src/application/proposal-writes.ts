import { checkProposal, type CheckedProposal } from '@catalog/model';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import type { RequestOrigin } from '@catalog/auth';

type AspectValue = Readonly<Record<string, unknown>>;

/**
 * Writes through the proposal log and waits for persistence, so a store read right after sees the
 * write. The first refused proposal becomes its domain error, unless `tolerated` accepts its code.
 * With `origin`, the proposals carry the request's origin (the audit trail records it from the change logs).
 */
export async function writeSynchronously(
  submitter: ProposalSubmitter,
  proposals: readonly CheckedProposal[],
  actor: string,
  tolerated: (code: string | undefined) => boolean = () => false,
  origin?: RequestOrigin,
): Promise<void> {
  const outcomes = await submitter.submit(proposals, {
    sync: true,
    actor,
    ...(origin === undefined ? {} : { origin }),
  });
  const failure = outcomes?.find((o) => !o.ok && !tolerated(o.code));
  if (failure) throw errorOfOutcome(failure);
}

export function aspectProposal(
  entityType: string,
  urn: string,
  aspect: string,
  value: AspectValue,
  changeType: 'UPSERT' | 'CREATE' = 'UPSERT',
): CheckedProposal {
  return checkProposal({
    entityType,
    entityUrn: urn,
    changeType,
    aspectName: aspect,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  });
}

/** Deletes the whole entity: a DELETE of its key aspect. */
export function entityDeleteProposal(entityType: string, urn: string, keyAspect: string): CheckedProposal {
  return checkProposal({ entityType, entityUrn: urn, changeType: 'DELETE', aspectName: keyAspect });
}
