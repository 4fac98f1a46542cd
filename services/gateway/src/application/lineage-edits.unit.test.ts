import { describe, expect, it } from 'vitest';
import { ForbiddenError, ValidationError } from '@catalog/model';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { LineageEdits } from './lineage-edits.js';

const ds = (n: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD)`;
const CHART = 'urn:li:chart:(looker,c1)';
const DASHBOARD = 'urn:li:dashboard:(looker,d1)';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)';
const ALICE = 'urn:li:corpuser:alice';
const CHANGES = { created: { time: 1, actor: ALICE }, lastModified: { time: 1, actor: ALICE } };

function world() {
  const store = new MemoryStore()
    .put(ds('a'), 'datasetProperties', { name: 'a' })
    .put(ds('b'), 'upstreamLineage', {
      upstreams: [{ dataset: ds('old'), type: 'COPY', auditStamp: { time: 1, actor: 'urn:li:corpuser:x' } }],
    })
    .put(ds('old'), 'datasetProperties', { name: 'old' })
    .put(CHART, 'chartInfo', { title: 'c', description: '', inputs: [ds('old')], lastModified: CHANGES })
    .put(DASHBOARD, 'dashboardInfo', {
      title: 'd',
      description: '',
      charts: [],
      datasets: [],
      lastModified: CHANGES,
    })
    .put(JOB, 'dataJobInfo', { name: 'j', type: 'AIRFLOW' });
  return store;
}

describe('updateLineage', () => {
  it("adds a dataset's upstream with the actor and source UI, and removes another, in upstreamLineage", async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { '*': ['EDIT_LINEAGE'] } }, world());
    await new LineageEdits(deps.stored, deps.policy, deps.proposals).update(
      graphqlContext(ALICE),
      [{ downstreamUrn: ds('b'), upstreamUrn: ds('a') }],
      [{ downstreamUrn: ds('b'), upstreamUrn: ds('old') }],
    );
    const value = deps.store.entities.get(ds('b'))?.get('upstreamLineage') as {
      upstreams: Record<string, unknown>[];
    };
    expect(value.upstreams).toEqual([
      expect.objectContaining({
        dataset: ds('a'),
        type: 'TRANSFORMED',
        properties: { source: 'UI' },
        created: expect.objectContaining({ actor: ALICE }),
      }),
    ]);
  });

  it('puts edges in a chart, a dashboard and a job, and a job upstream of a dataset in the job outputs', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { '*': ['EDIT_ENTITY'] } }, world());
    await new LineageEdits(deps.stored, deps.policy, deps.proposals).update(
      graphqlContext(ALICE),
      [
        { downstreamUrn: CHART, upstreamUrn: ds('a') },
        { downstreamUrn: DASHBOARD, upstreamUrn: CHART },
        { downstreamUrn: JOB, upstreamUrn: ds('a') },
        { downstreamUrn: ds('b'), upstreamUrn: JOB },
      ],
      [{ downstreamUrn: CHART, upstreamUrn: ds('old') }],
    );
    const aspect = (urn: string, name: string) =>
      deps.store.entities.get(urn)?.get(name) as Record<string, unknown>;
    expect(aspect(CHART, 'chartInfo')['inputs']).toEqual([]);
    expect(aspect(CHART, 'chartInfo')['inputEdges']).toEqual([
      expect.objectContaining({ destinationUrn: ds('a'), sourceUrn: CHART, properties: { source: 'UI' } }),
    ]);
    expect(aspect(DASHBOARD, 'dashboardInfo')['chartEdges']).toEqual([
      expect.objectContaining({ destinationUrn: CHART }),
    ]);
    const io = aspect(JOB, 'dataJobInputOutput');
    expect(io['inputDatasetEdges']).toEqual([
      expect.objectContaining({ destinationUrn: ds('a'), sourceUrn: JOB }),
    ]);
    expect(io['outputDatasetEdges']).toEqual([
      expect.objectContaining({ destinationUrn: ds('b'), sourceUrn: JOB }),
    ]);
    // The dataset's own upstreamLineage does not take a job.
    expect(writesOf(deps.written).filter((w) => w.startsWith(ds('b')))).toEqual([]);
  });

  it('asks EDIT_LINEAGE or EDIT_ENTITY on both ends before anything is written', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { [ds('b')]: ['EDIT_LINEAGE'] } }, world());
    await expect(
      new LineageEdits(deps.stored, deps.policy, deps.proposals).update(
        graphqlContext(ALICE),
        [{ downstreamUrn: ds('b'), upstreamUrn: ds('a') }],
        [],
      ),
    ).rejects.toThrow(ForbiddenError);
    expect(deps.written).toEqual([]);
    expect(deps.asked.map((a) => [a.resourceUrn, a.privileges])).toContainEqual([
      ds('a'),
      ['EDIT_LINEAGE', 'EDIT_ENTITY'],
    ]);
  });

  it('refuses an entity that does not exist and an upstream of the wrong type, writing nothing', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { '*': ['EDIT_LINEAGE'] } }, world());
    const edits = new LineageEdits(deps.stored, deps.policy, deps.proposals);
    await expect(
      edits.update(graphqlContext(ALICE), [{ downstreamUrn: ds('b'), upstreamUrn: ds('nowhere') }], []),
    ).rejects.toThrow(/nowhere.*does not exist/);
    await expect(
      edits.update(graphqlContext(ALICE), [{ downstreamUrn: ds('b'), upstreamUrn: CHART }], []),
    ).rejects.toThrow(ValidationError);
    await expect(
      edits.update(graphqlContext(ALICE), [{ downstreamUrn: 'not a urn', upstreamUrn: ds('a') }], []),
    ).rejects.toThrow(ValidationError);
    expect(deps.written).toEqual([]);
  });
});
