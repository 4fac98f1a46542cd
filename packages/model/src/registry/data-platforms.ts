import { DATA_PLATFORMS } from './data-platforms-data.js';

export { DATA_PLATFORMS, type DataPlatformEntry } from './data-platforms-data.js';

/** A data platform as the catalog bootstraps it: its entity and its `dataPlatformInfo`. */
export interface DataPlatformEntity {
  readonly entityType: 'dataPlatform';
  readonly urn: string;
  readonly aspectName: 'dataPlatformInfo';
  readonly value: Readonly<Record<string, unknown>>;
}

/**
 * The data platforms the ecosystem bootstraps (its data-platforms bootstrap), one `dataPlatform` entity
 * each, so `urn:li:dataPlatform:hive` is an entity that reads (its key and `dataPlatformInfo`) as there.
 */
export function dataPlatformEntities(): readonly DataPlatformEntity[] {
  // The ecosystem's list names one urn twice (presto, first with prefect's info); its bootstrap upserts
  // in order, so the last one stands.
  const last = new Map(DATA_PLATFORMS.map((p) => [p.id, p]));
  return [...last.values()].map((p) => ({
    entityType: 'dataPlatform',
    urn: `urn:li:dataPlatform:${p.id}`,
    aspectName: 'dataPlatformInfo',
    value: { ...p.info },
  }));
}
