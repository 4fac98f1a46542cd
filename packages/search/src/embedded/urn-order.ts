/**
 * The urn order of one entity type's live documents as a rank per document id, so that the first
 * page of a large match set (`*` with a filter: ordered by urn alone) is chosen in memory instead of
 * reading every match's `docs` row for its urn. At a million datasets those rows are gigabytes: a
 * page of a 50,000-document match set read as many pages of the file, 0.3 s and seconds when they were
 * not cached.
 *
 * Ranks are exact among the documents ranked when it was built. A document changed since (written,
 * removed, restored, deleted: its id may even be reused for another urn) loses its rank and is
 * "unranked"; pages read the urns of unranked matches from SQLite. Once unranked documents are many,
 * the owner rebuilds the order (see `stale`).
 */
export class UrnOrder {
  /** Per document id: its rank + 1 in urn order, or 0 when unranked. */
  private readonly rank: Int32Array;
  /** Documents that lost their rank since the build (an upper bound: counted once per change). */
  private forgotten = 0;
  /** How many documents were ranked. */
  readonly ranked: number;

  /** `ids` are the live documents' ids in urn order. */
  constructor(ids: ArrayLike<number>) {
    let max = 0;
    for (let i = 0; i < ids.length; i++) max = Math.max(max, ids[i]!);
    this.rank = new Int32Array(ids.length === 0 ? 0 : max + 1);
    for (let i = 0; i < ids.length; i++) this.rank[ids[i]!] = i + 1;
    this.ranked = ids.length;
  }

  /** The document changed: its rank, if it had one, no longer says where its urn is. */
  forget(id: number): void {
    this.forgotten++;
    if (id < this.rank.length) this.rank[id] = 0;
  }

  /**
   * Whether so many documents changed that a page would read many urns from SQLite: rebuilding costs
   * one pass over the urn index, about what reading a few thousand documents' urns does.
   */
  get stale(): boolean {
    return this.forgotten > Math.max(4_096, this.ranked / 32);
  }

  /**
   * The candidates for the first `limit` of `ids` in urn order: the `limit` ranked ids of lowest rank
   * (in rank order) and every unranked id. The first `limit` by urn are among them.
   */
  candidates(ids: ArrayLike<number>, limit: number): { ranked: number[]; unranked: number[] } {
    const { rank } = this;
    const rankOf = (id: number): number => (id < rank.length ? rank[id]! : 0);
    const unranked: number[] = [];
    // A max-heap by rank of the `limit` ranked ids of lowest rank seen so far.
    const heap: number[] = [];
    const above = (a: number, b: number): boolean => rank[heap[a]!]! > rank[heap[b]!]!;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const r = rankOf(id);
      if (r === 0) unranked.push(id);
      else if (heap.length < limit) {
        heap.push(id);
        siftUp(heap, heap.length - 1, above);
      } else if (limit > 0 && r < rank[heap[0]!]!) {
        heap[0] = id;
        siftDown(heap, 0, above);
      }
    }
    return { ranked: heap.sort((a, b) => rank[a]! - rank[b]!), unranked };
  }
}

type Above = (a: number, b: number) => boolean;

function siftUp(heap: number[], at: number, above: Above): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (!above(at, parent)) return;
    [heap[parent], heap[at]] = [heap[at]!, heap[parent]!];
    at = parent;
  }
}

function siftDown(heap: number[], at: number, above: Above): void {
  for (;;) {
    const left = 2 * at + 1;
    const right = left + 1;
    let largest = at;
    if (left < heap.length && above(left, largest)) largest = left;
    if (right < heap.length && above(right, largest)) largest = right;
    if (largest === at) return;
    [heap[largest], heap[at]] = [heap[at]!, heap[largest]!];
    at = largest;
  }
}
