import type { AspectSpec, EntitySpec, SearchFieldType } from '@catalog/model';

type Json = Record<string, unknown>;

/** One reference an aspect value holds to a urn, through one of its relationship annotations. */
export interface HeldReference {
  readonly aspect: string;
  readonly relationship: string;
  readonly path: string;
}

/**
 * The relationship annotations of `aspect` whose path holds `urn` in `value` (the ones the graph's
 * edges from this aspect to `urn` come from), one per (relationship, path).
 */
export function referencesIn(aspect: AspectSpec, value: unknown, urn: string): HeldReference[] {
  return aspect.relationships
    .filter((r) => holds(value, segmentsOf(r.path), urn))
    .map((r) => ({ aspect: aspect.name, relationship: r.name, path: r.path }));
}

/**
 * `value` without the references to `urn` at `paths` (relationship annotation paths: `/`-separated,
 * `*` every element of an array or value of a map, `$key` every key of a map). Inside an array the
 * element holding the reference is removed (a tag association from `tags/*\/tag`, a urn from
 * `upstreams/*`): the innermost array on the path loses the element. A reference outside any array
 * (`container`, `parentNode`) loses its field. The input is not modified.
 */
export function withoutReferences(value: Json, paths: readonly string[], urn: string): Json {
  let out: unknown = value;
  for (const path of paths) out = strip(out, segmentsOf(path), urn, false).value;
  return out as Json;
}

/** A search document field that holds the urns one relationship annotation points to. */
export interface ReferenceField {
  /** The referring entity type (whose search index holds the field). */
  readonly entityType: string;
  /** The document field (the searchable annotation's fieldName). */
  readonly field: string;
}

/** Field types whose document values are the strings found at the path (a urn stays itself). */
const STRING_FIELD_TYPES: ReadonlySet<SearchFieldType> = new Set([
  'URN',
  'URN_PARTIAL',
  'KEYWORD',
  'TEXT',
  'TEXT_PARTIAL',
  'WORD_GRAM',
]);

/**
 * Whether a relationship path and a searchable path reach the same values: the same segments (a
 * leading or doubled `/` aside), or the same but for a trailing `*` on one of them (`x/*` and `x`
 * both give the elements of an array at `x`).
 */
export function samePath(relationshipPath: string, searchablePath: string): boolean {
  const a = segmentsOf(relationshipPath);
  const b = segmentsOf(searchablePath);
  const trimmed = (s: string[]) => (s.length > 1 && s[s.length - 1] === '*' ? s.slice(0, -1) : s);
  const x = trimmed(a);
  const y = trimmed(b);
  return x.length === y.length && x.every((segment, i) => segment === y[i]);
}

/**
 * Where the search index keeps references to entities of `targetType`: for every searchable entity
 * type, the document fields whose searchable annotation sits on the path of a relationship annotation
 * (of the same aspect) that may point to `targetType` (globalTags `tags/*\/tag` → `tags`, glossaryTerms
 * `terms/*\/urn` → `glossaryTerms`, ownership `owners/*\/owner` → `owners`, domains `domains/*` →
 * `domains`). Those documents still name the urn after the graph lost its edges (a hard delete of the
 * target removes them both ways). One entry per (entity type, field), ordered by both.
 */
export function referenceSearchFields(targetType: string, entities: readonly EntitySpec[]): ReferenceField[] {
  const found = new Map<string, ReferenceField>();
  for (const entity of entities) {
    if (!entity.searchable) continue;
    for (const aspect of entity.aspects.values()) {
      if (aspect.kind !== 'versioned') continue;
      for (const relationship of aspect.relationships) {
        if (!relationship.entityTypes.includes(targetType)) continue;
        for (const field of aspect.searchable) {
          if (!STRING_FIELD_TYPES.has(field.type) || !samePath(relationship.path, field.path)) continue;
          found.set(`${entity.name}\u0000${field.fieldName}`, {
            entityType: entity.name,
            field: field.fieldName,
          });
        }
      }
    }
  }
  return [...found.values()].sort((x, y) => compare(x.entityType, y.entityType) || compare(x.field, y.field));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function isMap(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function holds(node: unknown, segments: readonly string[], urn: string): boolean {
  if (segments.length === 0) return node === urn || (Array.isArray(node) && node.includes(urn));
  const [head, ...rest] = segments;
  if (head === '*') {
    const items = Array.isArray(node) ? node : isMap(node) ? Object.values(node) : [];
    return items.some((item) => holds(item, rest, urn));
  }
  if (!isMap(node)) return false;
  if (head === '$key') return rest.length === 0 && Object.hasOwn(node, urn);
  return holds(node[head!], rest, urn);
}

/**
 * The node without the reference. `drop` says the node itself is (or, inside an array element, holds
 * through plain fields) the reference: the enclosing array element or map entry is then removed.
 */
function strip(
  node: unknown,
  segments: readonly string[],
  urn: string,
  inCollection: boolean,
): { value: unknown; drop: boolean } {
  if (segments.length === 0) {
    if (node === urn) return { value: node, drop: true };
    if (Array.isArray(node) && node.includes(urn))
      return { value: node.filter((item) => item !== urn), drop: false };
    return { value: node, drop: false };
  }
  const [head, ...rest] = segments;
  if (head === '*') {
    if (Array.isArray(node)) {
      const kept: unknown[] = [];
      for (const item of node) {
        const r = strip(item, rest, urn, true);
        if (!r.drop) kept.push(r.value);
      }
      return { value: kept, drop: false };
    }
    if (isMap(node)) {
      const kept: Json = {};
      for (const [key, item] of Object.entries(node)) {
        const r = strip(item, rest, urn, true);
        if (!r.drop) kept[key] = r.value;
      }
      return { value: kept, drop: false };
    }
    return { value: node, drop: false };
  }
  if (!isMap(node)) return { value: node, drop: false };
  if (head === '$key') {
    if (rest.length > 0 || !Object.hasOwn(node, urn)) return { value: node, drop: false };
    const { [urn]: _removed, ...kept } = node;
    return { value: kept, drop: false };
  }
  const key = head!;
  if (!Object.hasOwn(node, key)) return { value: node, drop: false };
  const r = strip(node[key], rest, urn, inCollection);
  if (r.drop) {
    if (inCollection) return { value: node, drop: true };
    const { [key]: _removed, ...kept } = node;
    return { value: kept, drop: false };
  }
  return r.value === node[key]
    ? { value: node, drop: false }
    : { value: { ...node, [key]: r.value }, drop: false };
}
