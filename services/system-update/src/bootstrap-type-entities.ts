import { randomUUID } from 'node:crypto';
import { genericAspectFromJson, type EventLog, type MetadataChangeProposal } from '@catalog/events';
import { dataPlatformEntities, typeEntities, type DataPlatformEntity, type TypeEntity } from '@catalog/model';
import { proposalRecord, SYSTEM_ACTOR, type Logger } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';

export interface BootstrapTypeEntitiesDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  /** The proposal topic (METADATA_CHANGE_PROPOSAL_TOPIC_NAME). */
  readonly topic: string;
  readonly logger: Logger;
}

export interface BootstrapTypeEntitiesReport {
  /** Type entities whose info aspect is stored already (left alone). */
  readonly existing: number;
  /** Type entities proposed now. */
  readonly proposed: number;
}

/**
 * The ecosystem's type-entity bootstrap (IngestDataTypesStep, IngestEntityTypesStep): a `dataType`
 * entity per data type a structured property's valueType names, an `entityType` entity per registry
 * entity; and its data-platform bootstrap, a `dataPlatform` entity with `dataPlatformInfo` per known
 * platform. Written as proposals, so persistence stores them and the indexer indexes them like any
 * write: a CREATE of the info aspect with `If-None-Match: *`, which persistence drops when the aspect
 * exists. Idempotent and cheap to repeat: one store read finds what exists, and only what is missing
 * is proposed (nothing at all on a catalog that has them), in one append; it does not wait for
 * persistence to apply them.
 */
export async function bootstrapTypeEntities(
  deps: BootstrapTypeEntitiesDeps,
): Promise<BootstrapTypeEntitiesReport> {
  const all = [...typeEntities(), ...dataPlatformEntities()];
  const stored = await deps.store.getLatestMany(
    all.map((t) => t.urn),
    ['dataTypeInfo', 'entityTypeInfo', 'dataPlatformInfo'],
  );
  const missing = all.filter((t) => !(stored.get(t.urn) ?? []).some((a) => a.aspect === t.aspectName));
  if (missing.length > 0) {
    await deps.log.produce(
      deps.topic,
      missing.map((t) => proposalRecord(proposalOf(t), `bootstrap-${randomUUID()}`, SYSTEM_ACTOR)),
    );
    deps.logger.info({ proposed: missing.length }, 'type entities proposed');
  }
  return { existing: all.length - missing.length, proposed: missing.length };
}

function proposalOf(t: TypeEntity | DataPlatformEntity): MetadataChangeProposal {
  return {
    entityType: t.entityType,
    entityUrn: t.urn,
    changeType: 'CREATE',
    aspectName: t.aspectName,
    aspect: genericAspectFromJson(t.value),
    headers: { 'If-None-Match': '*' },
  };
}
