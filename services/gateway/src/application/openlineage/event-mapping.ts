import { pointer } from '../aspect-changes.js';
import { fineGrainedLineagesOf, type FineGrainedLineage } from './column-lineage.js';
import { datasetIdentity, datasetIdentityOrFallback, type DatasetIdentity } from './dataset-identity.js';
import { jobIdentity, type JobIdentity } from './job-identity.js';
import type {
  Facets,
  OpenLineageDataset,
  OpenLineageEvent,
  OpenLineageJob,
  OpenLineageRun,
  RunEvent,
} from './openlineage-event.js';
import type { OpenLineageSettings } from './openlineage-settings.js';

type Json = Record<string, unknown>;

/** One aspect write an event maps to: a whole value, or (DATAHUB_OPENLINEAGE_USE_PATCH) a JSON patch. */
export interface MappedAspect {
  readonly urn: string;
  readonly entityType: 'dataFlow' | 'dataJob' | 'dataProcessInstance' | 'dataset';
  readonly aspect: string;
  readonly changeType: 'UPSERT' | 'PATCH';
  readonly value: unknown;
}

/** The actor the ecosystem stamps on what a lineage producer reported. */
const REPORTER = 'urn:li:corpuser:datahub';

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (facets: Facets | undefined, facet: string, field: string): string | undefined => {
  const value = facets?.[facet];
  const found = isObject(value) ? value[field] : undefined;
  return typeof found === 'string' && found !== '' ? found : undefined;
};

/** A dataset an event names, with the catalog identity it maps to. */
interface NamedDataset {
  readonly dataset: OpenLineageDataset;
  readonly identity: DatasetIdentity;
}

/** The datasets of a list that name a platform, each once (the first mention kept). */
function resolved(datasets: readonly OpenLineageDataset[] | undefined, settings: OpenLineageSettings) {
  const byUrn = new Map<string, NamedDataset>();
  for (const dataset of datasets ?? []) {
    const identity = datasetIdentity(dataset, settings);
    if (identity !== undefined && !byUrn.has(identity.urn)) byUrn.set(identity.urn, { dataset, identity });
  }
  return [...byUrn.values()].sort((a, b) => a.identity.urn.localeCompare(b.identity.urn));
}

/** The ecosystem's mapping of a schema facet's field type to the catalog's field type. */
function fieldType(type: unknown): string {
  switch (type) {
    case 'string':
      return 'com.linkedin.schema.StringType';
    case 'long':
    case 'int':
      return 'com.linkedin.schema.NumberType';
    case 'timestamp':
      return 'com.linkedin.schema.TimeType';
    case 'struct':
      return 'com.linkedin.schema.MapType';
    default:
      return 'com.linkedin.schema.NullType';
  }
}

/** The dataset's schemaMetadata from its schema facet (the top-level fields), or undefined without one. */
function schemaMetadataOf(named: NamedDataset): Json | undefined {
  const facet = named.dataset.facets?.['schema'];
  const fields = isObject(facet) ? facet['fields'] : undefined;
  if (!Array.isArray(fields)) return undefined;
  const columns = (fields as unknown[]).filter(
    (f): f is Json => isObject(f) && typeof f['name'] === 'string' && f['name'] !== '',
  );
  return {
    schemaName: '',
    platform: `urn:li:dataPlatform:${named.identity.platform}`,
    version: 0,
    hash: '',
    platformSchema: {
      'com.linkedin.schema.MySqlDDL': {
        tableSchema: JSON.stringify(columns.map(({ name, type }) => ({ name, ...(type ? { type } : {}) }))),
      },
    },
    fields: columns.map((column) => ({
      fieldPath: column['name'],
      nativeDataType: typeof column['type'] === 'string' ? column['type'] : '',
      type: { type: { [fieldType(column['type'])]: {} } },
      nullable: false,
      recursive: false,
      ...(typeof column['description'] === 'string' ? { description: column['description'] } : {}),
    })),
  };
}

/** What writing a dataset takes: its key and status (when datasets are materialized), and its schema. */
function datasetAspects(
  named: NamedDataset,
  settings: OpenLineageSettings,
  materialize: boolean,
): MappedAspect[] {
  const urn = named.identity.urn;
  const out: MappedAspect[] = [];
  if (materialize) {
    const key = {
      platform: `urn:li:dataPlatform:${named.identity.platform}`,
      name: named.identity.name,
      origin: named.identity.env,
    };
    out.push({ urn, entityType: 'dataset', aspect: 'datasetKey', changeType: 'UPSERT', value: key });
    out.push({
      urn,
      entityType: 'dataset',
      aspect: 'status',
      changeType: 'UPSERT',
      value: { removed: false },
    });
    const schema = settings.includeSchemaMetadata ? schemaMetadataOf(named) : undefined;
    if (schema !== undefined)
      out.push({ urn, entityType: 'dataset', aspect: 'schemaMetadata', changeType: 'UPSERT', value: schema });
  }
  return out;
}

/** An audit stamp at the event's time, so that a resent event maps to the same values. */
const stampAt = (time: number) => ({ time, actor: REPORTER });
const edgeTo = (urn: string, time: number) => ({ destinationUrn: urn, lastModified: stampAt(time) });

/** Owners of the ownership job facet: `user:x` and plain names are users, `team:`/`group:` groups. */
function ownersOf(facets: Facets | undefined): Json[] {
  const facet = facets?.['ownership'];
  const owners = isObject(facet) && Array.isArray(facet['owners']) ? (facet['owners'] as unknown[]) : [];
  return owners
    .filter((o): o is Json => isObject(o) && typeof o['name'] === 'string' && o['name'] !== '')
    .map((o) => {
      const name = o['name'] as string;
      const owner = name.startsWith('urn:li:')
        ? name
        : /^(team|group):/.test(name)
          ? `urn:li:corpGroup:${name.slice(name.indexOf(':') + 1)}`
          : `urn:li:corpuser:${name.replace(/^user:/, '')}`;
      return { owner, type: 'DEVELOPER', source: { type: 'SERVICE' } };
    });
}

/** Tags of the tags job facet (`key`, or `key:value` when the value says more than `true`). */
function tagsOf(facets: Facets | undefined): string[] {
  const facet = facets?.['tags'];
  const tags = isObject(facet) && Array.isArray(facet['tags']) ? (facet['tags'] as unknown[]) : [];
  const names = tags
    .filter((t): t is Json => isObject(t) && typeof t['key'] === 'string' && t['key'] !== '')
    .map((t) => {
      const value = typeof t['value'] === 'string' ? t['value'] : '';
      return value === '' || value === 'true' ? (t['key'] as string) : `${String(t['key'])}:${value}`;
    });
  return [...new Set(names)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}

/** The aspects of the data flow and data job an event's job maps to, lineage aside. */
function jobAspects(job: OpenLineageJob, ids: JobIdentity, time: number, settings: OpenLineageSettings) {
  const { flowUrn, jobUrn } = ids;
  const description = text(job.facets, 'documentation', 'description');
  const out: MappedAspect[] = [
    {
      urn: flowUrn,
      entityType: 'dataFlow',
      aspect: 'dataFlowInfo',
      changeType: 'UPSERT',
      value: { name: ids.flowName, customProperties: {}, ...(description ? { description } : {}) },
    },
    {
      urn: flowUrn,
      entityType: 'dataFlow',
      aspect: 'status',
      changeType: 'UPSERT',
      value: { removed: false },
    },
    {
      urn: jobUrn,
      entityType: 'dataJob',
      aspect: 'dataJobInfo',
      changeType: 'UPSERT',
      value: {
        name: ids.displayName,
        type: { string: ids.orchestrator },
        flowUrn,
        customProperties: {},
        created: { time },
        ...(description ? { description } : {}),
      },
    },
    { urn: jobUrn, entityType: 'dataJob', aspect: 'status', changeType: 'UPSERT', value: { removed: false } },
  ];
  if (settings.platformInstance !== undefined) {
    const platform = `urn:li:dataPlatform:${ids.orchestrator}`;
    const value = {
      platform,
      instance: `urn:li:dataPlatformInstance:(${platform},${settings.platformInstance})`,
    };
    out.push({
      urn: flowUrn,
      entityType: 'dataFlow',
      aspect: 'dataPlatformInstance',
      changeType: 'UPSERT',
      value,
    });
    out.push({
      urn: jobUrn,
      entityType: 'dataJob',
      aspect: 'dataPlatformInstance',
      changeType: 'UPSERT',
      value,
    });
  }
  const jobType = text(job.facets, 'jobType', 'jobType');
  if (jobType !== undefined)
    out.push({
      urn: jobUrn,
      entityType: 'dataJob',
      aspect: 'subTypes',
      changeType: 'UPSERT',
      value: { typeNames: [jobType] },
    });
  const owners = ownersOf(job.facets);
  if (owners.length > 0)
    out.push({
      urn: jobUrn,
      entityType: 'dataJob',
      aspect: 'ownership',
      changeType: 'UPSERT',
      value: { owners, lastModified: stampAt(time) },
    });
  const tags = tagsOf(job.facets);
  if (tags.length > 0)
    out.push({
      urn: jobUrn,
      entityType: 'dataJob',
      aspect: 'globalTags',
      changeType: 'UPSERT',
      value: { tags: tags.map((t) => ({ tag: `urn:li:tag:${t}` })) },
    });
  const query = text(job.facets, 'sql', 'query') ?? text(job.facets, 'sourceCode', 'sourceCode');
  if (query !== undefined)
    out.push({
      urn: jobUrn,
      entityType: 'dataJob',
      aspect: 'dataTransformLogic',
      changeType: 'UPSERT',
      value: { transforms: [{ queryStatement: { value: query, language: 'UNKNOWN' } }] },
    });
  return out;
}

/** The job's inputs, outputs and column lineage: one dataJobInputOutput value, or a patch adding them. */
function jobLineage(
  jobUrn: string,
  inputs: readonly NamedDataset[],
  outputs: readonly NamedDataset[],
  lineages: readonly FineGrainedLineage[],
  time: number,
  settings: OpenLineageSettings,
): MappedAspect[] {
  if (!settings.usePatch) {
    const value = {
      inputDatasets: [],
      outputDatasets: [],
      inputDatasetEdges: inputs.map((d) => edgeTo(d.identity.urn, time)),
      outputDatasetEdges: outputs.map((d) => edgeTo(d.identity.urn, time)),
      inputDatajobs: [],
      fineGrainedLineages: lineages,
    };
    return [
      { urn: jobUrn, entityType: 'dataJob', aspect: 'dataJobInputOutput', changeType: 'UPSERT', value },
    ];
  }
  // A patch with nothing to add would create the aspect empty; the ecosystem leaves it out.
  if (inputs.length === 0 && outputs.length === 0) return [];
  const ops: Json[] = [
    ...inputs.map((d) => ({
      op: 'add',
      path: `/inputDatasetEdges/${pointer(d.identity.urn)}`,
      value: edgeTo(d.identity.urn, time),
    })),
    ...outputs.map((d) => ({
      op: 'add',
      path: `/outputDatasetEdges/${pointer(d.identity.urn)}`,
      value: edgeTo(d.identity.urn, time),
    })),
  ];
  for (const lineage of lineages)
    for (const downstream of lineage.downstreams)
      for (const upstream of lineage.upstreams)
        ops.push({
          op: 'add',
          path: `/fineGrainedLineages/${pointer(lineage.transformOperation || 'TRANSFORM')}/${pointer(downstream)}/NONE/${pointer(upstream)}`,
          value: {
            confidenceScore: lineage.confidenceScore,
            upstreamType: 'FIELD_SET',
            downstreamType: 'FIELD_SET',
          },
        });
  return [
    { urn: jobUrn, entityType: 'dataJob', aspect: 'dataJobInputOutput', changeType: 'PATCH', value: ops },
  ];
}

/** The run's state change as the ecosystem records it; OTHER changes no state and records none. */
function runEventOf(event: RunEvent, time: number): Json | undefined {
  switch (event.eventType) {
    case 'START':
    case 'RUNNING':
      return { timestampMillis: time, status: 'STARTED' };
    case 'COMPLETE':
      return {
        timestampMillis: time,
        status: 'COMPLETE',
        result: { type: 'SUCCESS', nativeResultType: event.eventType },
      };
    case 'FAIL':
    case 'ABORT':
      return {
        timestampMillis: time,
        status: 'COMPLETE',
        result: { type: 'FAILURE', nativeResultType: event.eventType },
      };
    default:
      return undefined;
  }
}

/** The process instance of a run: its properties, inputs, outputs, parent job (and run) and state. */
function runAspects(
  event: RunEvent,
  jobUrn: string,
  inputs: readonly NamedDataset[],
  outputs: readonly NamedDataset[],
  time: number,
): MappedAspect[] {
  const run: OpenLineageRun = event.run;
  const urn = `urn:li:dataProcessInstance:${run.runId}`;
  const parent = run.facets?.['parent'];
  const parentRun = isObject(parent) && isObject(parent['run']) ? parent['run']['runId'] : undefined;
  const aspect = (name: string, value: unknown): MappedAspect => ({
    urn,
    entityType: 'dataProcessInstance',
    aspect: name,
    changeType: 'UPSERT',
    value,
  });
  const out = [
    aspect('dataProcessInstanceProperties', {
      name: run.runId,
      created: stampAt(time),
      customProperties: {},
    }),
    aspect('dataProcessInstanceInput', { inputs: inputs.map((d) => d.identity.urn) }),
    aspect('dataProcessInstanceOutput', { outputs: outputs.map((d) => d.identity.urn) }),
    aspect('dataProcessInstanceRelationships', {
      parentTemplate: jobUrn,
      upstreamInstances: [],
      ...(typeof parentRun === 'string' ? { parentInstance: `urn:li:dataProcessInstance:${parentRun}` } : {}),
    }),
  ];
  const state = runEventOf(event, time);
  if (state !== undefined) out.push(aspect('dataProcessInstanceRunEvent', state));
  return out;
}

/** The event's time in milliseconds (validated as an RFC 3339 date-time before it gets here). */
const millisOf = (eventTime: string): number => Date.parse(eventTime);

/**
 * The aspect writes an OpenLineage event maps to, as the ecosystem maps them: a RunEvent and a JobEvent
 * give the job's data flow and data job (with its inputs, outputs and column lineage in
 * dataJobInputOutput) and the datasets they name (leaving out those naming no platform); a RunEvent
 * also gives the run's data process instance and, for a state change, its run event; a DatasetEvent
 * gives its dataset only, on the fallback platform when its namespace names none. Every value is a
 * function of the event and the settings, so that a resent event writes nothing new.
 */
export function mapOpenLineageEvent(event: OpenLineageEvent, settings: OpenLineageSettings): MappedAspect[] {
  const time = millisOf(event.event.eventTime);
  if (event.kind === 'DatasetEvent') {
    const identity = datasetIdentityOrFallback(event.event.dataset, settings);
    return datasetAspects({ dataset: event.event.dataset, identity }, settings, true);
  }
  const { job, producer } = event.event;
  const run = event.kind === 'RunEvent' ? event.event.run : undefined;
  const ids = jobIdentity(job, run, producer, settings);
  const inputs = resolved(event.event.inputs, settings);
  const outputs = resolved(event.event.outputs, settings);
  const sql = text(job.facets, 'sql', 'query');
  const lineages = settings.captureColumnLevelLineage
    ? [...inputs, ...outputs].flatMap((d) => fineGrainedLineagesOf(d.dataset, d.identity, sql, settings))
    : [];
  const datasets = [
    ...inputs,
    ...outputs.filter((o) => !inputs.some((i) => i.identity.urn === o.identity.urn)),
  ];
  return [
    ...jobAspects(job, ids, time, settings),
    ...datasets.flatMap((d) => datasetAspects(d, settings, settings.materializeDataset)),
    ...jobLineage(ids.jobUrn, inputs, outputs, lineages, time, settings),
    ...(event.kind === 'RunEvent' ? runAspects(event.event, ids.jobUrn, inputs, outputs, time) : []),
  ];
}
