import type { EntityDocument, SearchScalar } from '../port.js';
import type { ResolvedSpec } from './entity-specs.js';
import { META_FIELD, normalizePath, pathAncestors } from './field-paths.js';
import { asObject, asString, type JsonObject } from './narrow.js';

type FieldValue = SearchScalar | readonly SearchScalar[];

/**
 * The stored form of an entity document: its fields as they are (so getDocument returns them
 * unchanged), plus the adapter's own object: urn, entity type and, per browse-path field, the parent and
 * the ancestors of every path (the browse queries filter and aggregate on those keywords).
 */
export function encodeEntityDocument(document: EntityDocument, resolved: ResolvedSpec): JsonObject {
  const browse: JsonObject = {};
  for (const field of resolved.spec.fields) {
    if (field.type !== 'BROWSE_PATH' || field.aliasOf !== undefined) continue;
    const paths = stringsOf(document.fields[field.name]).map(normalizePath);
    if (paths.length === 0) continue;
    const parents = new Set<string>();
    const ancestors = new Set<string>();
    // The path is the folder the entity is listed in: its `parent` keyword; the folder and those
    // above it are its ancestors, which the groups of every level above count.
    for (const path of paths) {
      parents.add(path);
      for (const ancestor of pathAncestors(path)) ancestors.add(ancestor);
      ancestors.add(path);
    }
    setNested(browse, field.name, { parent: [...parents], ancestors: [...ancestors] });
  }
  return {
    ...document.fields,
    [META_FIELD]: { urn: document.urn, entityType: document.entityType, browse },
  };
}

export function decodeEntityDocument(source: unknown): EntityDocument {
  const stored = asObject(source, 'entity document');
  const meta = asObject(stored[META_FIELD], `${META_FIELD} of an entity document`);
  const fields: Record<string, FieldValue> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (name === META_FIELD) continue;
    if (isScalar(value)) fields[name] = value;
    else if (Array.isArray(value) && value.every(isScalar)) fields[name] = value;
  }
  return {
    urn: asString(meta['urn'], 'urn of an entity document'),
    entityType: asString(meta['entityType'], 'entityType of an entity document'),
    fields,
  };
}

export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

function isScalar(value: unknown): value is SearchScalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function setNested(target: JsonObject, name: string, value: unknown): void {
  const [head, ...rest] = name.split('.');
  if (head === undefined) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const inner: JsonObject =
    typeof target[head] === 'object' && target[head] !== null ? (target[head] as JsonObject) : {};
  target[head] = inner;
  setNested(inner, rest.join('.'), value);
}
