import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Edge, EdgeKey, EdgeScrollRequest, GraphIndex, RelatedRequest } from '@catalog/search';
import { uniqueNamespace } from './search-index-fixtures.js';

export interface GraphIndexUnderTest {
  readonly graph: GraphIndex;
  cleanup(): Promise<void>;
}

/**
 * The behaviour every GraphIndex adapter must show; a fresh, empty graph per test. `related` lists each
 * (type, entity) pair once, even when two aspects declare the same edge; it is ordered by entity, then
 * type, paged by start/count, with `total` before paging. Empty `types` means every type. `created` is
 * set when the edge carries both createdAt and createdActor (the earliest such edge).
 */
export function graphIndexContract(name: string, factory: () => Promise<GraphIndexUnderTest>): void {
  describe(`GraphIndex contract: ${name}`, () => {
    let underTest: GraphIndexUnderTest | undefined;
    const graph = (): GraphIndex => {
      if (underTest === undefined) throw new Error('graph not opened');
      return underTest.graph;
    };
    beforeEach(async () => {
      underTest = await factory();
      await underTest.graph.ensure();
      await underTest.graph.ensure();
    });
    afterEach(async () => {
      await underTest?.cleanup();
      underTest = undefined;
    });

    const ids = () => {
      const ns = uniqueNamespace();
      return {
        dataset: (n: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${ns}.${n},PROD)`,
        user: (n: string) => `urn:li:corpuser:${ns}_${n}`,
        tag: (n: string) => `urn:li:tag:${ns}_${n}`,
      };
    };
    const edge = (
      source: string,
      relationship: string,
      target: string,
      aspect: string,
      extra: Partial<Edge> = {},
    ): Edge => ({
      source,
      relationship,
      target,
      aspect,
      ...extra,
    });
    const related = async (request: Partial<RelatedRequest> & Pick<RelatedRequest, 'urn' | 'direction'>) => {
      await graph().refresh();
      return graph().related({ types: [], start: 0, count: 100, ...request });
    };
    const entities = async (request: Partial<RelatedRequest> & Pick<RelatedRequest, 'urn' | 'direction'>) =>
      (await related(request)).relationships.map((r) => `${r.type}:${r.entity}`);

    it('answers outgoing and incoming edges, filtered by one or several types', async () => {
      const u = ids();
      const d = u.dataset('orders');
      await graph().replaceEdges(d, 'ownership', [edge(d, 'OwnedBy', u.user('alice'), 'ownership')]);
      await graph().replaceEdges(d, 'globalTags', [edge(d, 'TaggedWith', u.tag('pii'), 'globalTags')]);
      await graph().replaceEdges(d, 'upstreamLineage', [
        edge(d, 'DownstreamOf', u.dataset('raw'), 'upstreamLineage'),
      ]);
      expect(await entities({ urn: d, direction: 'OUTGOING', types: ['OwnedBy'] })).toEqual([
        `OwnedBy:${u.user('alice')}`,
      ]);
      expect(
        (await entities({ urn: d, direction: 'OUTGOING', types: ['OwnedBy', 'TaggedWith'] })).sort(),
      ).toEqual([`OwnedBy:${u.user('alice')}`, `TaggedWith:${u.tag('pii')}`].sort());
      expect(await entities({ urn: d, direction: 'OUTGOING' })).toHaveLength(3);
      expect(await entities({ urn: u.user('alice'), direction: 'INCOMING', types: ['OwnedBy'] })).toEqual([
        `OwnedBy:${d}`,
      ]);
      expect(await entities({ urn: u.user('alice'), direction: 'OUTGOING', types: ['OwnedBy'] })).toEqual([]);
      expect(await entities({ urn: u.user('alice'), direction: 'INCOMING', types: ['TaggedWith'] })).toEqual(
        [],
      );
    });

    it('replaces edges per (source, aspect), leaving other aspects and sources alone', async () => {
      const u = ids();
      const d = u.dataset('orders');
      const other = u.dataset('other');
      await graph().replaceEdges(d, 'ownership', [
        edge(d, 'OwnedBy', u.user('alice'), 'ownership'),
        edge(d, 'OwnedBy', u.user('bob'), 'ownership'),
      ]);
      await graph().replaceEdges(d, 'globalTags', [edge(d, 'TaggedWith', u.tag('pii'), 'globalTags')]);
      await graph().replaceEdges(other, 'ownership', [edge(other, 'OwnedBy', u.user('bob'), 'ownership')]);
      await graph().replaceEdges(d, 'ownership', [edge(d, 'OwnedBy', u.user('carol'), 'ownership')]);
      expect(await entities({ urn: d, direction: 'OUTGOING', types: ['OwnedBy'] })).toEqual([
        `OwnedBy:${u.user('carol')}`,
      ]);
      expect(await entities({ urn: d, direction: 'OUTGOING', types: ['TaggedWith'] })).toHaveLength(1);
      expect(await entities({ urn: u.user('bob'), direction: 'INCOMING' })).toEqual([`OwnedBy:${other}`]);
      await graph().replaceEdges(d, 'ownership', []);
      expect(await entities({ urn: d, direction: 'OUTGOING', types: ['OwnedBy'] })).toEqual([]);
    });

    it('replaces many (source, aspect) edge sets in one call, as if replaced in order', async () => {
      const many = graph().replaceEdgesMany?.bind(graph());
      if (many === undefined) return;
      const u = ids();
      const d = u.dataset('orders');
      const other = u.dataset('other');
      await graph().replaceEdges(d, 'ownership', [edge(d, 'OwnedBy', u.user('alice'), 'ownership')]);
      await graph().replaceEdges(d, 'globalTags', [edge(d, 'TaggedWith', u.tag('pii'), 'globalTags')]);
      await many([
        { source: d, aspect: 'ownership', edges: [edge(d, 'OwnedBy', u.user('bob'), 'ownership')] },
        { source: d, aspect: 'globalTags', edges: [] },
        { source: other, aspect: 'ownership', edges: [edge(other, 'OwnedBy', u.user('bob'), 'ownership')] },
        { source: d, aspect: 'ownership', edges: [edge(d, 'OwnedBy', u.user('carol'), 'ownership')] },
      ]);
      expect(await entities({ urn: d, direction: 'OUTGOING' })).toEqual([`OwnedBy:${u.user('carol')}`]);
      expect(await entities({ urn: u.user('bob'), direction: 'INCOMING' })).toEqual([`OwnedBy:${other}`]);
      await many([{ source: d, aspect: 'ownership', edges: [] }]);
      expect(await entities({ urn: d, direction: 'OUTGOING' })).toEqual([]);
      await many([]);
    });

    it('removes every edge from and to an entity', async () => {
      const u = ids();
      const a = u.dataset('a');
      const b = u.dataset('b');
      const c = u.dataset('c');
      await graph().replaceEdges(a, 'upstreamLineage', [edge(a, 'DownstreamOf', b, 'upstreamLineage')]);
      await graph().replaceEdges(b, 'upstreamLineage', [edge(b, 'DownstreamOf', c, 'upstreamLineage')]);
      await graph().replaceEdges(c, 'ownership', [edge(c, 'OwnedBy', u.user('x'), 'ownership')]);
      await graph().removeEntity(b);
      expect(await entities({ urn: a, direction: 'OUTGOING' })).toEqual([]);
      expect(await entities({ urn: c, direction: 'INCOMING' })).toEqual([]);
      expect(await entities({ urn: c, direction: 'OUTGOING' })).toHaveLength(1);
      await graph().removeEntity(u.dataset('never'));
    });

    it('lists an entity once per type when two aspects declare the same edge', async () => {
      const u = ids();
      const d = u.dataset('orders');
      const tag = u.tag('pii');
      await graph().replaceEdges(d, 'globalTags', [edge(d, 'TaggedWith', tag, 'globalTags')]);
      await graph().replaceEdges(d, 'editableSchemaMetadata', [
        edge(d, 'TaggedWith', tag, 'editableSchemaMetadata'),
      ]);
      const result = await related({ urn: tag, direction: 'INCOMING', types: ['TaggedWith'] });
      expect(result.total).toBe(1);
      expect(result.relationships).toEqual([{ type: 'TaggedWith', entity: d }]);
      await graph().replaceEdges(d, 'globalTags', []);
      expect(await entities({ urn: tag, direction: 'INCOMING', types: ['TaggedWith'] })).toEqual([
        `TaggedWith:${d}`,
      ]);
    });

    it('pages with start and count in a stable order and reports the total', async () => {
      const u = ids();
      const tag = u.tag('gold');
      const sources = Array.from({ length: 7 }, (_, i) => u.dataset(`t${i}`));
      for (const s of sources)
        await graph().replaceEdges(s, 'globalTags', [edge(s, 'TaggedWith', tag, 'globalTags')]);
      const all = await related({ urn: tag, direction: 'INCOMING', types: ['TaggedWith'] });
      expect(all.total).toBe(7);
      expect(all.relationships.map((r) => r.entity)).toEqual([...sources].sort());
      const pages: string[] = [];
      for (let start = 0; start < 7; start += 3) {
        const page = await related({
          urn: tag,
          direction: 'INCOMING',
          types: ['TaggedWith'],
          start,
          count: 3,
        });
        expect(page.total).toBe(7);
        pages.push(...page.relationships.map((r) => r.entity));
      }
      expect(pages).toEqual(all.relationships.map((r) => r.entity));
      expect((await related({ urn: tag, direction: 'INCOMING', start: 10, count: 3 })).relationships).toEqual(
        [],
      );
    });

    it('reports who created an edge and when', async () => {
      const u = ids();
      const d = u.dataset('orders');
      const actor = u.user('ingest');
      await graph().replaceEdges(d, 'ownership', [
        edge(d, 'OwnedBy', u.user('alice'), 'ownership', { createdAt: 1234, createdActor: actor }),
      ]);
      const result = await related({ urn: d, direction: 'OUTGOING', types: ['OwnedBy'] });
      expect(result.relationships).toEqual([
        { type: 'OwnedBy', entity: u.user('alice'), created: { time: 1234, actor } },
      ]);
    });
    /** Every edge of the scroll, a page of `count` at a time from each page's last edge. */
    const scrollAll = async (request: Omit<EdgeScrollRequest, 'count' | 'after'>, count: number) => {
      await graph().refresh();
      const out: EdgeKey[] = [];
      let after: EdgeKey | undefined;
      for (let round = 0; round < 50; round++) {
        const page = await graph().scrollEdges({ ...request, count, ...(after ? { after } : {}) });
        out.push(...page);
        if (page.length < count) return out;
        after = page[page.length - 1];
      }
      throw new Error('the edge scroll did not end');
    };
    const key = (source: string, relationship: string, target: string): EdgeKey => ({
      source,
      relationship,
      target,
    });

    it('scrolls edges in (source, relationship, target) byte order, each once however many aspects declared it', async () => {
      const u = ids();
      const rel = `Rel${uniqueNamespace()}`;
      const a = u.dataset('a');
      const b = u.dataset('b');
      const c = u.dataset('c');
      await graph().replaceEdges(b, 'upstreamLineage', [edge(b, rel, a, 'upstreamLineage')]);
      await graph().replaceEdges(b, 'other', [edge(b, rel, a, 'other'), edge(b, rel, c, 'other')]);
      await graph().replaceEdges(a, 'ownership', [edge(a, rel, u.user('z'), 'ownership')]);
      await graph().replaceEdges(c, 'globalTags', [edge(c, rel, u.tag('t'), 'globalTags')]);
      const expected = [key(a, rel, u.user('z')), key(b, rel, a), key(b, rel, c), key(c, rel, u.tag('t'))];
      expect(await scrollAll({ types: [rel], match: [] }, 100)).toEqual(expected);
      // A page at a time, resuming strictly after the last edge: nothing repeated, nothing skipped.
      expect(await scrollAll({ types: [rel], match: [] }, 1)).toEqual(expected);
      expect(await scrollAll({ types: [rel], match: [] }, 3)).toEqual(expected);
    });

    it('scrolls edges matching any alternative of source and target urns and entity types', async () => {
      const u = ids();
      const rel = `Rel${uniqueNamespace()}`;
      const other = `Other${uniqueNamespace()}`;
      const a = u.dataset('a');
      const b = u.dataset('b');
      const alice = u.user('alice');
      await graph().replaceEdges(b, 'upstreamLineage', [edge(b, rel, a, 'upstreamLineage')]);
      await graph().replaceEdges(a, 'ownership', [edge(a, other, alice, 'ownership')]);
      const both = [rel, other];
      expect(await scrollAll({ types: both, match: [{ source: { urns: [b] } }] }, 10)).toEqual([
        key(b, rel, a),
      ]);
      expect(await scrollAll({ types: both, match: [{ target: { urns: [a] } }] }, 10)).toEqual([
        key(b, rel, a),
      ]);
      // Either endpoint: the urn as source or as target.
      expect(
        await scrollAll({ types: both, match: [{ source: { urns: [a] } }, { target: { urns: [a] } }] }, 10),
      ).toEqual([key(a, other, alice), key(b, rel, a)]);
      expect(
        await scrollAll({ types: both, match: [{ target: { entityTypes: ['corpuser'] } }] }, 10),
      ).toEqual([key(a, other, alice)]);
      expect(
        await scrollAll({ types: both, match: [{ source: { urns: [a, b], entityTypes: ['dataset'] } }] }, 10),
      ).toEqual([key(a, other, alice), key(b, rel, a)]);
      expect(await scrollAll({ types: [other], match: [{ source: { urns: [b] } }] }, 10)).toEqual([]);
      expect(await scrollAll({ types: both, match: [{ source: { urns: [] } }] }, 10)).toEqual([]);
      expect(await scrollAll({ types: both, match: [{ source: { entityTypes: ['chart'] } }] }, 10)).toEqual(
        [],
      );
      // A removed entity's edges are gone from the scroll.
      await graph().removeEntity(a);
      expect(await scrollAll({ types: both, match: [] }, 10)).toEqual([]);
    });
  });
}
