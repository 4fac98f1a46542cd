import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareText, pageInUrnOrder, type IdRow, type RowTexts } from './rows-by-ids.js';

/** Texts of ids as the caches give them: here a list, id - 1. */
function texts(names: readonly string[]): RowTexts {
  const cache = (list: readonly string[]) => ({ text: (id: number) => list[id - 1]! });
  return { aspectNames: cache(names), actors: cache(['urn:li:corpuser:a']) } as unknown as RowTexts;
}

const row = (urn: string, aspectId: number): IdRow => ({
  urn,
  aspect_id: aspectId,
  version: 0,
  metadata: '{}',
  system_metadata: null,
  created_on: 1,
  created_by: 1,
  created_for: null,
  created_message: null,
});

const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('rows read by ids', () => {
  it('orders texts as SQLite does (by UTF-8 bytes), past U+FFFF too', () => {
    expect(compareText('\u{1F600}', '\uFF01')).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareText(a, b))).toBe(Math.sign(utf8Order(a, b)));
      }),
    );
  });

  it('gives the page SQL ordering by URN and name would, reading no further than it needs', () => {
    // Entities in URN order, each with aspect ids in id order (as the primary key gives them).
    const entities = fc.uniqueArray(
      fc.tuple(fc.string({ minLength: 1 }), fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { minLength: 1 })),
      { selector: ([urn]) => urn },
    );
    const names = fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 3 }), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(
        entities,
        names,
        fc.nat(20),
        fc.integer({ min: 1, max: 20 }),
        fc.nat(30),
        (list, nameList, start, limit, cut) => {
          const sorted = [...list].sort(([a], [b]) => utf8Order(a, b));
          const rows = sorted.flatMap(([urn, ids]) =>
            [...ids].sort((a, b) => a - b).map((id) => row(urn, id)),
          );
          const all = rows
            .map((r) => ({ urn: r.urn!, aspect: nameList[r.aspect_id - 1]! }))
            .sort((a, b) => utf8Order(a.urn, b.urn) || utf8Order(a.aspect, b.aspect));
          const pick = (out: { urn: string; aspect: string }[]) =>
            out.map(({ urn, aspect }) => ({ urn, aspect }));
          let read = 0;
          const counted = function* () {
            for (const r of rows) {
              read += 1;
              yield r;
            }
          };
          expect(pick(pageInUrnOrder(counted(), texts(nameList), { start, limit }))).toEqual(
            all.slice(start, start + limit),
          );
          // Whole entities only, up to the one that fills the page (and one row of the next).
          const needed = all.slice(0, start + limit).length;
          expect(read).toBeLessThanOrEqual(Math.min(rows.length, needed + 6 + 1));
          // After a cursor: from its URN on, as the SQL reads them.
          const cursor = all[cut % Math.max(all.length, 1)];
          if (cursor === undefined) return;
          const from = rows.filter((r) => utf8Order(r.urn!, cursor.urn) >= 0);
          const after = all.filter(
            (r) =>
              utf8Order(r.urn, cursor.urn) > 0 ||
              (r.urn === cursor.urn && utf8Order(r.aspect, cursor.aspect) > 0),
          );
          expect(pick(pageInUrnOrder(from, texts(nameList), { after: cursor, start: 0, limit }))).toEqual(
            after.slice(0, limit),
          );
        },
      ),
    );
  });
});
