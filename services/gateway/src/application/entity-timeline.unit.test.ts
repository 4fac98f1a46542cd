import { describe, expect, it } from 'vitest';
import { ForbiddenError, ValidationError } from '@catalog/model';
import type { RequestContext } from '@catalog/auth';
import type { SearchIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { fakeApplicationDeps, graphqlContext, type Grants } from './admin-fakes.testing.js';
import { EntityTimeline } from './entity-timeline.js';

type Json = Record<string, unknown>;

const DAY = 24 * 60 * 60 * 1000;
const NOW = 100 * DAY;
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:kafka,orders,PROD)';
const PROPERTY = 'urn:li:structuredProperty:io.acryl.retired';
const VIEWER = 'urn:li:corpuser:viewer';
const STRANGER = 'urn:li:corpuser:stranger';

/** A versioned store in memory: each write of an aspect is a version (0 the latest, 1 the first). */
class VersionedStore {
  readonly histories = new Map<string, { value: Json; time: number }[]>();
  readonly listed: string[] = [];

  write(urn: string, aspect: string, value: Json, time: number): this {
    const key = `${urn} ${aspect}`;
    this.histories.set(key, [...(this.histories.get(key) ?? []), { value, time }]);
    return this;
  }

  private versions(urn: string, aspect: string): StoredAspect[] {
    const history = this.histories.get(`${urn} ${aspect}`) ?? [];
    return history.map(({ value, time }, i) => ({
      urn,
      aspect,
      version: i === history.length - 1 ? 0 : i + 1,
      value,
      systemMetadata: null,
      created: { time, actor: 'urn:li:corpuser:writer' },
    }));
  }

  private latest(urn: string): StoredAspect[] {
    return [...this.histories.keys()]
      .filter((key) => key.startsWith(`${urn} `))
      .flatMap((key) => this.versions(urn, key.slice(urn.length + 1)).filter((v) => v.version === 0));
  }

  asPort(): AspectStore {
    const port: Partial<AspectStore> = {
      getLatest: async (urn) => this.latest(urn),
      get: async (urn, aspect, version = 0) =>
        this.versions(urn, aspect).find((v) => v.version === version) ?? null,
      listVersions: async (urn, aspect) => {
        this.listed.push(aspect);
        return this.versions(urn, aspect).sort((a, b) =>
          a.version === 0 ? -1 : b.version === 0 ? 1 : b.version - a.version,
        );
      },
      getLatestMany: async (urns, aspects) =>
        new Map(
          urns
            .map(
              (u) =>
                [
                  u,
                  this.latest(u).filter((a) => aspects === undefined || aspects.includes(a.aspect)),
                ] as const,
            )
            .filter(([, found]) => found.length > 0),
        ),
    };
    return port as AspectStore;
  }
}

const VIEW: Grants = { [VIEWER]: { '*': ['VIEW_ENTITY_PAGE'] } };

function timelineOver(store: VersionedStore, grants: Grants = VIEW, hits: readonly string[] = []) {
  const { policy } = fakeApplicationDeps(grants);
  const search = {
    search: async () => ({
      total: hits.length,
      hits: hits.map((urn) => ({ urn, entityType: 'dataset', score: 1, matchedFields: [] })),
      aggregations: [],
    }),
  } as unknown as SearchIndex;
  return new EntityTimeline(store.asPort(), search, policy, () => NOW);
}

const restContext = (actorUrn: string): RequestContext =>
  ({
    ...graphqlContext(actorUrn),
    origin: { eventSource: 'OPENAPI', sourceIp: '10.0.0.1', userAgent: 'test' },
  }) as RequestContext;

describe('EntityTimeline', () => {
  it('never reads a restricted aspect, not even for the version stamp', async () => {
    const store = new VersionedStore()
      .write(DATASET, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }] }, NOW - 1000)
      .write(DATASET, 'dataHubSecretValue', { name: 's', value: 'encrypted' }, NOW - 1000);
    const answer = await timelineOver(store).timeline(graphqlContext(VIEWER), {
      urn: DATASET,
      categories: [],
    });
    expect(store.listed).toEqual(['globalTags']);
    expect(answer.transactions[0]?.versionStamp).toBe('globalTags:0');
    expect(JSON.stringify(answer)).not.toContain('encrypted');
  });

  it('leaves out the values of a soft-deleted structured property, as every read does', async () => {
    const assigned = (value: string) => ({
      properties: [{ propertyUrn: PROPERTY, values: [{ string: value }] }],
    });
    const store = new VersionedStore()
      .write(DATASET, 'structuredProperties', assigned('alpha'), NOW - 2000)
      .write(DATASET, 'structuredProperties', assigned('beta'), NOW - 1000)
      .write(PROPERTY, 'status', { removed: true }, NOW - 500);
    const answer = await timelineOver(store).timeline(graphqlContext(VIEWER), {
      urn: DATASET,
      categories: ['STRUCTURED_PROPERTY'],
    });
    expect(answer.transactions.flatMap((t) => t.changeEvents)).toEqual([]);
    store.write(PROPERTY, 'status', { removed: false }, NOW - 100);
    const restored = await timelineOver(store).timeline(graphqlContext(VIEWER), {
      urn: DATASET,
      categories: ['STRUCTURED_PROPERTY'],
    });
    expect(restored.transactions.flatMap((t) => t.changeEvents.map((e) => e.operation))).toEqual([
      'ADD',
      'MODIFY',
    ]);
  });

  it('refuses an actor who may not view the entity, in the ecosystem’s words', async () => {
    const store = new VersionedStore().write(DATASET, 'globalTags', { tags: [] }, NOW);
    const refused = timelineOver(store).timeline(graphqlContext(STRANGER), {
      urn: DATASET,
      categories: ['TAG'],
    });
    await expect(refused).rejects.toThrow(ForbiddenError);
    await expect(refused).rejects.toThrow(`Unauthorized to view change history for entity: ${DATASET}`);
  });

  it('on REST, asks for the timeline privilege as well when REST authorization is on', async () => {
    const store = new VersionedStore().write(DATASET, 'globalTags', { tags: [] }, NOW);
    const policy = new AccessPolicy({
      settings: { restApiAuthorization: true },
      authorizer: {
        isAllowed: async (asked: { privileges: readonly string[] }) =>
          asked.privileges.includes('VIEW_ENTITY_PAGE'),
      },
    } as unknown as GatewayAuth);
    const timeline = new EntityTimeline(store.asPort(), {} as SearchIndex, policy, () => NOW);
    await expect(
      timeline.timeline(restContext(VIEWER), { urn: DATASET, categories: ['TAG'] }),
    ).rejects.toThrow(`${VIEWER} is unauthorized to get the timeline for entity ${DATASET}`);
  });

  it('looks back a week from the end by default, and from the epoch when asked to', async () => {
    const store = new VersionedStore()
      .write(DATASET, 'globalTags', { tags: [{ tag: 'urn:li:tag:old' }] }, NOW - 10 * DAY)
      .write(DATASET, 'globalTags', { tags: [{ tag: 'urn:li:tag:new' }] }, NOW - DAY);
    const timeline = timelineOver(store);
    const week = await timeline.timeline(graphqlContext(VIEWER), { urn: DATASET, categories: ['TAG'] });
    expect(week.transactions.map((t) => t.timestamp)).toEqual([NOW - DAY]);
    const all = await timeline.timeline(graphqlContext(VIEWER), {
      urn: DATASET,
      categories: ['TAG'],
      startTime: 0,
    });
    expect(all.transactions.map((t) => t.semVer)).toEqual(['0.0.0-computed', '0.1.0-computed']);
  });

  it('has no timeline for an entity type the ecosystem has none for', async () => {
    const timeline = timelineOver(new VersionedStore());
    await expect(
      timeline.timeline(graphqlContext('urn:li:corpuser:system', true), {
        urn: 'urn:li:corpuser:alice',
        categories: [],
      }),
    ).rejects.toThrow('Entity Type corpuser not supported');
    await expect(
      timeline.timeline(graphqlContext(VIEWER), { urn: 'not a urn', categories: [] }),
    ).rejects.toThrow(ValidationError);
  });

  it('merges a version set, counting the versions the actor may not read (refusing them on REST)', async () => {
    const versions = ['v1', 'v2', 'v3'].map((v) => `urn:li:dataset:(urn:li:dataPlatform:kafka,${v},PROD)`);
    const store = new VersionedStore();
    versions.forEach((urn, i) => {
      store.write(urn, 'datasetProperties', { description: `version ${i}` }, NOW - 1000 + i);
      store.write(
        urn,
        'versionProperties',
        { versionSet: 'urn:li:versionSet:(s,dataset)', version: { versionTag: `${i}` } },
        NOW - 1000 + i,
      );
    });
    const grants: Grants = {
      [VIEWER]: { [versions[1]!]: ['VIEW_ENTITY_PAGE'], [versions[2]!]: ['VIEW_ENTITY_PAGE'] },
    };
    const timeline = timelineOver(store, grants, versions);
    const query = { urn: versions[2]!, categories: ['DOCUMENTATION' as const], includeVersionSet: true };
    const merged = await timeline.timeline(graphqlContext(VIEWER), query, true);
    expect(merged.skippedVersionCount).toBe(1);
    expect(merged.transactions.map((t) => t.changeEvents[0]?.entityUrn)).toEqual([versions[1], versions[2]]);
    await expect(timeline.timeline(graphqlContext(VIEWER), query)).rejects.toThrow(ForbiddenError);
  });
});
