import type { Request, Response } from 'express';
import { entityRegistry, parseUrn, ValidationError } from '@catalog/model';
import { encodeMcl, SchemaIds, type EventLog, type MetadataChangeLog } from '@catalog/events';
import { changeLogForStored, SYSTEM_ACTOR } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import { ActionBody } from './action-body.js';

export interface RestoreDeps {
  readonly store: AspectStore;
  readonly log: EventLog;
  readonly versionedTopic: string;
}

/** Rows restored in one call at most; larger restores are paged with `start`, or done by system-update. */
export const MAX_RESTORE_BATCH = 10_000;

/**
 * POST /gms/operations?action=restoreIndices: re-emits change logs (changeType RESTATE) for the stored
 * version-0 aspects that match, in store order, from row `start`, `batchSize` rows; the indexer then
 * rebuilds those entities' documents and edges from the store. A `urn` with nothing stored is restated
 * all the same, so that the indexer removes what its indices still hold of it.
 */
export async function restoreIndices(req: Request, res: Response, deps: RestoreDeps): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.optionalString('urn');
  if (urn !== undefined) parseUrn(urn);
  const aspect = body.optionalString('aspect');
  const urnLike = body.optionalString('urnLike');
  if (urn !== undefined && urnLike !== undefined) throw new ValidationError('Give urn or urnLike, not both');
  const start = body.int('start', 0, { min: 0 });
  const batchSize = body.int('batchSize', 10, { min: 1, max: MAX_RESTORE_BATCH });

  const started = Date.now();
  const page = await deps.store.scan({
    limit: batchSize,
    start,
    ...(urn !== undefined ? { urn } : {}),
    ...(aspect !== undefined ? { aspect } : {}),
    ...(urnLike !== undefined ? { urnLike } : {}),
  });
  const scannedMs = Date.now() - started;
  if (urn !== undefined && start === 0 && page.items.length === 0) {
    // Nothing stored (a hard-deleted or never-written entity): a restatement of its key without a
    // value, which the indexer projects as "no aspects", so no document or edge of it is left behind.
    const entityType = parseUrn(urn).entityType;
    const keyAspect = entityRegistry.getEntity(entityType)?.keyAspect;
    if (keyAspect !== undefined) {
      const restatement: MetadataChangeLog = {
        entityType,
        entityUrn: urn,
        changeType: 'RESTATE',
        aspectName: keyAspect,
        created: { time: Date.now(), actor: SYSTEM_ACTOR },
      };
      await deps.log.produce(deps.versionedTopic, [
        { key: urn, value: encodeMcl(restatement, SchemaIds.metadataChangeLog) },
      ]);
    }
  }
  if (page.items.length > 0) {
    await deps.log.produce(
      deps.versionedTopic,
      page.items.map((stored) => ({
        key: stored.urn,
        value: encodeMcl(
          changeLogForStored({
            entityType: parseUrn(stored.urn).entityType,
            changeType: 'RESTATE',
            current: stored,
            created: stored.created,
          }),
          SchemaIds.metadataChangeLog,
        ),
      })),
    );
  }
  const entities = new Set(page.items.map((s) => s.urn)).size;
  res.json({
    value:
      `Restored ${page.items.length} aspects of ${entities} entities from row ${start}` +
      ` (batchSize ${batchSize}; scan ${scannedMs} ms, total ${Date.now() - started} ms)` +
      (page.next ? `; more rows follow from row ${start + page.items.length}` : '; no more rows'),
  });
}
