import type { OpenLineageJob, OpenLineageRun } from './openlineage-event.js';
import type { OpenLineageSettings } from './openlineage-settings.js';

/** The data flow and data job an OpenLineage job becomes. */
export interface JobIdentity {
  readonly orchestrator: string;
  readonly flowUrn: string;
  readonly flowName: string;
  readonly cluster: string;
  readonly jobUrn: string;
  /** The job's id in its urn: the whole OpenLineage job name. */
  readonly jobId: string;
  /** The name shown: the job name after the flow's part (`count_orders` of `orders_etl.count_orders`). */
  readonly displayName: string;
}

/** Producers the ecosystem knows by their URI, and the orchestrator each stands for. */
const KNOWN_PRODUCERS: readonly (readonly [RegExp, string | ((m: RegExpExecArray) => string)])[] = [
  [
    /^https:\/\/github\.com\/OpenLineage\/OpenLineage\/(?:tree|blob)\/[^/]+\/integration\/([^/]+)/,
    (m) => m[1]!,
  ],
  [/^https:\/\/github\.com\/apache\/airflow\//, 'airflow'],
  [/^https:\/\/github\.com\/trinodb\/trino\//, 'trino'],
  [/^https:\/\/github\.com\/apache\/spark\//, 'spark'],
  [/^https:\/\/github\.com\/dbt-labs\//, 'dbt'],
];

const nonBlank = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The data flow's platform, the first that is set of: DATAHUB_OPENLINEAGE_ORCHESTRATOR, the job type
 * facet's integration, the processing engine run facet's name, the orchestrator of a known producer URI,
 * then DATAHUB_OPENLINEAGE_PLATFORM or `unknown`.
 */
export function orchestratorOf(
  job: OpenLineageJob,
  run: OpenLineageRun | undefined,
  producer: string,
  settings: OpenLineageSettings,
): string {
  const jobType = job.facets?.['jobType'] as { integration?: unknown } | undefined;
  const engine = run?.facets?.['processing_engine'] as { name?: unknown } | undefined;
  const named =
    nonBlank(settings.orchestrator) ??
    nonBlank(jobType?.integration)?.toLowerCase() ??
    nonBlank(engine?.name)?.toLowerCase();
  if (named !== undefined) return named;
  for (const [pattern, orchestrator] of KNOWN_PRODUCERS) {
    const match = pattern.exec(producer);
    if (match) return typeof orchestrator === 'string' ? orchestrator : orchestrator(match).toLowerCase();
  }
  return settings.platform ?? 'unknown';
}

/**
 * The data flow and job of an OpenLineage job: the flow is named by the job name's part before its first
 * dot (or DATAHUB_OPENLINEAGE_PIPELINE_NAME), on the orchestrator's platform, in the cluster
 * DATAHUB_OPENLINEAGE_PLATFORM_INSTANCE, else the lower-cased DATAHUB_OPENLINEAGE_ENV, else the job's
 * namespace; the job is named by the whole job name.
 */
export function jobIdentity(
  job: OpenLineageJob,
  run: OpenLineageRun | undefined,
  producer: string,
  settings: OpenLineageSettings,
): JobIdentity {
  const orchestrator = orchestratorOf(job, run, producer, settings);
  const dot = job.name.indexOf('.');
  const flowName = settings.pipelineName ?? (dot > 0 ? job.name.slice(0, dot) : job.name);
  const cluster = settings.platformInstance ?? settings.env?.toLowerCase() ?? job.namespace;
  const flowUrn = `urn:li:dataFlow:(${orchestrator},${flowName},${cluster})`;
  return {
    orchestrator,
    flowUrn,
    flowName,
    cluster,
    jobUrn: `urn:li:dataJob:(${flowUrn},${job.name})`,
    jobId: job.name,
    displayName: dot > 0 && dot < job.name.length - 1 ? job.name.slice(dot + 1) : job.name,
  };
}
