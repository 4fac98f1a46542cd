/**
 * The slice an entity belongs to among `max` (SearchRequest.slice): Java's `String.hashCode` of the urn
 * (UTF-16 code units), mixed by MurmurHash3's 32-bit finalizer, sign bit dropped, modulo `max`. Every
 * adapter computes exactly this (the OpenSearch one in a Painless script over the urn keyword, whose
 * integer arithmetic wraps as Math.imul does), so both agree on every urn.
 */
export function sliceOfUrn(urn: string, max: number): number {
  let hash = 0;
  for (let i = 0; i < urn.length; i++) hash = (Math.imul(hash, 31) + urn.charCodeAt(i)) | 0;
  return (mix32(hash) & 0x7fffffff) % max;
}

/** MurmurHash3 fmix32: spreads the string hash's weak low bits (urns share long prefixes). */
function mix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, MIX_1);
  h ^= h >>> 13;
  h = Math.imul(h, MIX_2);
  h ^= h >>> 16;
  return h;
}

/** fmix32's constants 0x85ebca6b and 0xc2b2ae35 as signed 32-bit integers (Painless has no unsigned). */
export const MIX_1 = -2048144789;
export const MIX_2 = -1028477387;
