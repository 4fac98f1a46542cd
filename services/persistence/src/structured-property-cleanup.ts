import {
  decodeMcl,
  genericAspectFromJson,
  JSON_PATCH_CONTENT_TYPE,
  SerdeError,
  type Consumer,
  type EventDecoder,
  type EventLog,
  type LogRecord,
  type MetadataChangeLog,
  type MetadataChangeProposal,
  type RecordBatch,
  type TopicNames,
} from '@catalog/events';
import { parseUrn } from '@catalog/model';
import {
  deadLetterTopicOf,
  FailurePolicy,
  proposalRecord,
  recordDeadLetters,
  SYSTEM_ACTOR,
  type Logger,
} from '@catalog/runtime';
import { structuredPropertyHolders, type AspectStore } from '@catalog/store';

const PROPERTY_ENTITY = 'structuredProperty';
const PROPERTY_URN_PREFIX = 'urn:li:structuredProperty:';
const DEFINITION_ASPECT = 'propertyDefinition';
const VALUES_ASPECT = 'structuredProperties';
/** Entities scanned (and patches produced, at most) per store page. */
const PAGE = 500;

export interface StructuredPropertyCleanupDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly topics: TopicNames;
  readonly logger: Logger;
  readonly groupId: string;
  /** Decodes change logs of producers that registered elsewhere; default: our fixed ids only. */
  readonly decoder?: EventDecoder;
  /** Deliveries of a record failing for an unknown reason before it is dead-lettered (default 5). */
  readonly maxAttempts?: number;
}

export interface StructuredPropertyCleanup {
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The asynchronous value removal of a structured property's hard delete (spec 3.2): a consumer of the
 * versioned change log (its own group) that, on the DELETE change log of a structuredProperty's
 * `propertyDefinition` (persistence emits it first when the property is removed), finds every entity
 * whose stored `structuredProperties` still assign the property (a keyset scan of the store, the
 * primary copy) and proposes a PATCH that removes the assignment, as the ecosystem's own clean-up
 * does. The patches go through the proposal log like any write, so the search documents follow.
 *
 * Resumable: the change log's offset is committed only once every patch of the scan is durable in the
 * proposal log. After a crash the change log is delivered again and the scan runs again: entities
 * already patched no longer hold values and are skipped; patches produced but not yet applied carry
 * the same request ids (deletion time, property, entity), so persistence applies each once.
 * Progress (entities still holding values) is the store's count, served by the gateway's
 * `GET /openapi/operations/structuredProperties/cleanup`.
 */
export async function startStructuredPropertyCleanup(
  deps: StructuredPropertyCleanupDeps,
): Promise<StructuredPropertyCleanup> {
  await deps.log.ensureTopics([{ name: deadLetterTopicOf(deps.groupId) }]);
  const policy = new FailurePolicy({
    groupId: deps.groupId,
    logger: deps.logger,
    deadLetters: recordDeadLetters(deps.log, deps.groupId),
    ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }),
  });
  const consumer: Consumer = await deps.log.consume({
    groupId: deps.groupId,
    topics: [deps.topics.metadataChangeLogVersioned],
    fromBeginning: true,
    handler: policy.wrap((batch) => handleBatch(batch, deps)),
    onError: (error, where) =>
      deps.logger.error(
        { err: error, ...where },
        'structured property value removal failed; it will be redelivered',
      ),
  });
  return { ready: consumer.ready, stop: () => consumer.stop() };
}

async function handleBatch(batch: RecordBatch, deps: StructuredPropertyCleanupDeps): Promise<void> {
  for (const record of batch.records) {
    const deletion = await definitionDeletion(record, deps);
    if (deletion !== undefined) await removeValues(deletion.propertyUrn, deletion.deletedAt, deps);
  }
}

/** The property whose definition this change log deletes; undefined for any other change log. */
async function definitionDeletion(
  record: LogRecord,
  deps: StructuredPropertyCleanupDeps,
): Promise<{ propertyUrn: string; deletedAt: number } | undefined> {
  // Change logs are keyed by their entity's urn: only a structured property's are decoded.
  if (!record.key.startsWith(PROPERTY_URN_PREFIX)) return undefined;
  let mcl: MetadataChangeLog;
  try {
    mcl = deps.decoder
      ? await deps.decoder.decode('metadataChangeLog', record.value)
      : decodeMcl(record.value);
  } catch (error) {
    // Bytes that are no change log cannot be a definition's delete; a registry outage is retried.
    if (!(error instanceof SerdeError)) throw error;
    return undefined;
  }
  if (
    mcl.entityType !== PROPERTY_ENTITY ||
    mcl.aspectName !== DEFINITION_ASPECT ||
    mcl.changeType !== 'DELETE' ||
    mcl.entityUrn === undefined
  )
    return undefined;
  return { propertyUrn: mcl.entityUrn, deletedAt: mcl.created?.time ?? record.timestamp };
}

/**
 * Proposes the removal of the property's values from every entity holding them. Nothing when the
 * property has a definition again (created anew after its mappings were cleaned up): a change log
 * delivered again must not strip the new property's values.
 */
async function removeValues(
  propertyUrn: string,
  deletedAt: number,
  deps: StructuredPropertyCleanupDeps,
): Promise<void> {
  const { store, log, topics, logger } = deps;
  const again = await store.getLatestMany([propertyUrn], [DEFINITION_ASPECT]);
  if ((again.get(propertyUrn) ?? []).length > 0) {
    logger.info({ propertyUrn }, 'structured property defined again; its old deletion removes nothing');
    return;
  }
  let proposed = 0;
  for await (const holders of structuredPropertyHolders(store, new Set([propertyUrn]), PAGE)) {
    if (holders.length === 0) continue;
    await log.produce(
      topics.metadataChangeProposal,
      holders.map((holder) =>
        proposalRecord(
          removalProposal(holder.urn, propertyUrn),
          `structured-property-cleanup:${deletedAt}:${propertyUrn}:${holder.urn}`,
          SYSTEM_ACTOR,
          { systemOperation: true },
        ),
      ),
    );
    proposed += holders.length;
    logger.info({ propertyUrn, proposed }, 'structured property value removal in progress');
  }
  logger.info({ propertyUrn, proposed }, 'structured property value removal proposed for every holder');
}

/** The PATCH that removes a property's assignment (every entry of it) from an entity. */
function removalProposal(entityUrn: string, propertyUrn: string): MetadataChangeProposal {
  const patch = {
    patch: [{ op: 'remove', path: `/properties/${pointerEscape(propertyUrn)}` }],
    arrayPrimaryKeys: { properties: ['propertyUrn'] },
  };
  return {
    entityType: parseUrn(entityUrn).entityType,
    entityUrn,
    changeType: 'PATCH',
    aspectName: VALUES_ASPECT,
    aspect: genericAspectFromJson(patch, JSON_PATCH_CONTENT_TYPE),
  };
}

/** A JSON Pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`. */
function pointerEscape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
