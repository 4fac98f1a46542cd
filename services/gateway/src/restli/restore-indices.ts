import type { Request, Response } from 'express';
import { parseUrn, ValidationError } from '@catalog/model';
import { encodeMcl, SchemaIds, type EventLog } from '@catalog/events';
import { changeLogForStored } from '@catalog/runtime';
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
 * rebuilds those entities' documents and edges from the store.
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
