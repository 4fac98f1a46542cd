import { entityRegistry } from '@catalog/model';
import { genericAspectToJson, type MetadataChangeLog } from '@catalog/events';
import { timeseriesDocumentId, type TimeseriesDocument } from '@catalog/search';

/** The time-series document of a time-series change log, or undefined when it carries no usable value. */
export function timeseriesDocumentOf(mcl: MetadataChangeLog): TimeseriesDocument | undefined {
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
