import avro from 'avsc';
import type { Type, types } from 'avsc';
import { UrnType } from './schemas/urn-type.js';
import type { AspectSpec, FieldProblem, ValidationOutcome } from './types.js';

/**
 * Validates an aspect value as the ecosystem's clients send it (plain JSON, not Avro JSON) against the
 * aspect's schema, and returns the normalized value.
 *
 * - Optional fields (`["null", T]`) are the bare value, or absent, or null; absent and null come out absent.
 * - Any other union is a single-key object keyed by the member's fully qualified name (records, enums) or
 *   type name (`string`, `double`, `array`, `map`), and stays so in the output: that is also the read form.
 * - Unknown fields are dropped, at every depth: the ecosystem's own acceptance tests rely on it.
 * - A required field the client omits may stay absent when the schema gives it a default (the ecosystem
 *   validates with "can be absent if has default" and stores and returns only what the writer sent);
 *   without a default it is a problem. Readers take the default from the schema (`schemaDefaultOf`).
 * - URN fields (logical type `urn`) must parse as URNs.
 * Every problem is collected, each with the path of the offending field (`owners[0].owner`).
 */
export function validateAspect(spec: AspectSpec, value: unknown): ValidationOutcome {
  const problems: FieldProblem[] = [];
  const normalized = check(spec.schema, value, '', problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: normalized as Record<string, unknown> };
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

function check(type: Type, value: unknown, path: string, problems: FieldProblem[]): unknown {
  if (type instanceof UrnType) {
    if (typeof value !== 'string') return mismatch('urn string', value, path, problems);
    const problem = type.problemWith(value);
    if (problem) problems.push({ path, message: problem });
    return value;
  }
  switch (type.typeName) {
    case 'record':
    case 'error':
      return checkRecord(type as types.RecordType, value, path, problems);
    case 'enum': {
      const symbols = (type as types.EnumType).symbols;
      if (typeof value !== 'string') return mismatch(`enum ${type.name ?? ''}`.trim(), value, path, problems);
      if (!symbols.includes(value)) {
        problems.push({ path, message: `${JSON.stringify(value)} is not one of [${symbols.join(', ')}]` });
      }
      return value;
    }
    case 'array': {
      if (!Array.isArray(value)) return mismatch('array', value, path, problems);
      const items = (type as types.ArrayType).itemsType;
      return value.map((item, i) => check(items, item, `${path}[${i}]`, problems));
    }
    case 'map': {
      if (!isPlainObject(value)) return mismatch('map (object)', value, path, problems);
      const values = (type as types.MapType).valuesType as Type;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = check(values, v, keyPath(path, k), problems);
      return out;
    }
    case 'union:wrapped':
    case 'union:unwrapped':
      return checkUnion((type as types.WrappedUnionType).types, value, path, problems);
    case 'string':
    case 'bytes':
    case 'fixed':
      return typeof value === 'string' ? value : mismatch(type.typeName, value, path, problems);
    case 'boolean':
      return typeof value === 'boolean' ? value : mismatch('boolean', value, path, problems);
    case 'int':
      if (typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX)
        return value;
      return mismatch('int (32-bit integer)', value, path, problems);
    case 'long':
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      return mismatch('long (integer)', value, path, problems);
    case 'float':
    case 'double':
      return typeof value === 'number' && Number.isFinite(value)
        ? value
        : mismatch(type.typeName, value, path, problems);
    case 'null':
      return value === null ? null : mismatch('null', value, path, problems);
    default:
      problems.push({ path, message: `unsupported schema type ${type.typeName}` });
      return value;
  }
}

function checkRecord(
  type: types.RecordType,
  value: unknown,
  path: string,
  problems: FieldProblem[],
): unknown {
  if (!isPlainObject(value)) return mismatch(`object (${type.name ?? 'record'})`, value, path, problems);
  const out: Record<string, unknown> = {};
  for (const field of type.fields) {
    const fieldPath = path === '' ? field.name : `${path}.${field.name}`;
    const raw = value[field.name];
    if (raw === undefined || (raw === null && isNullable(field.type))) {
      if (!isNullable(field.type) && !hasDefault(field))
        problems.push({ path: fieldPath, message: 'missing required field' });
      continue;
    }
    const checked = check(field.type, raw, fieldPath, problems);
    if (checked !== null) out[field.name] = checked;
  }
  return out;
}

function checkUnion(
  members: readonly Type[],
  value: unknown,
  path: string,
  problems: FieldProblem[],
): unknown {
  const nonNull = members.filter((m) => m.typeName !== 'null');
  if (value === null) {
    if (nonNull.length < members.length) return null;
    return mismatch(`one of [${nonNull.map(branchKey).join(', ')}]`, value, path, problems);
  }
  const only = nonNull[0];
  if (only && nonNull.length === 1 && nonNull.length < members.length)
    return check(only, value, path, problems);

  const keys = nonNull.map(branchKey);
  const entries = isPlainObject(value) ? Object.entries(value) : [];
  const entry = entries[0];
  if (entries.length !== 1 || !entry) {
    problems.push({
      path,
      message: `expected a single-key object naming one of [${keys.join(', ')}], got ${describe(value)}`,
    });
    return value;
  }
  const [key, inner] = entry;
  const member = nonNull.find((m) => branchKey(m) === key);
  if (!member) {
    problems.push({ path, message: `union key ${JSON.stringify(key)} is not one of [${keys.join(', ')}]` });
    return value;
  }
  return { [key]: check(member, inner, keyPath(path, key), problems) };
}

/** The key naming a union member in JSON: its full name when named, else its type name. */
function branchKey(type: Type): string {
  if (type instanceof avro.types.LogicalType) return branchKey(type.underlyingType);
  return type.name ?? type.typeName;
}

function isNullable(type: Type): boolean {
  return (
    type.typeName.startsWith('union') &&
    (type as types.WrappedUnionType).types.some((m) => m.typeName === 'null')
  );
}

/** Whether the schema gives the field a default (then a writer may leave it out). */
function hasDefault(field: types.Field): boolean {
  return field.defaultValue() !== undefined;
}

function mismatch(expected: string, value: unknown, path: string, problems: FieldProblem[]): unknown {
  problems.push({ path, message: `expected ${expected}, got ${describe(value)}` });
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return `number ${value}`;
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value;
}

function keyPath(path: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return path === '' ? segment.replace(/^\./, '') : `${path}${segment}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}
