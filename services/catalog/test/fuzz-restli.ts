/**
 * Valid bodies of the Rest.li actions whose document entry has no example per action, keyed
 * `<METHOD> <route>`; the fuzz suite mutates them. Urns here are the ones the generators also use, so
 * reads, writes and deletes meet the same entities.
 */
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,fuzz.e0,PROD)';
const CHART = 'urn:li:chart:(looker,e1)';

function proposal(
  urn: string,
  aspectName: string,
  value: unknown,
  changeType = 'UPSERT',
): Record<string, unknown> {
  return {
    entityType: urn.split(':')[2],
    entityUrn: urn,
    changeType,
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    systemMetadata: { runId: 'fuzz-run', lastObserved: 1_700_000_000_000 },
  };
}

const PROPOSALS = [
  proposal(DATASET, 'status', { removed: false }),
  proposal(DATASET, 'datasetProperties', { description: 'fuzzed', customProperties: { a: 'b' } }),
  proposal(DATASET, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
  proposal(DATASET, 'ownership', {
    owners: [{ owner: 'urn:li:corpuser:datahub', type: 'DATAOWNER' }],
    lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
  }),
  proposal(DATASET, 'datasetProfile', { timestampMillis: 1_700_000_000_000, rowCount: 3 }),
  proposal(CHART, 'chartInfo', {
    title: 't',
    description: 'd',
    lastModified: {
      created: { time: 0, actor: 'urn:li:corpuser:datahub' },
      lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
    },
  }),
  {
    entityType: 'dataset',
    entityUrn: DATASET,
    changeType: 'PATCH',
    aspectName: 'globalTags',
    aspect: {
      value: JSON.stringify([
        { op: 'add', path: '/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } },
      ]),
      contentType: 'application/json-patch+json',
    },
  },
  { ...proposal(DATASET, 'status', {}), changeType: 'DELETE', aspect: undefined },
];

export const RESTLI_SEEDS: ReadonlyMap<string, readonly { action: string; body: unknown }[]> = new Map([
  [
    'POST /aspects',
    [
      ...PROPOSALS.map((p) => ({ action: 'ingestProposal', body: { proposal: p, async: 'false' } })),
      { action: 'ingestProposal', body: { proposal: PROPOSALS[1], async: 'true' } },
      { action: 'ingestProposalBatch', body: { proposals: PROPOSALS.slice(0, 4), async: 'false' } },
      {
        action: 'getTimeseriesAspectValues',
        body: {
          urn: DATASET,
          entity: 'dataset',
          aspect: 'datasetProfile',
          startTimeMillis: 0,
          endTimeMillis: 1_800_000_000_000,
          limit: 10,
        },
      },
    ],
  ],
  [
    'POST /runs',
    [
      { action: 'list', body: { pageOffset: 0, pageSize: 10, includeSoft: true } },
      { action: 'describe', body: { runId: 'fuzz-run', start: 0, count: 10, includeAspect: true } },
      { action: 'rollback', body: { runId: 'fuzz-run-none', dryRun: true, hardDelete: false, safe: true } },
    ],
  ],
  [
    'POST /gms/test',
    [
      { action: 'evaluate', body: { urn: DATASET, push: false } },
      { action: 'batchEvaluate', body: { urns: [DATASET, CHART], push: false } },
    ],
  ],
  [
    'POST /operations',
    [{ action: 'restoreIndices', body: { urn: DATASET, aspect: 'status', start: 0, batchSize: 10 } }],
  ],
]);
