import { randomUUID } from 'node:crypto';
import { genericAspectFromJson, type EventLog, type MetadataChangeProposal } from '@catalog/events';
import { proposalRecord, SYSTEM_ACTOR, type Logger } from '@catalog/runtime';
import type { TimeseriesIndex } from '@catalog/search';
import type { AspectStore } from '@catalog/store';

/** The upgrade's done marker: its dataHubUpgradeResult, as the ecosystem records a finished upgrade step. */
export const RUN_FIELDS_UPGRADE_URN = 'urn:li:dataHubUpgrade:backfill-run-fields-v1';
const RESULT_ASPECT = 'dataHubUpgradeResult';

export interface BackfillRunFieldsDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly timeseries: TimeseriesIndex;
  /** The proposal topic, for the done marker. */
  readonly topic: string;
  readonly logger: Logger;
  readonly batchSize?: number;
}

export interface BackfillRunFieldsReport {
  /** Why nothing ran: the adapters need no backfill (embedded), or the marker says it is done. */
  readonly skipped?: 'not-needed' | 'done';
  /** Aspect rows given their runId and lastObserved. */
  readonly aspects: number;
  /** Time-series documents given their runId. */
  readonly timeseriesDocuments: number;
}

/**
 * The ingestion-run backfill: rows and time-series documents stored before the run fields were kept
 * (MongoDB's runId/lastObserved, OpenSearch's runId) get them, so /runs?action=list|describe|rollback
 * see them. Embedded adapters need nothing (SQLite reads the run from the stored system metadata, and
 * the time-series file fills its column on open): they have no backfill methods and this returns at
 * once. Both backfills are idempotent; once they succeed a dataHubUpgradeResult (SUCCEEDED) is proposed
 * on RUN_FIELDS_UPGRADE_URN, as the ecosystem's upgrade steps record being done, and later runs skip
 * with one store read. Until persistence has applied the marker, a rerun repeats the (idempotent) work.
 */
export async function backfillRunFields(deps: BackfillRunFieldsDeps): Promise<BackfillRunFieldsReport> {
  const { store, timeseries, logger } = deps;
  if (store.backfillRunFields === undefined && timeseries.backfillRunIds === undefined) {
    return { skipped: 'not-needed', aspects: 0, timeseriesDocuments: 0 };
  }
  const marker = await store.get(RUN_FIELDS_UPGRADE_URN, RESULT_ASPECT);
  if (marker?.value['state'] === 'SUCCEEDED') {
    logger.info({ upgrade: RUN_FIELDS_UPGRADE_URN }, 'ingestion-run fields already backfilled');
    return { skipped: 'done', aspects: 0, timeseriesDocuments: 0 };
  }
  const started = performance.now();
  const aspects =
    (await store.backfillRunFields?.(deps.batchSize === undefined ? {} : { batchSize: deps.batchSize })) ?? 0;
  logger.info({ aspects }, 'aspect rows given their ingestion-run fields');
  const timeseriesDocuments = (await timeseries.backfillRunIds?.()) ?? 0;
  logger.info({ timeseriesDocuments }, 'time-series documents given their run id');
  const report = { aspects, timeseriesDocuments };
  await deps.log.produce(deps.topic, [
    proposalRecord(markerProposal(report, Date.now()), `upgrade-${randomUUID()}`, SYSTEM_ACTOR),
  ]);
  logger.info(
    { ...report, durationMs: Math.round(performance.now() - started), upgrade: RUN_FIELDS_UPGRADE_URN },
    'ingestion-run backfill done; its upgrade result proposed',
  );
  return report;
}

function markerProposal(
  report: { readonly aspects: number; readonly timeseriesDocuments: number },
  now: number,
): MetadataChangeProposal {
  return {
    entityType: 'dataHubUpgrade',
    entityUrn: RUN_FIELDS_UPGRADE_URN,
    changeType: 'UPSERT',
    aspectName: RESULT_ASPECT,
    aspect: genericAspectFromJson({
      state: 'SUCCEEDED',
      timestampMs: now,
      result: {
        aspects: String(report.aspects),
        timeseriesDocuments: String(report.timeseriesDocuments),
      },
    }),
  };
}
