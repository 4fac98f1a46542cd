import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { entityRegistry } from '@catalog/model';
import { isSkipped, opensearchForTests } from '@catalog/testkit';
import { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { Edge, EntityDocument } from '../port.js';
import { openOpenSearch, type OpenSearchAdapters } from './open-opensearch.js';

const found = await opensearchForTests();
const skip = isSkipped(found) ? found.skip : undefined;
if (skip) console.warn(`[opensearch-projection-writer.int] skipped: ${skip}`);

const datasetSpec = indexSpecFor(entityRegistry.requireEntity('dataset'));
const prefix = `it_pw_${randomBytes(4).toString('hex')}`;
const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

function dataset(name: string, extra: Record<string, string | number> = {}): EntityDocument {
  const urn = urnOf(name);
  return {
    urn,
    entityType: 'dataset',
    fields: { urn, _entityType: 'dataset', removed: false, name, ...extra },
  };
}

function lineage(from: string, to: string): Edge {
  return { source: urnOf(from), relationship: 'DownstreamOf', target: urnOf(to), aspect: 'upstreamLineage' };
}

/** A pass-through HTTP proxy in front of the node that counts the bulk requests it forwards. */
async function countingProxy(node: string): Promise<{ url: string; bulks: () => number; close(): void }> {
  const target = new URL(node);
  let bulks = 0;
  const server: Server = createServer((incoming, outgoing) => {
    if (incoming.url?.split('?')[0]?.endsWith('/_bulk')) bulks += 1;
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bulks: () => bulks, close: () => server.close() };
}

describe.skipIf(skip !== undefined)(
  `OpenSearch projection writer${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let raw: Client;
    let proxy: Awaited<ReturnType<typeof countingProxy>>;
    let adapters: OpenSearchAdapters;

    beforeAll(async () => {
      if (isSkipped(found)) return;
      raw = new Client({ node: found.node });
      proxy = await countingProxy(found.node);
      adapters = await openOpenSearch({ node: proxy.url, indexPrefix: prefix, replicas: 0 });
      await adapters.search.ensureIndex(datasetSpec);
      await adapters.graph.ensure();
    });
    afterAll(async () => {
      await adapters?.close();
      proxy?.close();
      await raw?.indices.delete({ index: `${prefix}_*` }, { ignore: [404] });
      await raw?.close();
    });
    beforeEach(async () => {
      await adapters.search.upsert([dataset('gone')]);
    });

    const outgoing = async (name: string) => {
      await adapters.graph.refresh();
      const related = await adapters.graph.related({
        urn: urnOf(name),
        direction: 'OUTGOING',
        types: [],
        start: 0,
        count: 10,
      });
      return related.relationships.map((r) => r.entity).sort();
    };

    it('writes a batch of edges, upserts and deletes in one bulk request', async () => {
      const before = proxy.bulks();
      await adapters.projection.write({
        edges: [
          { source: urnOf('a'), aspect: 'upstreamLineage', edges: [lineage('a', 'b'), lineage('a', 'c')] },
        ],
        upserts: [dataset('a', { description: 'first' }), dataset('b')],
        deletes: [{ entityType: 'dataset', urn: urnOf('gone') }],
      });
      expect(proxy.bulks() - before).toBe(1);
      expect((await adapters.search.getDocument('dataset', urnOf('a')))?.fields['description']).toBe('first');
      expect(await adapters.search.getDocument('dataset', urnOf('b'))).not.toBeNull();
      expect(await adapters.search.getDocument('dataset', urnOf('gone'))).toBeNull();
      expect(await outgoing('a')).toEqual([urnOf('b'), urnOf('c')]);
    });

    it('replaces the edges an earlier batch wrote, before any refresh', async () => {
      const edges = (...to: string[]) => ({
        source: urnOf('r'),
        aspect: 'upstreamLineage',
        edges: to.map((t) => lineage('r', t)),
      });
      await adapters.projection.write({ edges: [edges('x', 'y')], upserts: [], deletes: [] });
      await adapters.projection.write({ edges: [edges('y', 'z')], upserts: [], deletes: [] });
      expect(await outgoing('r')).toEqual([urnOf('y'), urnOf('z')]);
    });

    it('indexes a document refused for a structured property value without its values, and the rest of the batch', async () => {
      await adapters.search.putStructuredProperties([
        {
          urn: 'urn:li:structuredProperty:io.pw.score',
          qualifiedName: 'io.pw.score',
          valueType: 'number',
          removed: false,
        },
      ]);
      await adapters.projection.write({
        edges: [{ source: urnOf('s'), aspect: 'upstreamLineage', edges: [lineage('s', 't')] }],
        upserts: [
          dataset('s', { 'structuredProperties.io_pw_score': 'many', description: 'kept' }),
          dataset('t', { 'structuredProperties.io_pw_score': 2 }),
        ],
        deletes: [],
      });
      const refused = await adapters.search.getDocument('dataset', urnOf('s'));
      expect(refused?.fields['description']).toBe('kept');
      expect(refused?.fields['structuredProperties.io_pw_score']).toBeUndefined();
      const accepted = await adapters.search.getDocument('dataset', urnOf('t'));
      expect(accepted?.fields['structuredProperties.io_pw_score']).toBeDefined();
      expect(await outgoing('s')).toEqual([urnOf('t')]);
    });

    it('fails the batch when a document is refused for anything but a structured property value', async () => {
      await expect(
        adapters.projection.write({
          edges: [{ source: urnOf('f'), aspect: 'upstreamLineage', edges: [lineage('f', 'g')] }],
          upserts: [dataset('fine'), dataset('bad', { removed: 'not a boolean' })],
          deletes: [],
        }),
      ).rejects.toThrow(/1 item\(s\) failed/);
    });
  },
);
