import type { SearchSlice } from '../port.js';
import { MIX_1, MIX_2 } from '../slice-of-urn.js';
import { URN_PATH } from './field-paths.js';
import type { Query } from './filter-query.js';

/**
 * sliceOfUrn in Painless, over the urn keyword: Java's String.hashCode is the one sliceOfUrn computes,
 * and int arithmetic wraps as Math.imul does.
 */
const SLICE_SCRIPT = `
if (doc[params.field].size() == 0) return false;
int h = doc[params.field].value.hashCode();
h ^= h >>> 16;
h *= ((Number) params.mix1).intValue();
h ^= h >>> 13;
h *= ((Number) params.mix2).intValue();
h ^= h >>> 16;
return (h & 2147483647) % ((Number) params.max).intValue() == ((Number) params.id).intValue();
`.trim();

/**
 * The documents of one slice. A search body may not carry OpenSearch's own `slice` outside a scroll or
 * point in time, and its slices follow shard routing, not the urn: this script query is the same
 * partition as the embedded adapter's (a script query needs `search.allow_expensive_queries`, on by
 * default).
 */
export function sliceQuery(slice: SearchSlice): Query {
  return {
    script: {
      script: {
        lang: 'painless',
        source: SLICE_SCRIPT,
        params: { field: URN_PATH, mix1: MIX_1, mix2: MIX_2, max: slice.max, id: slice.id },
      },
    },
  };
}
