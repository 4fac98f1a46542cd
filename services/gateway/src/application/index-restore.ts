import type { RequestContext } from '@catalog/auth';
import { entityRegistry, parseUrn } from '@catalog/model';
import { encodeMcl, SchemaIds, type EventLog, type MetadataChangeLog } from '@catalog/events';
import { changeLogForStored, SYSTEM_ACTOR } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';

/** Rows restored in one call at most; larger restores are paged with `start`, or done by system-update. */
export const MAX_RESTORE_BATCH = 10_000;

/** Which stored rows to restate (spec 4.10). */
export interface RestoreRequest {
  readonly urn?: string;
  readonly aspect?: string;
  readonly urnLike?: string;
  readonly start: number;
  readonly batchSize: number;
}

/** What a restore did, for its answer. */
export interface RestoreResult {
  readonly aspects: number;
  readonly entities: number;
  readonly scannedMs: number;
  readonly totalMs: number;
  /** Whether rows follow the batch. */
  readonly more: boolean;
}

/**
 * Restores the indices from the store (the operations endpoint's restoreIndices): re-emits change logs
 * (changeType RESTATE) for the stored version-0 aspects that match, in store order, from row `start`,
 * `batchSize` rows; the indexer then rebuilds those entities' documents and edges from the store. A
 * `urn` with nothing stored is restated all the same, so that the indexer removes what its indices
 * still hold of it. Asks the restore-indices privileges. Returns counts only: no stored value leaves.
 */
export class IndexRestore {
  constructor(
    private readonly store: AspectStore,
    private readonly log: EventLog,
    private readonly versionedTopic: string,
    private readonly policy: AccessPolicy,
  ) {}

  async restore(ctx: RequestContext, request: RestoreRequest): Promise<RestoreResult> {
    await this.policy.restoreIndices(ctx);
    const { urn, aspect, urnLike, start, batchSize } = request;
    const started = Date.now();
    const page = await this.store.scan({
      limit: batchSize,
      start,
      ...(urn !== undefined ? { urn } : {}),
      ...(aspect !== undefined ? { aspect } : {}),
      ...(urnLike !== undefined ? { urnLike } : {}),
    });
    const scannedMs = Date.now() - started;
    if (urn !== undefined && start === 0 && page.items.length === 0) await this.restateAbsent(urn);
    if (page.items.length > 0) {
      await this.log.produce(
        this.versionedTopic,
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
    return {
      aspects: page.items.length,
      entities: new Set(page.items.map((s) => s.urn)).size,
      scannedMs,
      totalMs: Date.now() - started,
      more: page.next !== undefined,
    };
  }

  /**
   * Nothing stored (a hard-deleted or never-written entity): a restatement of its key without a value,
   * which the indexer projects as "no aspects", so no document or edge of it is left behind.
   */
  private async restateAbsent(urn: string): Promise<void> {
    const entityType = parseUrn(urn).entityType;
    const keyAspect = entityRegistry.getEntity(entityType)?.keyAspect;
    if (keyAspect === undefined) return;
    const restatement: MetadataChangeLog = {
      entityType,
      entityUrn: urn,
      changeType: 'RESTATE',
      aspectName: keyAspect,
      created: { time: Date.now(), actor: SYSTEM_ACTOR },
    };
    await this.log.produce(this.versionedTopic, [
      { key: urn, value: encodeMcl(restatement, SchemaIds.metadataChangeLog) },
    ]);
  }
}
