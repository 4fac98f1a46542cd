import type { Type } from 'avsc';
import { keyLineages, unkeyLineages } from './fine-grained-lineage-keys.js';
import type { KeyedArray, PatchTemplate } from './patch-templates.js';
import { fieldType, itemTypeAt, scalarKindOf } from './record-shape.js';

const KEY_PATH_SEPARATOR = '\u241f';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Keys of keyed-array maps that were numbers in the elements (`{value: {double: 30}}` is keyed `30`), by
 * their number: a path may spell the number another way (the SDK writes a float as `30.0`) and still names
 * that element, instead of adding a second one.
 */
export type NumberKeys = WeakMap<object, Map<number, string>>;

/** What the transform keeps for the way back: lineages the keys cannot express, by their parent. */
export interface TransformState {
  readonly numberKeys: NumberKeys;
  readonly unkeyedLineages: WeakMap<object, Map<string, readonly unknown[]>>;
}

export const newTransformState = (): TransformState => ({
  numberKeys: new WeakMap(),
  unkeyedLineages: new WeakMap(),
});

/**
 * Turns a record into the form a patch addresses (in place): the template's fields put back, its keyed
 * arrays into nested maps, element fields by their own templates, fine-grained lineages by their keys.
 */
export function toPatchForm(
  node: Json,
  template: PatchTemplate,
  record: Type | undefined,
  state: TransformState,
  now: number,
): void {
  restore(node, template, now);
  for (const keyed of template.arrays) toMap(node, keyed, record, state, now);
  for (const field of template.fineGrainedLineages ?? []) {
    const { map, unkeyed } = keyLineages(node[field]);
    node[field] = map;
    const kept = state.unkeyedLineages.get(node) ?? new Map<string, readonly unknown[]>();
    state.unkeyedLineages.set(node, kept.set(field, unkeyed));
  }
}

/** Turns the patched form back into the record (in place), the inverse of `toPatchForm`. */
export function fromPatchForm(
  node: Json,
  template: PatchTemplate,
  record: Type | undefined,
  state: TransformState,
  now: number,
): void {
  restore(node, template, now);
  for (const keyed of template.arrays) toArray(node, keyed, record, state, now);
  for (const field of template.fineGrainedLineages ?? []) {
    if (!(field in node)) continue;
    node[field] = unkeyLineages(node[field], state.unkeyedLineages.get(node)?.get(field) ?? []);
  }
}

function restore(node: Json, template: PatchTemplate, now: number): void {
  if (template.restored === undefined) return;
  for (const [field, value] of Object.entries(template.restored(now)))
    if (node[field] === undefined || node[field] === null) node[field] = value;
}

/** The object holding the array's field, created along the path when missing (unless `create` is false). */
function parentOf(node: Json, path: readonly string[], create: boolean): Json | undefined {
  let parent = node;
  for (const step of path.slice(0, -1)) {
    const next = parent[step];
    if (!isObject(next)) {
      if (!create || (next !== undefined && next !== null)) return undefined;
      parent[step] = {};
    }
    parent = parent[step] as Json;
  }
  return parent;
}

/** The value an element is keyed by: a union value (`{string: "x"}`) is keyed by its member's value. */
function keyValueOf(element: unknown, key: string): unknown {
  let value: unknown = element;
  for (const step of key.split(KEY_PATH_SEPARATOR)) value = isObject(value) ? value[step] : undefined;
  if (isObject(value)) {
    const entries = Object.values(value);
    if (entries.length === 1) value = entries[0];
  }
  return value;
}

function toMap(
  node: Json,
  keyed: KeyedArray,
  record: Type | undefined,
  state: TransformState,
  now: number,
): void {
  const field = keyed.path[keyed.path.length - 1]!;
  const present = (parentOf(node, keyed.path, false) ?? {})[field];
  if (keyed.onlyWhenPresent === true && (present === undefined || present === null)) return;
  const parent = parentOf(node, keyed.path, true);
  if (parent === undefined) return;
  const array = parent[field];
  if (array !== undefined && array !== null && !Array.isArray(array)) return;
  const itemType = itemTypeAt(record, keyed.path);
  const map: Json = {};
  for (const element of array ?? []) {
    if (keyed.keys.length === 0) {
      map[typeof element === 'string' ? element : ''] = element;
      continue;
    }
    if (isObject(element))
      for (const [name, template] of Object.entries(keyed.elementFields ?? {}))
        if (isObject(element[name]))
          toPatchForm(element[name] as Json, template, fieldType(itemType, name), state, now);
    let level = map;
    keyed.keys.forEach((key, i) => {
      const value = keyValueOf(element, key);
      const k = value === undefined || value === null ? '' : String(value);
      if (typeof value === 'number') {
        const numbers = state.numberKeys.get(level) ?? new Map<number, string>();
        state.numberKeys.set(level, numbers.set(value, k));
      }
      if (i === keyed.keys.length - 1) level[k] = element;
      else level = (level[k] ??= {}) as Json;
    });
  }
  parent[field] = map;
}

function toArray(
  node: Json,
  keyed: KeyedArray,
  record: Type | undefined,
  state: TransformState,
  now: number,
): void {
  const field = keyed.path[keyed.path.length - 1]!;
  const parent = parentOf(node, keyed.path, keyed.onlyWhenPresent !== true);
  if (parent === undefined) return;
  const map = parent[field];
  if (Array.isArray(map)) return; // the patch replaced the whole field
  if (map === undefined || map === null) {
    if (keyed.onlyWhenPresent !== true) parent[field] = [];
    return;
  }
  if (!isObject(map)) return; // not an array either: validation names it
  const itemType = itemTypeAt(record, keyed.path);
  const elements = keyed.keys.length === 0 ? Object.values(map) : merge(map, keyed.keys, itemType);
  for (const element of elements)
    if (isObject(element))
      for (const [name, template] of Object.entries(keyed.elementFields ?? {}))
        if (isObject(element[name]))
          fromPatchForm(element[name] as Json, template, fieldType(itemType, name), state, now);
  parent[field] = elements;
}

/**
 * The elements of a keyed map, in map order; a leaf that is an array is expanded, and a scalar key field
 * that only the path named (a deep add such as `/editableSchemaFieldInfo/<field>/globalTags/...`) is put
 * into the element, as the ecosystem re-injects it.
 */
function merge(level: unknown, keys: readonly string[], itemType: Type | undefined): unknown[] {
  if (keys.length === 0) return Array.isArray(level) ? [...(level as unknown[])] : [level];
  const [key, ...rest] = keys as [string, ...string[]];
  if (Array.isArray(level)) return (level as unknown[]).flatMap((node) => merge(node, rest, itemType));
  if (!isObject(level)) return [];
  const kind = key.includes(KEY_PATH_SEPARATOR) ? undefined : scalarKindOf(itemType, key);
  const merged: unknown[] = [];
  for (const [k, child] of Object.entries(level)) {
    const elements = merge(child, rest, itemType);
    if (kind !== undefined && k !== '')
      for (const element of elements)
        if (isObject(element) && element[key] === undefined) element[key] = scalarOf(k, kind);
    merged.push(...elements);
  }
  return merged;
}

function scalarOf(key: string, kind: 'string' | 'number' | 'boolean'): unknown {
  if (kind === 'number' && key.trim() !== '' && Number.isFinite(Number(key))) return Number(key);
  if (kind === 'boolean' && (key === 'true' || key === 'false')) return key === 'true';
  return key;
}
