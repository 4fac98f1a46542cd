import type { CheckedProposal } from '@catalog/model';
import { timeseriesRangeHeaders, withoutTimeseriesRangeHeaders } from '@catalog/model';
import {
  genericAspectFromJson,
  type MetadataChangeLog,
  type MetadataChangeProposal,
  type SystemMetadata as EventSystemMetadata,
} from '@catalog/events';
import { DEFAULT_RUN_ID, type AuditStamp, type StoredAspect, type SystemMetadata } from '@catalog/store';

type LogChangeType = MetadataChangeLog['changeType'];

/** The change-log record for a stored version 0 (or its removal), reproducible from the store alone. */
export function changeLogForStored(params: {
  readonly entityType: string;
  readonly changeType: LogChangeType;
  readonly current?: StoredAspect;
  readonly previous?: StoredAspect;
  readonly created: AuditStamp;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Of a removal (no current aspect): the system metadata of the request that removed it (its run id
   * and origin properties), as the ecosystem's delete change logs carry.
   */
  readonly removalSystemMetadata?: EventSystemMetadata;
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
      : params.removalSystemMetadata
        ? { systemMetadata: params.removalSystemMetadata }
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

/**
 * The change log of a DELETE of a time-series aspect, which skips the store too: changeType DELETE, no
 * value, and the range of values to delete in its headers, written anew from the checked range (the
 * names X-Timeseries-Start-Time-Millis / X-Timeseries-End-Time-Millis; none when the range is open),
 * with the proposal's other headers. The indexer deletes the entity's values of the aspect in that range.
 */
export function changeLogForTimeseriesDelete(
  proposal: CheckedProposal,
  systemMetadata: SystemMetadata,
  created: AuditStamp,
): MetadataChangeLog {
  const headers = {
    ...withoutTimeseriesRangeHeaders(proposal.headers ?? {}),
    ...timeseriesRangeHeaders(proposal.timeseriesRange ?? {}),
  };
  return {
    entityType: proposal.entity.name,
    entityUrn: proposal.urn.raw,
    changeType: 'DELETE',
    aspectName: proposal.aspect.name,
    systemMetadata: toEventSystemMetadata(systemMetadata),
    created: { time: created.time, actor: created.actor },
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/**
 * The system metadata stored with a write: what the client sent, with lastObserved filled. A runId or
 * lastRunId is stored only when the client sent one: the default "no-run-id-provided" is no run id (the
 * proposal's Avro decoding fills it in for one that was never sent, and the change log's encoding puts
 * it back). The store adds version, aspectCreated and aspectModified, and the lastRunId of a new version.
 */
export function systemMetadataFor(proposal: CheckedProposal, time: number): SystemMetadata {
  const { runId, lastRunId, ...sent } = proposal.systemMetadata ?? {};
  return {
    ...sent,
    lastObserved: sent.lastObserved && sent.lastObserved > 0 ? sent.lastObserved : time,
    ...(runId === undefined || runId === DEFAULT_RUN_ID ? {} : { runId }),
    ...(lastRunId === undefined || lastRunId === DEFAULT_RUN_ID ? {} : { lastRunId }),
  };
}

/**
 * The record's SystemMetadata: the stored fields its Avro schema has. An absent runId or lastRunId is
 * encoded as the schema's default, "no-run-id-provided", as the ecosystem's records carry it.
 */
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
  // A long on the wire: only a safe integer is carried (stored data of another shape is left out).
  if (typeof sm.schemaVersion === 'number' && Number.isSafeInteger(sm.schemaVersion))
    out['schemaVersion'] = sm.schemaVersion;
  for (const field of ['aspectCreated', 'aspectModified'] as const) {
    const stamp = eventAuditStamp(sm[field]);
    if (stamp !== undefined) out[field] = stamp;
  }
  return out as EventSystemMetadata;
}

/** A stored audit stamp as the record's AuditStamp; undefined when it is not one (nothing to encode). */
function eventAuditStamp(raw: unknown): AuditStamp | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { time, actor, impersonator, message } = raw as Record<string, unknown>;
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || typeof actor !== 'string') return undefined;
  return {
    time,
    actor,
    ...(typeof impersonator === 'string' ? { impersonator } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/** A placeholder proposal for a record that could not be decoded, so its bytes still reach the failed topic. */
export function undecodableProposal(raw: Buffer): MetadataChangeProposal {
  return {
    entityType: 'unknown',
    changeType: 'UPSERT',
    aspect: { value: raw, contentType: 'application/octet-stream' },
  };
}
