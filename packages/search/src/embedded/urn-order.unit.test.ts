import { describe, expect, it } from 'vitest';
import { UrnOrder } from './urn-order.js';

let seed = 11;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

/** Ids 0..n-1 in a shuffled urn order: the position of each id in `byUrn`. */
function shuffledOrder(n: number): number[] {
  const byUrn = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [byUrn[i], byUrn[j]] = [byUrn[j]!, byUrn[i]!];
  }
  return byUrn;
}

describe('UrnOrder', () => {
  it('gives the first ids of a match set by rank, and every forgotten or unknown id apart', () => {
    const byUrn = shuffledOrder(500);
    const order = new UrnOrder(byUrn);
    const position = new Map(byUrn.map((id, at) => [id, at]));
    const forgotten = new Set([byUrn[0]!, byUrn[3]!, 77]);
    for (const id of forgotten) order.forget(id);
    for (let q = 0; q < 50; q++) {
      const ids = Array.from({ length: 600 }, (_, i) => i).filter(() => random() < 0.3);
      const limit = Math.floor(random() * 40);
      const { ranked, unranked } = order.candidates(Int32Array.from(ids), limit);
      const known = ids.filter((id) => id < 500 && !forgotten.has(id));
      const expected = known.sort((a, b) => position.get(a)! - position.get(b)!).slice(0, limit);
      expect(ranked).toEqual(expected);
      expect(unranked).toEqual(ids.filter((id) => id >= 500 || forgotten.has(id)));
    }
  });

  it('is stale once more documents changed than a 32nd of those ranked, and at least 4,096', () => {
    const order = new UrnOrder(shuffledOrder(200_000));
    for (let id = 0; id < 6_250; id++) order.forget(id);
    expect(order.stale).toBe(false);
    order.forget(6_250);
    expect(order.stale).toBe(true);

    const small = new UrnOrder(shuffledOrder(1_000));
    for (let k = 0; k < 4_096; k++) small.forget(k % 1_000);
    expect(small.stale).toBe(false);
    small.forget(0);
    expect(small.stale).toBe(true);
  });
});
