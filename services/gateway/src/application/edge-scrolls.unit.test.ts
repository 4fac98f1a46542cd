import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest, RequestContext } from '@catalog/auth';
import type { EdgeKey, EdgeScrollRequest, GraphIndex } from '@catalog/search';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { EdgeScrolls } from './edge-scrolls.js';

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const [ALPHA, ZETA, GAMMA, HIDDEN] = [dataset('alpha'), dataset('zeta'), dataset('gamma'), dataset('hidden')];
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,flow,PROD),job)';
const TAG = 'urn:li:tag:pii';

/** The stored edges, in the graph's order. */
const EDGES: EdgeKey[] = [
  { source: JOB, relationship: 'Consumes', target: ALPHA },
  { source: JOB, relationship: 'Produces', target: GAMMA },
  { source: HIDDEN, relationship: 'DownstreamOf', target: ALPHA },
  { source: ZETA, relationship: 'DownstreamOf', target: ALPHA },
  { source: ZETA, relationship: 'TaggedWith', target: TAG },
];

/** A graph answering from EDGES (urn matches only), recording what it was asked. */
function graph(asked: EdgeScrollRequest[]): GraphIndex {
  const key = (e: EdgeKey) => `${e.source}\u0000${e.relationship}\u0000${e.target}`;
  return {
    scrollEdges: async (request: EdgeScrollRequest) => {
      asked.push(request);
      const sorted = [...EDGES].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      return sorted
        .filter((e) => request.types.length === 0 || request.types.includes(e.relationship))
        .filter(
          (e) =>
            request.match.length === 0 ||
            request.match.some(
              (m) =>
                (m.source?.urns === undefined || m.source.urns.includes(e.source)) &&
                (m.target?.urns === undefined || m.target.urns.includes(e.target)),
            ),
        )
        .filter((e) => request.after === undefined || key(e) > key(request.after))
        .slice(0, request.count);
    },
  } as unknown as GraphIndex;
}

/** An actor that may read anything but HIDDEN. */
const policy = () =>
  new AccessPolicy({
    settings: { restApiAuthorization: true },
    authorizer: { isAllowed: async (r: AuthorizationRequest) => r.resourceUrn !== HIDDEN },
  } as unknown as GatewayAuth);

const ctx: RequestContext = {
  authentication: {
    actorUrn: 'urn:li:corpuser:jdoe',
    actorId: 'jdoe',
    method: 'session-token',
    isSystem: false,
  },
  origin: { sourceIp: '127.0.0.1', userAgent: 'test', eventSource: 'OPENAPI', traceId: '0'.repeat(32) },
};

describe('edge scrolls', () => {
  it('labels lineage edges with their upstream and downstream ends by the registry (Produces: the source is upstream)', async () => {
    const scrolls = new EdgeScrolls(graph([]), policy());
    const page = await scrolls.lineage(ctx, { types: [], urns: [JOB], count: 10 });
    expect(page.edges.map((e) => [e.relationship, e.upstream, e.downstream])).toEqual([
      ['Consumes', ALPHA, JOB],
      ['Produces', JOB, GAMMA],
    ]);
    const up = await scrolls.lineage(ctx, { types: [], urns: [JOB], direction: 'UPSTREAM', count: 10 });
    expect(up.edges.map((e) => e.upstream)).toEqual([ALPHA]);
    const down = await scrolls.lineage(ctx, { types: [], urns: [JOB], direction: 'DOWNSTREAM', count: 10 });
    expect(down.edges.map((e) => e.downstream)).toEqual([GAMMA]);
  });

  it('asks the graph for lineage relationships only, matching the urns at either end; TaggedWith is never lineage', async () => {
    const asked: EdgeScrollRequest[] = [];
    const scrolls = new EdgeScrolls(graph(asked), policy());
    const page = await scrolls.lineage(ctx, { types: [], urns: [ZETA], count: 10 });
    expect(page.edges.map((e) => e.relationship)).toEqual(['DownstreamOf']);
    expect(asked[0]?.types).toContain('DownstreamOf');
    expect(asked[0]?.types).not.toContain('TaggedWith');
    expect(asked[0]?.match).toEqual([{ source: { urns: [ZETA] } }, { target: { urns: [ZETA] } }]);
    expect(await scrolls.lineage(ctx, { types: ['TaggedWith'], urns: [ZETA], count: 10 })).toEqual({
      edges: [],
    });
  });

  it('leaves out edges with an end the actor may not read, and pages on the graph positions so nothing is skipped', async () => {
    const scrolls = new EdgeScrolls(graph([]), policy());
    const seen: string[] = [];
    let after: EdgeKey | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await scrolls.relationships(ctx, {
        direction: 'INCOMING',
        source: [{ urns: [ALPHA] }],
        destination: [],
        count: 1,
        ...(after ? { after } : {}),
      });
      seen.push(...page.edges.map((e) => e.source));
      if (page.next === undefined) break;
      after = page.next;
    }
    // HIDDEN --DownstreamOf--> ALPHA is left out; its page was empty but the scroll went on past it.
    expect(seen).toEqual([JOB, ZETA]);
    const system = { ...ctx, authentication: { ...ctx.authentication, isSystem: true } };
    const all = await scrolls.relationships(system, {
      direction: 'INCOMING',
      source: [{ urns: [ALPHA] }],
      destination: [],
      count: 10,
    });
    expect(all.edges.map((e) => e.source)).toEqual([JOB, HIDDEN, ZETA]);
    expect(all.next).toBeUndefined();
  });

  it('applies source and destination filters by direction: OUTGOING as given, INCOMING swapped, UNDIRECTED both', async () => {
    const asked: EdgeScrollRequest[] = [];
    const scrolls = new EdgeScrolls(graph(asked), policy());
    const request = { source: [{ urns: [ZETA] }], destination: [{ entityTypes: ['dataset'] }], count: 5 };
    await scrolls.relationships(ctx, { ...request, direction: 'OUTGOING' });
    await scrolls.relationships(ctx, { ...request, direction: 'INCOMING' });
    await scrolls.relationships(ctx, { ...request, direction: 'UNDIRECTED' });
    const outgoing = { source: { urns: [ZETA] }, target: { entityTypes: ['dataset'] } };
    const incoming = { source: { entityTypes: ['dataset'] }, target: { urns: [ZETA] } };
    expect(asked.map((a) => a.match)).toEqual([[outgoing], [incoming], [outgoing, incoming]]);
    expect(await scrolls.relationships(ctx, { ...request, types: [], direction: 'OUTGOING' })).toEqual({
      edges: [],
    });
  });

  it('refuses a count outside 1 to 10,000', async () => {
    const scrolls = new EdgeScrolls(graph([]), policy());
    await expect(scrolls.lineage(ctx, { types: [], urns: [], count: 0 })).rejects.toThrow(/count must be/);
    await expect(
      scrolls.relationships(ctx, { direction: 'OUTGOING', source: [], destination: [], count: 10_001 }),
    ).rejects.toThrow(/count must be/);
  });
});
