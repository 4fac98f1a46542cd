import { entityRegistry, timeseriesRangeFromHeaders } from '@catalog/model';
import { genericAspectToJson, type MetadataChangeLog } from '@catalog/events';
import { timeseriesDocumentId, type TimeseriesDeletion, type TimeseriesDocument } from '@catalog/search';

/**
 * The time-series document of a time-series change log, or undefined when it carries no usable value
 * (or is a DELETE, which timeseriesDeletionOf reads).
 */
export function timeseriesDocumentOf(mcl: MetadataChangeLog): TimeseriesDocument | undefined {
  if (mcl.changeType === 'DELETE') return undefined;
  if (!mcl.entityUrn || !mcl.aspectName || !mcl.aspect) return undefined;
  const spec = entityRegistry.getAspect(mcl.entityType, mcl.aspectName);
  if (!spec || spec.kind !== 'timeseries') return undefined;
  const value = genericAspectToJson(mcl.aspect);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const timestampMillis = record['timestampMillis'];
  if (typeof timestampMillis !== 'number') return undefined;
  return {
    entityType: mcl.entityType,
    aspect: mcl.aspectName,
    urn: mcl.entityUrn,
    timestampMillis,
    id: timeseriesDocumentId(mcl.entityUrn, mcl.aspectName, record),
    value: record,
    ...(mcl.systemMetadata ? { systemMetadata: mcl.systemMetadata as Record<string, unknown> } : {}),
  };
}

/**
 * What a time-series change log of changeType DELETE deletes: the entity's values of the aspect whose
 * timestampMillis is in the range its headers carry (X-Timeseries-Start-Time-Millis and
 * X-Timeseries-End-Time-Millis, inclusive; without them, every value), only those the run
 * X-Timeseries-Run-Id names wrote when it is there. Undefined for any other change
 * log. Throws ValidationError when the headers carry a malformed range.
 */
export function timeseriesDeletionOf(mcl: MetadataChangeLog): TimeseriesDeletion | undefined {
  if (mcl.changeType !== 'DELETE' || !mcl.entityUrn || !mcl.aspectName) return undefined;
  const spec = entityRegistry.getAspect(mcl.entityType, mcl.aspectName);
  if (!spec || spec.kind !== 'timeseries') return undefined;
  return {
    entityType: mcl.entityType,
    aspect: mcl.aspectName,
    urn: mcl.entityUrn,
    ...timeseriesRangeFromHeaders(mcl.headers),
  };
}
