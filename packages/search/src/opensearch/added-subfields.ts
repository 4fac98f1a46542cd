import { isObject, type JsonObject } from './narrow.js';

/**
 * The `_meta` key under which an index lists the subfields a mapping update added to fields it already
 * mapped, while its documents are being given them (see AliasedIndices.ensure). Present only between
 * the mapping update and the end of that backfill: an ensure that finds it (a process stopped midway)
 * runs the backfill again.
 */
export const PENDING_SUBFIELDS_META = 'catalogPendingSubfields';

/**
 * The paths (`urn.delimited`) of the subfields (`fields` of a mapped field) that `wanted` declares on
 * fields `existing` already maps without them. OpenSearch indexes a subfield added by a mapping update
 * only for the documents written after it: those already in the index lack it until rewritten. New
 * fields are not listed (no document of the index holds a mapped value for them).
 */
export function addedSubfields(wanted: unknown, existing: unknown, prefix = ''): string[] {
  if (!isObject(wanted) || !isObject(existing)) return [];
  const added: string[] = [];
  for (const [name, want] of Object.entries(wanted)) {
    const have = existing[name];
    if (!isObject(want) || !isObject(have)) continue;
    const path = `${prefix}${name}`;
    if (isObject(want['properties']))
      added.push(...addedSubfields(want['properties'], have['properties'], `${path}.`));
    if (!isObject(want['fields']) || have['type'] === undefined || have['type'] === 'object') continue;
    const haveFields = isObject(have['fields']) ? have['fields'] : {};
    for (const sub of Object.keys(want['fields']))
      if (haveFields[sub] === undefined) added.push(`${path}.${sub}`);
  }
  return added;
}

/** The pending subfields an index's `_meta` lists (see PENDING_SUBFIELDS_META). */
export function pendingSubfieldsOf(meta: unknown): string[] {
  if (!isObject(meta)) return [];
  const pending = meta[PENDING_SUBFIELDS_META];
  return Array.isArray(pending) ? pending.filter((p): p is string => typeof p === 'string') : [];
}

/** `_meta` without the pending list. */
export function withoutPendingSubfields(meta: unknown): JsonObject {
  if (!isObject(meta)) return {};
  const { [PENDING_SUBFIELDS_META]: _pending, ...rest } = meta;
  return rest;
}

/**
 * The documents that hold a value for the parent of some subfield but none for the subfield: those
 * indexed before it was mapped (the backfill rewrites them, in place, from their source).
 */
export function lackingSubfieldsQuery(paths: readonly string[]): JsonObject {
  return {
    bool: {
      should: paths.map((path) => ({
        bool: {
          filter: [{ exists: { field: path.slice(0, path.lastIndexOf('.')) } }],
          must_not: [{ exists: { field: path } }],
        },
      })),
      minimum_should_match: 1,
    },
  };
}
