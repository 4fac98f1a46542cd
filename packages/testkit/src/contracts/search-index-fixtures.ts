import { randomBytes } from 'node:crypto';
import { entityRegistry } from '@catalog/model';
import {
  indexSpecFor,
  type EntityDocument,
  type EntityIndexSpec,
  type SearchIndex,
  type SearchRequest,
  type SearchResponse,
  type SearchScalar,
} from '@catalog/search';

/** What a search-index factory hands the contract: a fresh, empty index set (own prefix or file). */
export interface SearchIndexUnderTest {
  readonly index: SearchIndex;
  cleanup(): Promise<void>;
}

export const datasetSpec: EntityIndexSpec = indexSpecFor(entityRegistry.requireEntity('dataset'));
export const chartSpec: EntityIndexSpec = indexSpecFor(entityRegistry.requireEntity('chart'));
export const corpuserSpec: EntityIndexSpec = indexSpecFor(entityRegistry.requireEntity('corpuser'));
export const dataJobSpec: EntityIndexSpec = indexSpecFor(entityRegistry.requireEntity('dataJob'));

/** A lower-case alphanumeric namespace no query word will match by accident. */
export function uniqueNamespace(): string {
  return `zq${randomBytes(5).toString('hex')}`;
}

export interface DatasetInput {
  /** The dataset name (datasetProperties.name); the key name is `<ns>.<key ?? name>`. */
  readonly name: string;
  readonly key?: string;
  readonly platform?: string;
  readonly origin?: string;
  readonly description?: string;
  readonly qualifiedName?: string;
  readonly tags?: readonly string[];
  readonly owners?: readonly string[];
  readonly fieldPaths?: readonly string[];
  readonly browsePaths?: readonly string[];
  readonly removed?: boolean;
  readonly createdAt?: number;
  readonly customProperties?: Readonly<Record<string, string>>;
}

/**
 * A dataset search document as buildEntityDocument shapes it (field names from the dataset index
 * spec), written out by hand so the contract does not depend on the document builder.
 */
export function datasetDoc(ns: string, input: DatasetInput): EntityDocument {
  const platform = input.platform ?? 'hive';
  const origin = input.origin ?? 'PROD';
  const id = `${ns}.${input.key ?? input.name}`;
  const urn = `urn:li:dataset:(urn:li:dataPlatform:${platform},${id},${origin})`;
  const fields: Record<string, SearchScalar | readonly SearchScalar[]> = {
    urn,
    _entityType: 'dataset',
    removed: input.removed ?? false,
    platform: `urn:li:dataPlatform:${platform}`,
    id,
    origin,
    name: input.name,
    hasDescription: input.description !== undefined,
    hasTags: (input.tags ?? []).length > 0,
    hasOwners: (input.owners ?? []).length > 0,
    browsePaths: input.browsePaths ?? [
      `/${origin.toLowerCase()}/${platform}/${ns}/${input.key ?? input.name}`,
    ],
  };
  if (input.description !== undefined) fields['description'] = input.description;
  if (input.qualifiedName !== undefined) fields['qualifiedName'] = input.qualifiedName;
  if (input.tags !== undefined && input.tags.length > 0)
    fields['tags'] = input.tags.map((t) => `urn:li:tag:${t}`);
  if (input.owners !== undefined && input.owners.length > 0)
    fields['owners'] = input.owners.map((o) => `urn:li:corpuser:${o}`);
  if (input.fieldPaths !== undefined) fields['fieldPaths'] = input.fieldPaths;
  if (input.createdAt !== undefined) fields['createdAt'] = input.createdAt;
  if (input.customProperties !== undefined)
    fields['customProperties'] = Object.entries(input.customProperties).map(([k, v]) => `${k}=${v}`);
  return { urn, entityType: 'dataset', fields };
}

export interface ChartInput {
  readonly title: string;
  readonly tool?: string;
  readonly description?: string;
  readonly removed?: boolean;
}

export function chartDoc(ns: string, id: string, input: ChartInput): EntityDocument {
  const tool = input.tool ?? 'looker';
  const urn = `urn:li:chart:(${tool},${ns}_${id})`;
  const fields: Record<string, SearchScalar | readonly SearchScalar[]> = {
    urn,
    _entityType: 'chart',
    removed: input.removed ?? false,
    tool,
    chartId: `${ns}_${id}`,
    title: input.title,
    hasDescription: input.description !== undefined,
  };
  if (input.description !== undefined) fields['description'] = input.description;
  return { urn, entityType: 'chart', fields };
}

/** A data job of the `airflow` flow `etl` with its input datasets (a COUNT field counts them). */
export function dataJobDoc(ns: string, id: string, inputs: readonly string[]): EntityDocument {
  const flow = `urn:li:dataFlow:(airflow,etl_${ns},PROD)`;
  const urn = `urn:li:dataJob:(${flow},${id})`;
  const fields: Record<string, SearchScalar | readonly SearchScalar[]> = {
    urn,
    _entityType: 'dataJob',
    removed: false,
    dataFlow: flow,
    jobId: id,
    numInputDatasets: inputs.length,
  };
  if (inputs.length > 0) fields['inputs'] = inputs;
  return { urn, entityType: 'dataJob', fields };
}

/** Creates the indices the contract uses and writes `docs`, then refreshes so reads see them. */
export async function seed(index: SearchIndex, docs: readonly EntityDocument[]): Promise<void> {
  await index.ensureIndex(datasetSpec);
  await index.ensureIndex(chartSpec);
  await index.ensureIndex(dataJobSpec);
  if (docs.length > 0) await index.upsert(docs);
  await index.refresh();
}

/** A search over datasets with the contract's defaults (input `*`, first 100 hits). */
export function datasets(request: Partial<SearchRequest> = {}): SearchRequest {
  return { entityTypes: ['dataset'], input: '*', start: 0, count: 100, ...request };
}

export function urnsOf(response: SearchResponse): string[] {
  return response.hits.map((h) => h.urn);
}

export function sortedUrns(docs: readonly EntityDocument[]): string[] {
  return docs.map((d) => d.urn).sort();
}

/** The value → count pairs of one aggregation, as a plain object. */
export function countsOf(response: SearchResponse, field: string): Record<string, number> {
  const aggregation = response.aggregations.find((a) => a.field === field);
  if (aggregation === undefined) throw new Error(`no aggregation for ${field}`);
  return Object.fromEntries(aggregation.values.map((v) => [v.value, v.count]));
}
