import type { GraphIndex } from '@catalog/search';
import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { Incidents, type IncidentInfo } from './incidents.js';
import { Relationships } from './relationships.js';

const ADMIN = 'urn:li:corpuser:admin';
const STEWARD = 'urn:li:corpuser:steward';
const NOBODY = 'urn:li:corpuser:nobody';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:kafka,incidents,PROD)';

function setup() {
  const store = new MemoryStore().put(DATASET, 'datasetKey', {
    platform: 'urn:li:dataPlatform:kafka',
    name: 'incidents',
    origin: 'PROD',
  });
  const deps = fakeApplicationDeps(
    (asked) =>
      asked.actorUrn === ADMIN ||
      (asked.actorUrn === STEWARD && asked.privileges.includes('EDIT_ENTITY_INCIDENTS')) ||
      asked.privileges.some((p) => p.startsWith('VIEW_ENTITY')),
    store,
  );
  // The graph: every stored incident's IncidentOn edges.
  const graph = {
    related: async (request: { urn: string }) => {
      const edges = [...store.entities]
        .filter(([, aspects]) =>
          ((aspects.get('incidentInfo') as IncidentInfo | undefined)?.entities ?? []).includes(request.urn),
        )
        .map(([urn]) => ({ type: 'IncidentOn', entity: urn }));
      return { total: edges.length, relationships: edges };
    },
  } as unknown as GraphIndex;
  const incidents = new Incidents(
    deps.stored,
    deps.policy,
    deps.proposals,
    new Relationships(graph, deps.policy),
  );
  return { ...deps, incidents };
}

describe('Incidents', () => {
  it('raising or resolving takes EDIT_ENTITY_INCIDENTS (or EDIT_ENTITY) on the asset, asked first', async () => {
    const { incidents, written } = setup();
    const input = { type: 'OPERATIONAL', title: 't', resourceUrn: DATASET, priority: 'CRITICAL' as const };
    await expect(incidents.raise(graphqlContext(NOBODY), input)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(written).toEqual([]);
    const urn = await incidents.raise(graphqlContext(STEWARD), input);
    expect(writesOf(written)).toEqual([`${urn} incidentInfo UPSERT`]);
    expect(written[0]?.value).toMatchObject({
      entities: [DATASET],
      priority: 0,
      status: { state: 'ACTIVE', lastUpdated: { actor: STEWARD } },
      source: { type: 'MANUAL' },
      created: { actor: STEWARD },
    });
    await expect(incidents.updateStatus(graphqlContext(NOBODY), urn, { state: 'RESOLVED' })).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    await incidents.updateStatus(graphqlContext(ADMIN), urn, { state: 'RESOLVED', message: 'fixed' });
    expect(written.at(-1)?.value).toMatchObject({
      status: { state: 'RESOLVED', message: 'fixed' },
      created: { actor: STEWARD },
    });
  });

  it('an asset lists its incidents, the newest first, and its health counts the active ones', async () => {
    const { incidents } = setup();
    const ctx = graphqlContext(ADMIN);
    expect(await incidents.health(ctx, DATASET)).toEqual({ active: 0, latest: undefined });
    const first = await incidents.raise(ctx, { id: 'first', type: 'OPERATIONAL', resourceUrn: DATASET });
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = await incidents.raise(ctx, { id: 'second', type: 'OPERATIONAL', resourceUrn: DATASET });
    await incidents.updateStatus(ctx, first, { state: 'RESOLVED' });
    const health = await incidents.health(ctx, DATASET);
    expect([health.active, health.latest?.urn]).toEqual([1, second]);
    const active = await incidents.forEntity(ctx, DATASET, { state: 'ACTIVE' }, 0, 10);
    expect(active.incidents.map((i) => i.urn)).toEqual([second]);
    expect((await incidents.forEntity(ctx, DATASET, {}, 0, 10)).total).toBe(2);
    await expect(
      incidents.raise(ctx, { id: 'first', type: 'OPERATIONAL', resourceUrn: DATASET }),
    ).rejects.toThrow('already exists');
  });
});
