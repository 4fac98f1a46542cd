/**
 * The parts of an OpenLineage 2-0-2 event the mapping reads, once the event has passed the
 * specification's schema (the interface validates it). Facets are kept as the producer sent them: a
 * known facet has been checked against its official schema, an unknown one is opaque.
 */

export type Facets = Readonly<Record<string, unknown>>;

export interface OpenLineageDataset {
  readonly namespace: string;
  readonly name: string;
  readonly facets?: Facets;
  readonly inputFacets?: Facets;
  readonly outputFacets?: Facets;
}

export interface OpenLineageJob {
  readonly namespace: string;
  readonly name: string;
  readonly facets?: Facets;
}

export interface OpenLineageRun {
  readonly runId: string;
  readonly facets?: Facets;
}

export type RunEventType = 'START' | 'RUNNING' | 'COMPLETE' | 'ABORT' | 'FAIL' | 'OTHER';

interface BaseEvent {
  readonly eventTime: string;
  readonly producer: string;
  readonly schemaURL?: string;
}

export interface RunEvent extends BaseEvent {
  readonly eventType: RunEventType;
  readonly run: OpenLineageRun;
  readonly job: OpenLineageJob;
  readonly inputs?: readonly OpenLineageDataset[];
  readonly outputs?: readonly OpenLineageDataset[];
}

export interface JobEvent extends BaseEvent {
  readonly job: OpenLineageJob;
  readonly inputs?: readonly OpenLineageDataset[];
  readonly outputs?: readonly OpenLineageDataset[];
}

export interface DatasetEvent extends BaseEvent {
  readonly dataset: OpenLineageDataset;
}

/** An event with its kind, decided by its structure as the ecosystem decides it (never by schemaURL). */
export type OpenLineageEvent =
  | { readonly kind: 'RunEvent'; readonly event: RunEvent }
  | { readonly kind: 'JobEvent'; readonly event: JobEvent }
  | { readonly kind: 'DatasetEvent'; readonly event: DatasetEvent };

export type OpenLineageEventKind = OpenLineageEvent['kind'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The kind of an event by its structure: `run` and `job` objects make a RunEvent; otherwise a `dataset`
 * object a DatasetEvent; anything else is read as a JobEvent (and fails its schema when it has no job).
 */
export function eventKindOf(body: Record<string, unknown>): OpenLineageEventKind {
  if (isObject(body['run']) && isObject(body['job'])) return 'RunEvent';
  if (isObject(body['dataset'])) return 'DatasetEvent';
  return 'JobEvent';
}
