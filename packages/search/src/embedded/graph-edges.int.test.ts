import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EdgeReplacement, RelatedRequest } from '../port.js';
import { scratchSearchFiles } from './search-files.testing.js';

/**
 * The graph edges as urn and name ids (graph-edges-schema.ts): a file whose edges spell out their
 * texts is converted at open and answers as before; the urn dictionary keeps exactly the endpoints
 * some edge names.
 */

const dataset = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${n},PROD)`;
const tag = (n: number) => `urn:li:tag:t${n}`;
const user = (n: number) => `urn:li:corpuser:u${n}`;

function replacements(): EdgeReplacement[] {
  return Array.from({ length: 30 }, (_, k) => [
    {
      source: dataset(k),
      aspect: 'globalTags',
      edges: [0, 1, 2]
        .filter((t) => (k >> t) % 2 === 1)
        .map((t) => ({
          source: dataset(k),
          aspect: 'globalTags',
          relationship: 'TaggedWith',
          target: tag(t),
        })),
    },
    {
      source: dataset(k),
      aspect: 'ownership',
      edges: [
        {
          source: dataset(k),
          aspect: 'ownership',
          relationship: 'OwnedBy',
          target: user(k % 3),
          ...(k % 2 === 0 ? { createdAt: 1_000 + k, createdActor: user(9) } : {}),
        },
      ],
    },
    {
      source: dataset(k),
      aspect: 'upstreamLineage',
      edges:
        k === 0
          ? []
          : [
              {
                source: dataset(k),
                aspect: 'upstreamLineage',
                relationship: 'DownstreamOf',
                target: dataset(k - 1),
              },
            ],
    },
  ]).flat();
}

function requests(): RelatedRequest[] {
  return [
    { urn: tag(0), direction: 'INCOMING', types: ['TaggedWith'], start: 0, count: 100 },
    { urn: user(1), direction: 'INCOMING', types: [], start: 2, count: 4 },
    { urn: dataset(6), direction: 'OUTGOING', types: [], start: 0, count: 10 },
    { urn: dataset(6), direction: 'OUTGOING', types: ['OwnedBy', 'DownstreamOf'], start: 0, count: 10 },
    { urn: dataset(6), direction: 'INCOMING', types: ['DownstreamOf'], start: 0, count: 10 },
    { urn: user(0), direction: 'INCOMING', types: ['OwnedBy'], start: 0, count: 0 },
  ];
}

/** Makes the file as an older build left it: edges with their texts, no dictionaries. */
function toTextLayout(path: string): void {
  const raw = new Database(path);
  raw.exec(`
    CREATE TABLE edges_text (
      source TEXT NOT NULL,
      aspect TEXT NOT NULL,
      relationship TEXT NOT NULL,
      target TEXT NOT NULL,
      created_at INTEGER,
      created_actor TEXT,
      PRIMARY KEY (source, aspect, relationship, target)
    ) WITHOUT ROWID;
    INSERT INTO edges_text
      SELECT s.urn, a.name, r.name, t.urn, e.created_at, c.name FROM edges e
      JOIN edge_urns s ON s.id = e.source JOIN edge_names a ON a.id = e.aspect
      JOIN edge_names r ON r.id = e.relationship JOIN edge_urns t ON t.id = e.target
      LEFT JOIN edge_names c ON c.id = e.created_actor;
    DROP TABLE edges; DROP TABLE edge_urns; DROP TABLE edge_names;
    ALTER TABLE edges_text RENAME TO edges;
    CREATE INDEX edges_by_target ON edges (target, relationship, source);
  `);
  raw.close();
}

describe('embedded graph edges', () => {
  const { file, open, closeLast } = scratchSearchFiles('graph-edges');

  it('converts a file whose edges hold their urns as text at open, with the same answers', async () => {
    const path = file();
    const first = await open(path);
    await first.graph.replaceEdgesMany!(replacements());
    const before = await Promise.all(requests().map((r) => first.graph.related(r)));
    await closeLast();
    toTextLayout(path);

    const messages: string[] = [];
    const reopened = await open(path, messages);
    const after = await Promise.all(requests().map((r) => reopened.graph.related(r)));
    expect(before.every((r) => r.total > 0)).toBe(true);
    expect(before.some((r) => r.relationships.some((x) => x.created !== undefined))).toBe(true);
    expect(after).toEqual(before);
    expect(messages).toContain('search file converted: graph edges');
    // And it keeps working after the conversion.
    await reopened.graph.removeEntity(tag(0));
    expect((await reopened.graph.related(requests()[0]!)).total).toBe(0);
    const check = new Database(path, { readonly: true });
    const source = check.prepare("SELECT type FROM pragma_table_info('edges') WHERE name = 'source'").get();
    expect(source).toEqual({ type: 'INTEGER' });
    check.close();
  });

  it('keeps in the urn dictionary exactly the urns some edge names', async () => {
    const path = file();
    const { graph } = await open(path);
    const db = new Database(path, { readonly: true });
    const urns = () => db.prepare<[], string>('SELECT urn FROM edge_urns ORDER BY urn').pluck().all();
    const tagged = (k: number, tags: number[]) => ({
      source: dataset(k),
      aspect: 'globalTags',
      edges: tags.map((t) => ({
        source: dataset(k),
        aspect: 'globalTags',
        relationship: 'TaggedWith',
        target: tag(t),
      })),
    });
    await graph.replaceEdgesMany!([tagged(1, [1, 2]), tagged(2, [2])]);
    expect(urns()).toEqual([dataset(1), dataset(2), tag(1), tag(2)].sort());
    await graph.replaceEdges(dataset(1), 'globalTags', tagged(1, [3]).edges);
    expect(urns()).toEqual([dataset(1), dataset(2), tag(2), tag(3)].sort());
    await graph.replaceEdges(dataset(1), 'globalTags', []);
    expect(urns()).toEqual([dataset(2), tag(2)].sort());
    await graph.removeEntity(tag(2));
    expect(urns()).toEqual([]);
    db.close();
  });

  it('writes only the edges that changed: the same edges again leave the file as it was', async () => {
    const path = file();
    const { graph } = await open(path);
    const db = new Database(path, { readonly: true });
    const rows = () =>
      db
        .prepare(
          `SELECT s.urn AS source, r.name AS relationship, t.urn AS target, e.created_at AS at, a.name AS actor
           FROM edges e JOIN edge_urns s ON s.id = e.source JOIN edge_urns t ON t.id = e.target
           JOIN edge_names r ON r.id = e.relationship LEFT JOIN edge_names a ON a.id = e.created_actor
           ORDER BY 1, 2, 3`,
        )
        .all();
    const dataVersion = () => db.pragma('data_version', { simple: true }) as number;
    const owned = (targets: { t: number; at?: number; actor?: string }[]) =>
      targets.map(({ t, at, actor }) => ({
        source: dataset(1),
        aspect: 'globalTags',
        relationship: 'TaggedWith',
        target: tag(t),
        ...(at === undefined ? {} : { createdAt: at }),
        ...(actor === undefined ? {} : { createdActor: actor }),
      }));
    const first = owned([{ t: 1, at: 10, actor: 'urn:li:corpuser:a' }, { t: 2 }, { t: 3, at: 30 }]);
    await graph.replaceEdges(dataset(1), 'globalTags', first);
    const written = rows();
    const version = dataVersion();
    // Written again unchanged: no row changes, and nothing committed that another connection would see.
    await graph.replaceEdges(dataset(1), 'globalTags', first);
    expect(rows()).toEqual(written);
    expect(dataVersion()).toBe(version);
    // One edge gone, one added, one with another creation: exactly those change, the gone target's urn goes.
    await graph.replaceEdges(
      dataset(1),
      'globalTags',
      owned([{ t: 1, at: 11, actor: 'urn:li:corpuser:b' }, { t: 2 }, { t: 4 }]),
    );
    expect(rows()).toEqual([
      { source: dataset(1), relationship: 'TaggedWith', target: tag(1), at: 11, actor: 'urn:li:corpuser:b' },
      { source: dataset(1), relationship: 'TaggedWith', target: tag(2), at: null, actor: null },
      { source: dataset(1), relationship: 'TaggedWith', target: tag(4), at: null, actor: null },
    ]);
    expect(db.prepare('SELECT urn FROM edge_urns ORDER BY urn').pluck().all()).toEqual(
      [dataset(1), tag(1), tag(2), tag(4)].sort(),
    );
    db.close();
  });

  it('forgets a name id added by a batch that rolled back, which SQLite may give to another name', async () => {
    const path = file();
    const { graph } = await open(path);
    const edge = (k: number, relationship: string) => ({
      source: dataset(k),
      aspect: 'lineage',
      edges: [{ source: dataset(k), aspect: 'lineage', relationship, target: dataset(0) }],
    });
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER fail_batch BEFORE INSERT ON edge_urns WHEN NEW.urn LIKE '%failing%'
              BEGIN SELECT RAISE(ABORT, 'failing batch'); END`);
    // The batch adds the names `lineage` and `Feeds`, then fails.
    await expect(
      graph.replaceEdgesMany!([edge(1, 'Feeds'), { ...edge(2, 'Feeds'), source: 'urn:li:failing' }]),
    ).rejects.toThrow('failing batch');
    raw.exec('DROP TRIGGER fail_batch');
    raw.close();
    // The next new names take the ids the rolled-back ones had.
    await graph.replaceEdges(dataset(3), 'upstream', edge(3, 'Copies').edges);
    await graph.replaceEdges(dataset(1), 'lineage', edge(1, 'Feeds').edges);
    const incoming = await graph.related({
      urn: dataset(0),
      direction: 'INCOMING',
      types: [],
      start: 0,
      count: 10,
    });
    expect(incoming.relationships.map((r) => [r.entity, r.type])).toEqual(
      [
        [dataset(1), 'Feeds'],
        [dataset(3), 'Copies'],
      ].sort(),
    );
  });
});
