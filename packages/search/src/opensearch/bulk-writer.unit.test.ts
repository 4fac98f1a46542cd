import { describe, expect, it } from 'vitest';
import { BulkWriteError, runBulk, type BulkOperation } from './bulk-writer.js';

/** A bulk API that refuses the listed ids (400) and records the ids of every request it got. */
function fakeBulk(refused: ReadonlySet<string>) {
  const requests: string[][] = [];
  return {
    requests,
    bulk: async ({ body }: { body: Record<string, unknown>[] }) => {
      const ids: string[] = [];
      const items = body
        .filter((line) => 'index' in line || 'delete' in line)
        .map((line) => {
          const [action, meta] = Object.entries(line)[0] as [string, { _index: string; _id: string }];
          ids.push(meta._id);
          const status = refused.has(meta._id) ? 400 : 201;
          return {
            [action]: {
              _index: meta._index,
              _id: meta._id,
              status,
              ...(status === 400 ? { error: { type: 'mapper_parsing_exception', reason: 'bad value' } } : {}),
            },
          };
        });
      requests.push(ids);
      return { body: { errors: items.some((i) => Object.values(i)[0]!.status >= 300), items } };
    },
  };
}

const indexing = (n: number): BulkOperation[] =>
  Array.from({ length: n }, (_, i) => ({ action: 'index', index: 'docs', id: `d${i}`, document: { n: i } }));

describe('runBulk', () => {
  it('sends every chunk when an early one has a refused item, and lists every refused item', async () => {
    const client = fakeBulk(new Set(['d1', 'd5001']));
    const error = await runBulk(client as never, indexing(5_002), 'false').catch((e: unknown) => e);
    expect(client.requests.map((ids) => ids.length)).toEqual([5_000, 2]);
    expect(error).toBeInstanceOf(BulkWriteError);
    expect((error as BulkWriteError).failures.map((f) => f.id)).toEqual(['d1', 'd5001']);
  });

  it('ignores a delete of an absent document and resolves when nothing else failed', async () => {
    const client = {
      bulk: async () => ({
        body: { errors: true, items: [{ delete: { _index: 'docs', _id: 'gone', status: 404 } }] },
      }),
    };
    await expect(
      runBulk(client as never, [{ action: 'delete', index: 'docs', id: 'gone' }], 'false'),
    ).resolves.toBeUndefined();
  });
});
