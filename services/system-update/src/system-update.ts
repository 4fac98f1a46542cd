import type { EventLog, TopicNames } from '@catalog/events';
import { ensureReadModels } from '@catalog/projection';
import { entityRegistry } from '@catalog/model';
import type { Logger, SearchAdapters } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import { bootstrapTypeEntities } from './bootstrap-type-entities.js';
import { bootstrapIdentity } from './bootstrap-identity.js';
import { backfillRunFields } from './backfill-run-fields.js';
import { DEFAULT_ROOT_PASSWORD } from '@catalog/auth';
import type { SystemUpdateConfig } from './config.js';
import { restoreAll, type RestoreReport } from './restore-all.js';
import { cleanupStructuredPropertyMappings } from './structured-property-mapping-cleanup.js';

export interface SystemUpdateDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly readModels: SearchAdapters;
  readonly topics: TopicNames;
  readonly logger: Logger;
}

/** Runs the job's steps; resolves with the restore report when indices were restored. */
export async function runSystemUpdate(
  deps: SystemUpdateDeps,
  config: Pick<SystemUpdateConfig, 'steps' | 'clean' | 'batchSize' | 'urnLike'> &
    Partial<
      Pick<SystemUpdateConfig, 'structuredProperties' | 'structuredPropertyMappingCleanup' | 'rootPassword'>
    >,
): Promise<RestoreReport | undefined> {
  const { topics, readModels, logger } = deps;
  await deps.log.ensureTopics([
    { name: topics.metadataChangeProposal },
    { name: topics.failedMetadataChangeProposal },
    { name: topics.metadataChangeLogVersioned },
    { name: topics.metadataChangeLogTimeseries, retentionMs: 90 * 24 * 60 * 60 * 1000 },
    { name: topics.platformEvent },
    { name: topics.upgradeHistory, partitions: 1, retentionMs: -1 },
  ]);
  if (config.clean) {
    for (const entity of entityRegistry.entities()) {
      if (entity.searchable) await readModels.search.deleteIndex(entity.name);
    }
    logger.info('entity indices dropped for a clean rebuild');
  }
  await ensureReadModels(readModels);
  logger.info('topics and index mappings are in place');
  // Rows and time-series documents stored before the run fields were kept, given them (once: a done
  // marker skips it later; nothing to do on embedded adapters).
  const runs = await backfillRunFields({
    log: deps.log,
    store: deps.store,
    timeseries: readModels.timeseries,
    topic: topics.metadataChangeProposal,
    logger,
    batchSize: config.batchSize,
  });
  logger.info(runs, 'ingestion-run fields backfilled');
  // The data-type and entity-type entities structured properties refer to, as the ecosystem's
  // system update ingests them: proposed when missing, applied by persistence.
  const types = await bootstrapTypeEntities({
    log: deps.log,
    store: deps.store,
    topic: topics.metadataChangeProposal,
    logger,
  });
  logger.info(types, 'type entities in place or proposed');
  const identity = await bootstrapIdentity({
    log: deps.log,
    store: deps.store,
    topic: topics.metadataChangeProposal,
    logger,
    rootPassword: config.rootPassword ?? DEFAULT_ROOT_PASSWORD,
  });
  logger.info(identity, 'root user, roles and default policies in place or proposed');
  const cleanup = async () => {
    if (config.structuredPropertyMappingCleanup === true)
      await cleanupStructuredPropertyMappings({ store: deps.store, search: readModels.search, logger });
  };
  if (!config.steps.includes('restore-indices')) {
    await cleanup();
    return undefined;
  }
  const report = await restoreAll(
    {
      store: deps.store,
      search: readModels.search,
      graph: readModels.graph,
      ...(readModels.projection ? { projection: readModels.projection } : {}),
      logger,
    },
    {
      batchSize: config.batchSize,
      ...(config.urnLike ? { urnLike: config.urnLike } : {}),
      ...(config.structuredProperties ? { structuredProperties: config.structuredProperties } : {}),
    },
  );
  logger.info(report, 'indices restored from the aspect store');
  await cleanup();
  return report;
}
