import avro from 'avsc';
import type { Type, types } from 'avsc';
import { aspectAvroType } from './avro-registry.js';

/**
 * Where an aspect's schema holds `double`/`float` values, so that those values can be written as the
 * ecosystem writes them: a double is always a double in its JSON (`30.0`, never `30`), which clients that
 * tell integers from floats (Python's json, deepdiff) see. Computed once per aspect; an aspect without
 * such fields has no shape and its values are handed back untouched, without a walk.
 */
export type DoubleShape =
  | { readonly kind: 'double' }
  | { readonly kind: 'record'; readonly fields: Map<string, DoubleShape> }
  | { readonly kind: 'array'; items: DoubleShape }
  | { readonly kind: 'map'; values: DoubleShape }
  | { readonly kind: 'union'; readonly branches: Map<string, DoubleShape> };

const DOUBLE: DoubleShape = { kind: 'double' };

/** A double with an integral value, written with a decimal point by `stringifyJson`. */
export class IntegralDouble {
  constructor(readonly value: number) {}
  /** Plain JSON.stringify sees a marker that `stringifyJson` turns into the number. */
  toJSON(): string {
    return `${MARK_OPEN}${NONCE}${decimalText(this.value)}${MARK_CLOSE}`;
  }
}

const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
// A per-process nonce: a client's own string cannot spell a marker it does not know.
const NONCE = Math.random().toString(36).slice(2, 10);
const MARKS = new RegExp(`"${MARK_OPEN}${NONCE}(-?[0-9.eE+-]+)${MARK_CLOSE}"`, 'g');

/** The number as a JSON double: integral values get `.0` (`30.0`), others stay as JavaScript writes them. */
function decimalText(value: number): string {
  const text = String(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

/**
 * JSON text of a response body; the integral doubles marked by `withDoubles` come out with a decimal point.
 * Bodies without marks cost one scan of the text for the marker character.
 */
export function stringifyJson(body: unknown): string {
  const text = JSON.stringify(body);
  if (text === undefined || !text.includes(MARK_OPEN)) return text;
  return text.replace(MARKS, '$1');
}

const shapes = new Map<string, DoubleShape | null>();

/** The places of an aspect's doubles, or undefined when it has none (or is unknown). */
export function doubleShapeOf(aspectName: string): DoubleShape | undefined {
  let shape = shapes.get(aspectName);
  if (shape === undefined) {
    const type = aspectAvroType(aspectName);
    shape = type === undefined ? null : (shapeOf(type, new Map()) ?? null);
    shapes.set(aspectName, shape);
  }
  return shape ?? undefined;
}

/**
 * The aspect value with each integral number at a double field replaced by an IntegralDouble (copied along
 * those paths only; the given value is not changed). The value itself when the aspect has no doubles.
 */
export function withDoubles<T>(aspectName: string, value: T): T {
  const shape = doubleShapeOf(aspectName);
  return shape === undefined ? value : (mark(shape, value) as T);
}

function mark(shape: DoubleShape, value: unknown): unknown {
  switch (shape.kind) {
    case 'double':
      return typeof value === 'number' && Number.isInteger(value) ? new IntegralDouble(value) : value;
    case 'array': {
      if (!Array.isArray(value)) return value;
      let out: unknown[] | undefined;
      value.forEach((item, i) => {
        const marked = mark(shape.items, item);
        if (marked !== item) (out ??= [...value])[i] = marked;
      });
      return out ?? value;
    }
    case 'map':
      return markEntries(value, () => shape.values);
    case 'record':
      return markEntries(value, (key) => shape.fields.get(key));
    case 'union':
      return markEntries(value, (key) => shape.branches.get(key));
  }
}

function markEntries(value: unknown, shapeAt: (key: string) => DoubleShape | undefined): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const inner = shapeAt(key);
    if (inner === undefined) continue;
    const marked = mark(inner, record[key]);
    if (marked !== record[key]) (out ??= { ...record })[key] = marked;
  }
  return out ?? value;
}

/**
 * The shape of a type, or undefined when it holds no double. Named records are memoized (a placeholder
 * while their fields are computed, so recursive schemas end); a record whose fields hold no double, even
 * through recursion, comes out undefined.
 */
function shapeOf(type: Type, records: Map<Type, DoubleShape | null>): DoubleShape | undefined {
  if (type instanceof avro.types.LogicalType) return shapeOf(type.underlyingType, records);
  switch (type.typeName) {
    case 'double':
    case 'float':
      return DOUBLE;
    case 'array': {
      const items = shapeOf((type as types.ArrayType).itemsType, records);
      return items === undefined ? undefined : { kind: 'array', items };
    }
    case 'map': {
      const values = shapeOf((type as types.MapType).valuesType as Type, records);
      return values === undefined ? undefined : { kind: 'map', values };
    }
    case 'union:wrapped':
    case 'union:unwrapped': {
      const members = (type as types.WrappedUnionType).types.filter((m) => m.typeName !== 'null');
      const only = members[0];
      // An optional value (`["null", T]`) is the bare T; other unions are keyed by their member.
      if (only !== undefined && members.length === 1) return shapeOf(only, records);
      const branches = new Map<string, DoubleShape>();
      for (const member of members) {
        const inner = shapeOf(member, records);
        if (inner !== undefined) branches.set(branchKey(member), inner);
      }
      return branches.size === 0 ? undefined : { kind: 'union', branches };
    }
    case 'record':
    case 'error':
      return recordShape(type as types.RecordType, records);
    default:
      return undefined;
  }
}

function recordShape(
  type: types.RecordType,
  records: Map<Type, DoubleShape | null>,
): DoubleShape | undefined {
  if (records.has(type)) return records.get(type) ?? undefined;
  if (!holdsDouble(type, new Set())) {
    records.set(type, null);
    return undefined;
  }
  const fields = new Map<string, DoubleShape>();
  const shape: DoubleShape = { kind: 'record', fields };
  records.set(type, shape);
  for (const field of type.fields) {
    const inner = shapeOf(field.type, records);
    if (inner !== undefined) fields.set(field.name, inner);
  }
  return shape;
}

/** Whether a double is reachable from the type (a depth-first search that does not enter a type twice). */
function holdsDouble(type: Type, seen: Set<Type>): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  if (type instanceof avro.types.LogicalType) return holdsDouble(type.underlyingType, seen);
  switch (type.typeName) {
    case 'double':
    case 'float':
      return true;
    case 'array':
      return holdsDouble((type as types.ArrayType).itemsType, seen);
    case 'map':
      return holdsDouble((type as types.MapType).valuesType as Type, seen);
    case 'union:wrapped':
    case 'union:unwrapped':
      return (type as types.WrappedUnionType).types.some((m) => holdsDouble(m, seen));
    case 'record':
    case 'error':
      return (type as types.RecordType).fields.some((f) => holdsDouble(f.type, seen));
    default:
      return false;
  }
}

/** The key naming a union member in JSON: its full name when named, else its type name. */
function branchKey(type: Type): string {
  if (type instanceof avro.types.LogicalType) return branchKey(type.underlyingType);
  return type.name ?? type.typeName;
}
