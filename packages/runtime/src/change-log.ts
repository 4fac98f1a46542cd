import type { CheckedProposal } from '@catalog/model';
import {
  genericAspectFromJson,
  type MetadataChangeLog,
  type MetadataChangeProposal,
  type SystemMetadata as EventSystemMetadata,
} from '@catalog/events';
import type { AuditStamp, StoredAspect, SystemMetadata } from '@catalog/store';

type LogChangeType = MetadataChangeLog['changeType'];

/** The change-log record for a stored version 0 (or its removal), reproducible from the store alone. */
export function changeLogForStored(params: {
  readonly entityType: string;
  readonly changeType: LogChangeType;
  readonly current?: StoredAspect;
  readonly previous?: StoredAspect;
  readonly created: AuditStamp;
  readonly headers?: Readonly<Record<string, string>>;
}): MetadataChangeLog {
  const subject = params.current ?? params.previous;
  if (!subject) throw new Error('a change log needs a current or a previous aspect');
  return {
    entityType: params.entityType,
    entityUrn: subject.urn,
    changeType: params.changeType,
    aspectName: subject.aspect,
    ...(params.current
      ? {
          aspect: genericAspectFromJson(params.current.value),
          systemMetadata: toEventSystemMetadata(params.current.systemMetadata),
        }
      : {}),
    ...(params.previous
      ? {
          previousAspectValue: genericAspectFromJson(params.previous.value),
          previousSystemMetadata: toEventSystemMetadata(params.previous.systemMetadata),
        }
      : {}),
    created: { time: params.created.time, actor: params.created.actor },
    ...(params.headers ? { headers: params.headers } : {}),
  };
}

/** The change-log record of a time-series aspect, which skips the store. */
export function changeLogForTimeseries(
  proposal: CheckedProposal,
  systemMetadata: SystemMetadata,
  created: AuditStamp,
): MetadataChangeLog {
  return {
    entityType: proposal.entity.name,
    entityUrn: proposal.urn.raw,
    changeType: 'UPSERT',
    aspectName: proposal.aspect.name,
    aspect: genericAspectFromJson(proposal.value ?? {}),
    systemMetadata: toEventSystemMetadata(systemMetadata),
    created: { time: created.time, actor: created.actor },
    ...(proposal.headers ? { headers: proposal.headers } : {}),
  };
}

/** The system metadata stored with a write: what the client sent, with lastObserved and runId filled. */
export function systemMetadataFor(proposal: CheckedProposal, time: number): SystemMetadata {
  const sent = proposal.systemMetadata ?? {};
  return {
    ...sent,
    lastObserved: sent.lastObserved && sent.lastObserved > 0 ? sent.lastObserved : time,
    runId: sent.runId ?? 'no-run-id-provided',
  };
}

function toEventSystemMetadata(sm: SystemMetadata | null): EventSystemMetadata | undefined {
  if (!sm) return undefined;
  const out: Record<string, unknown> = {};
  for (const field of [
    'lastObserved',
    'runId',
    'lastRunId',
    'pipelineName',
    'registryName',
    'registryVersion',
    'version',
    'properties',
  ]) {
    if (sm[field] !== undefined && sm[field] !== null) out[field] = sm[field];
  }
  return out as EventSystemMetadata;
}

/** A placeholder proposal for a record that could not be decoded, so its bytes still reach the failed topic. */
export function undecodableProposal(raw: Buffer): MetadataChangeProposal {
  return {
    entityType: 'unknown',
    changeType: 'UPSERT',
    aspect: { value: raw, contentType: 'application/octet-stream' },
  };
}
