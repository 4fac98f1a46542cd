import { datasetIdentity, type DatasetIdentity } from './dataset-identity.js';
import type { OpenLineageDataset } from './openlineage-event.js';
import type { OpenLineageSettings } from './openlineage-settings.js';

type Json = Record<string, unknown>;

/** A fine-grained lineage as the ecosystem's FineGrainedLineage record holds it. */
export interface FineGrainedLineage {
  readonly upstreamType: 'FIELD_SET';
  readonly upstreams: readonly string[];
  readonly downstreamType: 'FIELD_SET';
  readonly downstreams: readonly string[];
  readonly transformOperation: string;
  readonly confidenceScore: number;
}

/** The confidence the ecosystem gives lineage an OpenLineage producer reported. */
const REPORTED_CONFIDENCE = 0.5;

export const schemaFieldUrn = (datasetUrn: string, field: string): string =>
  `urn:li:schemaField:(${datasetUrn},${field})`;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fine-grained lineages of a dataset's column lineage facet, one per field of the dataset with the
 * input fields it is computed from (input datasets named as any other dataset; those naming no platform
 * left out). The operation lists the transformations (`DIRECT:IDENTITY`, sorted), then the job's SQL.
 */
export function fineGrainedLineagesOf(
  dataset: OpenLineageDataset,
  identity: DatasetIdentity,
  sql: string | undefined,
  settings: OpenLineageSettings,
): FineGrainedLineage[] {
  const facet = dataset.facets?.['columnLineage'];
  const fields = isObject(facet) ? facet['fields'] : undefined;
  if (!isObject(fields)) return [];
  const lineages: FineGrainedLineage[] = [];
  for (const [field, entry] of Object.entries(fields)) {
    const inputs = isObject(entry) && Array.isArray(entry['inputFields']) ? entry['inputFields'] : [];
    const upstreams = new Set<string>();
    const transformations = new Set<string>();
    for (const input of inputs as Json[]) {
      if (!isObject(input)) continue;
      for (const t of Array.isArray(input['transformations']) ? (input['transformations'] as Json[]) : [])
        if (isObject(t)) transformations.add(`${String(t['type'])}:${String(t['subtype'])}`);
      const { namespace, name, field: inputField } = input;
      if (typeof namespace !== 'string' || typeof name !== 'string' || typeof inputField !== 'string')
        continue;
      const upstream = datasetIdentity({ namespace, name }, settings);
      if (upstream !== undefined) upstreams.add(schemaFieldUrn(upstream.urn, inputField));
    }
    if (upstreams.size === 0) continue;
    const described = [...transformations].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
    let operation = described.join(',');
    if (sql !== undefined && sql.trim() !== '')
      operation = operation === '' ? sql : `-- ${operation}\n${sql}`;
    lineages.push({
      upstreamType: 'FIELD_SET',
      upstreams: [...upstreams].sort(),
      downstreamType: 'FIELD_SET',
      downstreams: [schemaFieldUrn(identity.urn, field)],
      transformOperation: operation,
      confidenceScore: REPORTED_CONFIDENCE,
    });
  }
  return lineages;
}
