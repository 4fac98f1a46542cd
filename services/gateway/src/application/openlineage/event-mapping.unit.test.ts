import { describe, expect, it } from 'vitest';
import { checkProposal } from '@catalog/model';
import { mapOpenLineageEvent, type MappedAspect } from './event-mapping.js';
import type { OpenLineageEvent, RunEvent } from './openlineage-event.js';
import { DEFAULT_OPENLINEAGE_SETTINGS, type OpenLineageSettings } from './openlineage-settings.js';

const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python';
const RUN_ID = '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a11';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const COUNTS = 'urn:li:dataset:(urn:li:dataPlatform:bigquery,analytics.order_counts,PROD)';
const FLOW = 'urn:li:dataFlow:(airflow,orders_etl,prod)';
const JOB = `urn:li:dataJob:(${FLOW},orders_etl.count_orders)`;
const DPI = `urn:li:dataProcessInstance:${RUN_ID}`;
const FACET = { _producer: PRODUCER, _schemaURL: 'https://openlineage.io/spec/facets/x.json' };

function runEvent(overrides: Partial<RunEvent> = {}): RunEvent {
  return {
    eventType: 'START',
    eventTime: '2026-11-29T10:00:00.000Z',
    producer: PRODUCER,
    run: { runId: RUN_ID },
    job: {
      namespace: 'prod',
      name: 'orders_etl.count_orders',
      facets: { jobType: { ...FACET, processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' } },
    },
    inputs: [
      {
        namespace: 'postgres://db.example.com:5432',
        name: 'shop.public.orders',
        facets: {
          schema: {
            ...FACET,
            fields: [
              { name: 'id', type: 'int' },
              { name: 'customer', type: 'string' },
            ],
          },
        },
      },
    ],
    outputs: [
      {
        namespace: 'bigquery',
        name: 'analytics.order_counts',
        facets: {
          columnLineage: {
            ...FACET,
            fields: {
              orders: {
                inputFields: [
                  {
                    namespace: 'postgres://db.example.com:5432',
                    name: 'shop.public.orders',
                    field: 'id',
                    transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION' }],
                  },
                ],
              },
            },
          },
        },
      },
    ],
    ...overrides,
  };
}

const run = (event: RunEvent): OpenLineageEvent => ({ kind: 'RunEvent', event });
const settings = (more: Partial<OpenLineageSettings> = {}): OpenLineageSettings => ({
  ...DEFAULT_OPENLINEAGE_SETTINGS,
  ...more,
});
const find = (aspects: readonly MappedAspect[], urn: string, aspect: string) =>
  aspects.find((a) => a.urn === urn && a.aspect === aspect)?.value as Record<string, unknown> | undefined;
const writesOf = (aspects: readonly MappedAspect[]) => aspects.map((a) => `${a.aspect} ${a.urn}`);

describe('mapping an OpenLineage run event', () => {
  it('names the flow by the job name before its first dot and the job by the whole name, on the integration', () => {
    const aspects = mapOpenLineageEvent(run(runEvent()), settings());
    expect(find(aspects, FLOW, 'dataFlowInfo')).toMatchObject({ name: 'orders_etl' });
    expect(find(aspects, JOB, 'dataJobInfo')).toMatchObject({
      name: 'count_orders',
      flowUrn: FLOW,
      type: { string: 'airflow' },
    });
    expect(find(aspects, JOB, 'subTypes')).toEqual({ typeNames: ['TASK'] });
  });

  it('gives the job its inputs and outputs as dataset edges and the column lineage as fine-grained lineage', () => {
    const aspects = mapOpenLineageEvent(run(runEvent()), settings());
    const io = find(aspects, JOB, 'dataJobInputOutput')!;
    expect((io['inputDatasetEdges'] as { destinationUrn: string }[]).map((e) => e.destinationUrn)).toEqual([
      ORDERS,
    ]);
    expect((io['outputDatasetEdges'] as { destinationUrn: string }[]).map((e) => e.destinationUrn)).toEqual([
      COUNTS,
    ]);
    expect(io['fineGrainedLineages']).toEqual([
      {
        upstreamType: 'FIELD_SET',
        upstreams: [`urn:li:schemaField:(${ORDERS},id)`],
        downstreamType: 'FIELD_SET',
        downstreams: [`urn:li:schemaField:(${COUNTS},orders)`],
        transformOperation: 'DIRECT:AGGREGATION',
        confidenceScore: 0.5,
      },
    ]);
    // Column lineage stays on the job, as the ecosystem keeps it: no dataset gets an upstreamLineage.
    expect(aspects.filter((a) => a.aspect === 'upstreamLineage')).toEqual([]);
  });

  it('writes the datasets it names with their keys, and a schema from the schema facet', () => {
    const aspects = mapOpenLineageEvent(run(runEvent()), settings());
    expect(find(aspects, ORDERS, 'datasetKey')).toEqual({
      platform: 'urn:li:dataPlatform:postgres',
      name: 'shop.public.orders',
      origin: 'PROD',
    });
    expect(find(aspects, COUNTS, 'status')).toEqual({ removed: false });
    const schema = find(aspects, ORDERS, 'schemaMetadata')!;
    expect(schema['fields']).toEqual([
      expect.objectContaining({
        fieldPath: 'id',
        nativeDataType: 'int',
        type: { type: { 'com.linkedin.schema.NumberType': {} } },
      }),
      expect.objectContaining({
        fieldPath: 'customer',
        type: { type: { 'com.linkedin.schema.StringType': {} } },
      }),
    ]);
  });

  it('records the run as a process instance of the job, its state by event type', () => {
    const started = mapOpenLineageEvent(run(runEvent()), settings());
    expect(find(started, DPI, 'dataProcessInstanceRelationships')).toMatchObject({ parentTemplate: JOB });
    expect(find(started, DPI, 'dataProcessInstanceInput')).toEqual({ inputs: [ORDERS] });
    expect(find(started, DPI, 'dataProcessInstanceOutput')).toEqual({ outputs: [COUNTS] });
    const time = Date.parse('2026-11-29T10:00:00.000Z');
    expect(find(started, DPI, 'dataProcessInstanceRunEvent')).toEqual({
      timestampMillis: time,
      status: 'STARTED',
    });
    const state = (eventType: RunEvent['eventType']) =>
      find(mapOpenLineageEvent(run(runEvent({ eventType })), settings()), DPI, 'dataProcessInstanceRunEvent');
    expect(state('COMPLETE')).toMatchObject({
      status: 'COMPLETE',
      result: { type: 'SUCCESS', nativeResultType: 'COMPLETE' },
    });
    expect(state('FAIL')).toMatchObject({
      status: 'COMPLETE',
      result: { type: 'FAILURE', nativeResultType: 'FAIL' },
    });
    expect(state('ABORT')).toMatchObject({
      status: 'COMPLETE',
      result: { type: 'FAILURE', nativeResultType: 'ABORT' },
    });
    expect(state('OTHER')).toBeUndefined();
  });

  it('maps a resent event to the same writes', () => {
    expect(mapOpenLineageEvent(run(runEvent()), settings())).toEqual(
      mapOpenLineageEvent(run(runEvent()), settings()),
    );
  });

  it('maps to values every aspect schema accepts', () => {
    for (const more of [{}, { usePatch: true, platformInstance: 'eu-1' }]) {
      for (const change of mapOpenLineageEvent(run(runEvent({ eventType: 'COMPLETE' })), settings(more))) {
        expect(() =>
          checkProposal({
            entityType: change.entityType,
            entityUrn: change.urn,
            changeType: change.changeType,
            aspectName: change.aspect,
            aspect: { contentType: 'application/json', value: JSON.stringify(change.value) },
          }),
        ).not.toThrow();
      }
    }
  });
});

describe('dataset identity', () => {
  const identityOf = (
    namespace: string,
    name: string,
    more: Partial<OpenLineageSettings> = {},
    facets = {},
  ) => {
    const aspects = mapOpenLineageEvent(
      run(runEvent({ inputs: [{ namespace, name, facets }], outputs: [] })),
      settings(more),
    );
    return aspects.find((a) => a.aspect === 'datasetKey')?.urn;
  };

  it('takes the platform from the namespace scheme, mapping the ecosystem renamed ones', () => {
    expect(identityOf('sqlserver://db:1433', 'sales.dbo.orders')).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:mssql,sales.dbo.orders,PROD)',
    );
    expect(identityOf('awsathena://athena.eu-west-1.amazonaws.com', 'db.t')).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:athena,db.t,PROD)',
    );
  });

  it('names a file system dataset by its path, on the platform of its scheme', () => {
    expect(identityOf('s3a://bucket', '/data/orders/')).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/data/orders,PROD)',
    );
    expect(identityOf('file', '/tmp/orders/dt=2026-01-01', { filePartitionPattern: '/dt=.*' })).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:file,/tmp/orders,PROD)',
    );
  });

  it('leaves out a dataset whose namespace and name give no name', () => {
    expect(identityOf('s3://', '')).toBeUndefined();
    expect(identityOf('file://', '/')).toBeUndefined();
    expect(identityOf('', 'orders')).toBeUndefined();
  });

  it('follows a TABLE symlink to the Glue or Hive table', () => {
    const glue = {
      symlinks: {
        ...FACET,
        identifiers: [{ namespace: 'arn:aws:glue:eu-west-1:123', name: 'table/db/orders', type: 'TABLE' }],
      },
    };
    expect(identityOf('s3://bucket', '/warehouse/orders', {}, glue)).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:glue,db.orders,PROD)',
    );
  });

  it('puts the environment and common platform instance of the settings on datasets', () => {
    expect(identityOf('bigquery', 'a.b', { env: 'DEV' })).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:bigquery,a.b,DEV)',
    );
    expect(
      identityOf('bigquery', 'a.b', {
        env: 'DEV',
        commonDatasetEnv: 'QA',
        commonDatasetPlatformInstance: 'eu',
      }),
    ).toBe('urn:li:dataset:(urn:li:dataPlatform:bigquery,eu.a.b,QA)');
  });
});

describe('the DATAHUB_OPENLINEAGE_* settings', () => {
  it('take the flow cluster from the environment, or the platform instance, which also gets its aspect', () => {
    expect(writesOf(mapOpenLineageEvent(run(runEvent()), settings({ env: 'DEV' })))).toContain(
      'dataFlowInfo urn:li:dataFlow:(airflow,orders_etl,dev)',
    );
    const aspects = mapOpenLineageEvent(run(runEvent()), settings({ env: 'DEV', platformInstance: 'eu-1' }));
    const flow = 'urn:li:dataFlow:(airflow,orders_etl,eu-1)';
    expect(find(aspects, flow, 'dataPlatformInstance')).toEqual({
      platform: 'urn:li:dataPlatform:airflow',
      instance: 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:airflow,eu-1)',
    });
  });

  it('name the orchestrator and pipeline before anything the event says', () => {
    const aspects = mapOpenLineageEvent(
      run(runEvent()),
      settings({ orchestrator: 'dagster', pipelineName: 'nightly' }),
    );
    expect(writesOf(aspects)).toContain(
      'dataJobInfo urn:li:dataJob:(urn:li:dataFlow:(dagster,nightly,prod),orders_etl.count_orders)',
    );
  });

  it('fall back to the producer, then to DATAHUB_OPENLINEAGE_PLATFORM or unknown, for the orchestrator', () => {
    const job = { namespace: 'prod', name: 'solo' };
    const airflow = runEvent({
      job,
      producer: 'https://github.com/apache/airflow/tree/providers-openlineage/2.0',
    });
    expect(writesOf(mapOpenLineageEvent(run(airflow), settings()))).toContain(
      'dataFlowInfo urn:li:dataFlow:(airflow,solo,prod)',
    );
    expect(writesOf(mapOpenLineageEvent(run(runEvent({ job })), settings()))).toContain(
      'dataFlowInfo urn:li:dataFlow:(unknown,solo,prod)',
    );
    expect(writesOf(mapOpenLineageEvent(run(runEvent({ job })), settings({ platform: 'custom' })))).toContain(
      'dataFlowInfo urn:li:dataFlow:(custom,solo,prod)',
    );
  });

  it('leave datasets unwritten without materialization and column lineage out without its capture', () => {
    const aspects = mapOpenLineageEvent(
      run(runEvent()),
      settings({ materializeDataset: false, captureColumnLevelLineage: false }),
    );
    expect(aspects.filter((a) => a.entityType === 'dataset')).toEqual([]);
    expect(find(aspects, JOB, 'dataJobInputOutput')!['fineGrainedLineages']).toEqual([]);
  });

  it('add the job edges with a patch when patches are asked for', () => {
    const io = mapOpenLineageEvent(run(runEvent()), settings({ usePatch: true })).find(
      (a) => a.aspect === 'dataJobInputOutput',
    )!;
    expect(io.changeType).toBe('PATCH');
    expect((io.value as { path: string }[]).map((op) => op.path)).toEqual([
      `/inputDatasetEdges/${ORDERS}`,
      `/outputDatasetEdges/${COUNTS}`,
      `/fineGrainedLineages/DIRECT:AGGREGATION/urn:li:schemaField:(${COUNTS},orders)/NONE/urn:li:schemaField:(${ORDERS},id)`,
    ]);
  });
});

describe('job and dataset events', () => {
  it('a job event writes the flow, the job and its lineage, and no process instance', () => {
    const { run: _run, eventType: _type, ...job } = runEvent();
    const aspects = mapOpenLineageEvent({ kind: 'JobEvent', event: job }, settings());
    expect(find(aspects, JOB, 'dataJobInputOutput')).toBeDefined();
    expect(aspects.filter((a) => a.entityType === 'dataProcessInstance')).toEqual([]);
  });

  it('a dataset event whose namespace names no platform puts it on the fallback platform', () => {
    const event = (namespace: string): OpenLineageEvent => ({
      kind: 'DatasetEvent',
      event: {
        eventTime: '2026-11-29T10:00:00Z',
        producer: PRODUCER,
        dataset: { namespace, name: 'orders' },
      },
    });
    expect(writesOf(mapOpenLineageEvent(event(''), settings()))).toEqual([
      'datasetKey urn:li:dataset:(urn:li:dataPlatform:unknown,orders,PROD)',
      'status urn:li:dataset:(urn:li:dataPlatform:unknown,orders,PROD)',
    ]);
    expect(
      writesOf(mapOpenLineageEvent(event('kafka://broker:9092'), settings({ materializeDataset: false }))),
    ).toEqual([
      'datasetKey urn:li:dataset:(urn:li:dataPlatform:kafka,orders,PROD)',
      'status urn:li:dataset:(urn:li:dataPlatform:kafka,orders,PROD)',
    ]);
  });
});
