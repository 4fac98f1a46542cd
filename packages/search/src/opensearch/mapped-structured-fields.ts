import { STRUCTURED_PROPERTIES_PREFIX } from '../structured-property-fields.js';
import { isObject, type JsonObject } from './narrow.js';

const ROOT = STRUCTURED_PROPERTIES_PREFIX.slice(0, -1);

/**
 * The structured property document fields an entity index maps, read from its mappings (GET _mapping):
 * the leaves under the `structuredProperties` object, as `structuredProperties.<path>` (sub-fields such
 * as `.keyword` are part of a leaf, not fields of their own). Sorted.
 */
export function mappedStructuredFields(mappings: JsonObject): string[] {
  const root = objectProperties(mappings)?.[ROOT];
  const out: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (!isObject(node)) return;
    const type = node['type'];
    if (type !== undefined && type !== 'object' && type !== 'nested') {
      out.push(path);
      return;
    }
    for (const [name, child] of Object.entries(objectProperties(node) ?? {})) walk(child, `${path}.${name}`);
  };
  const top = objectProperties(root);
  if (top !== undefined) for (const [name, child] of Object.entries(top)) walk(child, `${ROOT}.${name}`);
  return out.sort();
}

/**
 * A copy of an entity index's mappings without these structured property fields; objects left empty
 * by a removal go too (`_versioned.<name>.<version>`), the `structuredProperties` object itself stays.
 */
export function withoutStructuredFields(mappings: JsonObject, fields: readonly string[]): JsonObject {
  const copy = structuredClone(mappings);
  const root = objectProperties(copy)?.[ROOT];
  for (const field of fields) {
    if (!field.startsWith(STRUCTURED_PROPERTIES_PREFIX)) continue;
    removePath(root, field.slice(STRUCTURED_PROPERTIES_PREFIX.length).split('.'));
  }
  return copy;
}

/** Removes the leaf at `path` under an object node; true when the node is left without properties. */
function removePath(node: unknown, path: readonly string[]): boolean {
  const inner = objectProperties(node);
  const [head, ...rest] = path;
  if (inner === undefined || head === undefined || !(head in inner)) return false;
  if (rest.length === 0 || removePath(inner[head], rest)) delete inner[head];
  return Object.keys(inner).length === 0;
}

function objectProperties(node: unknown): JsonObject | undefined {
  if (!isObject(node)) return undefined;
  const properties = node['properties'];
  return isObject(properties) ? properties : undefined;
}
