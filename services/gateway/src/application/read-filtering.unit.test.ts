import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest, RequestContext } from '@catalog/auth';
import type { GraphIndex, SearchIndex, SearchRequest, TimeseriesIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { EntityPages } from './entity-pages.js';
import { EntityReads } from './entity-reads.js';
import { Relationships } from './relationships.js';
import { TimeseriesReads } from './timeseries-reads.js';

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const [OPEN, HIDDEN, ALSO_OPEN] = [dataset('open'), dataset('hidden'), dataset('also_open')];

/** An actor that may do anything but read HIDDEN. */
function policy(): AccessPolicy {
  const auth = {
    settings: { restApiAuthorization: true },
    authorizer: {
      isAllowed: async (request: AuthorizationRequest) => request.resourceUrn !== HIDDEN,
    },
  } as unknown as GatewayAuth;
  return new AccessPolicy(auth);
}

const ctx = (isSystem = false): RequestContext => ({
  authentication: {
    actorUrn: isSystem ? 'urn:li:corpuser:__datahub_system' : 'urn:li:corpuser:jdoe',
    actorId: isSystem ? '__datahub_system' : 'jdoe',
    method: 'session-token',
    isSystem,
  },
  origin: { sourceIp: '127.0.0.1', userAgent: 'test', eventSource: 'OPENAPI', traceId: '0'.repeat(32) },
});

const stored = (urn: string, aspect: string, value: Record<string, unknown> = {}): StoredAspect => ({
  urn,
  aspect,
  version: 0,
  value,
  systemMetadata: null,
  created: { time: 1, actor: 'urn:li:corpuser:datahub' },
});

function store(): AspectStore {
  const aspects = (urn: string) => [
    stored(urn, 'datasetProperties', { name: urn }),
    stored(urn, 'corpUserCredentials', { salt: 's', hashedPassword: 'h' }),
  ];
  return {
    getLatestMany: async (urns: readonly string[]) => new Map(urns.map((u) => [u, aspects(u)])),
  } as unknown as AspectStore;
}

describe('pages leave out the entities the actor may not read', () => {
  it('a list or scroll page keeps the readable entities, continues after the last hit searched, and returns no restricted aspect', async () => {
    const asked: SearchRequest[] = [];
    const search = {
      search: async (request: SearchRequest) => {
        asked.push(request);
        return {
          total: 7,
          hits: [OPEN, HIDDEN].map((urn) => ({
            urn,
            entityType: 'dataset',
            score: 1,
            matchedFields: [],
            sortValues: [urn],
          })),
          aggregations: [],
        };
      },
    } as unknown as SearchIndex;
    const access = policy();
    const pages = new EntityPages(search, access, new EntityReads(store(), access));
    const request = {
      entityTypes: ['dataset'],
      query: '',
      count: 2,
      sort: [],
      after: '',
      includeSoftDeleted: false,
      countEntityTypes: false,
      aspects: undefined,
    };
    const page = await pages.page(ctx(), request);
    expect(page.urns).toEqual([OPEN]);
    expect(page.aspects.get(OPEN)?.map((a) => a.aspect)).toEqual(['datasetProperties']);
    expect(page.aspects.has(HIDDEN)).toBe(false);
    expect(page.next).toEqual([HIDDEN]);
    expect(page.total).toBe(7);
    expect(asked[0]?.input).toBe('*');
    const urnsOnly = await pages.page(ctx(), { ...request, aspects: null });
    expect(urnsOnly.urns).toEqual([OPEN]);
    const system = await pages.page(ctx(true), request);
    expect(system.urns).toEqual([OPEN, HIDDEN]);
    expect(system.aspects.get(HIDDEN)?.map((a) => a.aspect)).toContain('corpUserCredentials');
  });

  it('relationships keep the readable related entities and page on what the graph covered', async () => {
    const graph = {
      related: async () => ({
        total: 3,
        relationships: [OPEN, HIDDEN, ALSO_OPEN].map((entity) => ({ type: 'DownstreamOf', entity })),
      }),
    } as unknown as GraphIndex;
    const page = await new Relationships(graph, policy()).related(ctx(), {
      urn: OPEN,
      direction: 'INCOMING',
      types: ['DownstreamOf'],
      start: 0,
      count: 3,
    });
    expect(page.relationships.map((r) => r.entity)).toEqual([OPEN, ALSO_OPEN]);
    expect(page.covered).toBe(3);
    expect(page.total).toBe(3);
  });

  it('a time-series scroll keeps the values of readable entities and resumes after the last value scanned', async () => {
    const value = (urn: string, at: number) => ({
      entityType: 'dataset',
      aspect: 'datasetProfile',
      urn,
      timestampMillis: at,
      id: `${at}`,
      value: { timestampMillis: at },
    });
    const timeseries = {
      query: async () => [value(OPEN, 3), value(HIDDEN, 2)],
    } as unknown as TimeseriesIndex;
    const page = await new TimeseriesReads(timeseries, policy()).scroll(ctx(), {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      count: 2,
    });
    expect(page.documents.map((d) => d.urn)).toEqual([OPEN]);
    expect(page.next).toEqual({ timestampMillis: 2, id: '2' });
  });
});
