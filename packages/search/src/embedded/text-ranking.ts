import { compareCodePoints } from '../sort-values.js';
import type { PageRow } from './sqlite-page-rows.js';
import type { StatementCache } from './statement-cache.js';
import type { TextMatches } from './text-index-reader.js';

/**
 * The first `limit` matches in rank order (score descending, then urn ascending), without sorting the
 * match set: the limit-th best score is found with a bounded heap, and only the matches scoring at
 * least that (ties included) are read from `docs` and sorted.
 */
export function rankedPage(queries: StatementCache, matches: TextMatches, limit: number): PageRow[] {
  if (limit <= 0 || matches.n === 0) return [];
  const cutoff = kthBest(matches.scores, matches.n, limit);
  const chosen: number[] = [];
  const scoreOf = new Map<number, number>();
  for (let i = 0; i < matches.n; i++) {
    const score = matches.scores[i]!;
    if (score < cutoff) continue;
    chosen.push(matches.ids[i]!);
    scoreOf.set(matches.ids[i]!, score);
  }
  const rows = queries.all<{ id: number; urn: string }>(
    'SELECT id, urn FROM docs WHERE id IN (SELECT value FROM json_each(?))',
    [JSON.stringify(chosen)],
  );
  return rows
    .map((row) => ({ id: row.id, urn: row.urn, score: scoreOf.get(row.id) ?? 0 }))
    .sort((a, b) => b.score - a.score || compareCodePoints(a.urn, b.urn))
    .slice(0, limit);
}

/** The k-th highest of the first `n` scores (the lowest of them when there are fewer than k). */
export function kthBest(scores: Float64Array, n: number, k: number): number {
  if (n <= k) {
    let lowest = Infinity;
    for (let i = 0; i < n; i++) if (scores[i]! < lowest) lowest = scores[i]!;
    return lowest;
  }
  // A min-heap of the k best seen so far: its root is the k-th best.
  const heap = new Float64Array(k);
  for (let i = 0; i < k; i++) heap[i] = scores[i]!;
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(heap, i, k);
  for (let i = k; i < n; i++) {
    const score = scores[i]!;
    if (score <= heap[0]!) continue;
    heap[0] = score;
    siftDown(heap, 0, k);
  }
  return heap[0]!;
}

function siftDown(heap: Float64Array, from: number, size: number): void {
  let at = from;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= size) return;
    const right = left + 1;
    const child = right < size && heap[right]! < heap[left]! ? right : left;
    if (heap[child]! >= heap[at]!) return;
    const swap = heap[at]!;
    heap[at] = heap[child]!;
    heap[child] = swap;
    at = child;
  }
}
