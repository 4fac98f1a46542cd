import type { MetadataChangeLog } from '@catalog/events';
import { isDomainError } from '@catalog/model';
import { timeseriesDeletionOf, timeseriesDocumentOf } from '@catalog/projection';
import type { TimeseriesDeletion, TimeseriesDocument, TimeseriesIndex } from '@catalog/search';
import type { Logger } from '@catalog/runtime';

/**
 * Applies a batch of time-series change logs to the index, in log order: the values of consecutive
 * upserts go in one write; a DELETE deletes the entity's values of its aspect in its range once the
 * values before it are written (so an upsert before a delete in the same batch is deleted, one after it
 * kept). A redelivered batch does the same again: upserts replace their documents by id and a delete
 * deletes what is left in its range, nothing when it is gone. A delete whose range is malformed (not
 * one persistence checked) is reported and skipped: retrying cannot repair it.
 */
export async function indexTimeseriesChangeLogs(
  changeLogs: readonly MetadataChangeLog[],
  timeseries: TimeseriesIndex,
  logger: Logger,
): Promise<void> {
  let pending: TimeseriesDocument[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const documents = pending;
    pending = [];
    await timeseries.upsert(documents);
  };
  for (const mcl of changeLogs) {
    if (mcl.changeType !== 'DELETE') {
      const document = timeseriesDocumentOf(mcl);
      if (document !== undefined) pending.push(document);
      continue;
    }
    const deletion = deletionOf(mcl, logger);
    if (deletion === undefined) continue;
    await flush();
    const deleted = await timeseries.delete(deletion);
    logger.debug({ ...deletion, deleted }, 'time-series values deleted');
  }
  await flush();
}

function deletionOf(mcl: MetadataChangeLog, logger: Logger): TimeseriesDeletion | undefined {
  try {
    return timeseriesDeletionOf(mcl);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    logger.error(
      { err: error, urn: mcl.entityUrn, aspect: mcl.aspectName, headers: mcl.headers },
      'time-series delete with a malformed range skipped',
    );
    return undefined;
  }
}
