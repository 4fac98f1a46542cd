/**
 * Fine-grained lineages while a patch applies, as the ecosystem's template keys them:
 * `<transformOperation>/<downstream>/<query>/<upstream>` → `{confidenceScore, upstreamType, downstreamType}`,
 * with `NONE` for a missing operation or query. A patch adds or removes one upstream of one downstream;
 * afterwards each downstream and query becomes one lineage again, its confidence the lowest of its
 * upstreams'. Lineages with other than one downstream cannot be addressed by such a path: the ecosystem
 * refuses to patch an aspect holding one, here they are kept as they are, after the keyed ones.
 */
const NONE = 'NONE';
const DEFAULT_CONFIDENCE = 1.0;
const FIELD_SET = 'FIELD_SET';
const DATASET = 'DATASET';
const FIELD = 'FIELD';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface KeyedLineages {
  /** `op → downstream → query → upstream → leaf`. */
  readonly map: Json;
  /** Lineages the keys cannot express (not exactly one downstream), kept unchanged. */
  readonly unkeyed: readonly unknown[];
}

/** The map a patch addresses, from the stored lineages. */
export function keyLineages(lineages: unknown): KeyedLineages {
  const map: Json = {};
  const unkeyed: unknown[] = [];
  if (!Array.isArray(lineages)) return { map, unkeyed };
  for (const lineage of lineages) {
    const downstreams = isObject(lineage) ? lineage['downstreams'] : undefined;
    if (!isObject(lineage) || !Array.isArray(downstreams) || downstreams.length !== 1) {
      unkeyed.push(lineage);
      continue;
    }
    const upstreams = Array.isArray(lineage['upstreams']) ? (lineage['upstreams'] as unknown[]) : [];
    const first = upstreams[0];
    const upstreamType =
      typeof lineage['upstreamType'] === 'string'
        ? lineage['upstreamType']
        : typeof first === 'string' && first.startsWith('urn:li:dataset:')
          ? DATASET
          : FIELD_SET;
    const leaf = {
      confidenceScore:
        typeof lineage['confidenceScore'] === 'number' ? lineage['confidenceScore'] : DEFAULT_CONFIDENCE,
      upstreamType,
      downstreamType: typeof lineage['downstreamType'] === 'string' ? lineage['downstreamType'] : FIELD,
    };
    const op = typeof lineage['transformOperation'] === 'string' ? lineage['transformOperation'] : NONE;
    const query = typeof lineage['query'] === 'string' ? lineage['query'] : NONE;
    const byDownstream = (map[op] ??= {}) as Json;
    const byQuery = (byDownstream[String(downstreams[0])] ??= {}) as Json;
    const byUpstream = (byQuery[query] ??= {}) as Json;
    for (const upstream of upstreams) byUpstream[String(upstream)] = { ...leaf };
  }
  return { map, unkeyed };
}

/** The lineages again, from the patched map; an array the patch put in its place is kept as it is. */
export function unkeyLineages(patched: unknown, unkeyed: readonly unknown[]): unknown[] {
  if (Array.isArray(patched)) return patched;
  const lineages: unknown[] = [];
  if (isObject(patched)) {
    for (const [op, byDownstream] of Object.entries(patched)) {
      if (!isObject(byDownstream)) continue;
      for (const [downstream, byQuery] of Object.entries(byDownstream)) {
        if (!isObject(byQuery)) continue;
        for (const [query, byUpstream] of Object.entries(byQuery)) {
          if (!isObject(byUpstream) || Object.keys(byUpstream).length === 0) continue;
          lineages.push(lineageOf(op, downstream, query, byUpstream));
        }
      }
    }
  }
  return [...lineages, ...unkeyed];
}

function lineageOf(op: string, downstream: string, query: string, byUpstream: Json): Json {
  let confidenceScore = DEFAULT_CONFIDENCE;
  let upstreamType = FIELD_SET;
  let downstreamType = FIELD;
  for (const leaf of Object.values(byUpstream)) {
    if (!isObject(leaf)) continue;
    const score = leaf['confidenceScore'];
    if (typeof score === 'number' && score <= confidenceScore) confidenceScore = score;
    if (typeof leaf['upstreamType'] === 'string') upstreamType = leaf['upstreamType'];
    if (typeof leaf['downstreamType'] === 'string') downstreamType = leaf['downstreamType'];
  }
  return {
    downstreams: [downstream],
    upstreams: Object.keys(byUpstream),
    ...(query !== '' && query !== NONE ? { query } : {}),
    upstreamType,
    downstreamType,
    confidenceScore,
    transformOperation: op,
  };
}
