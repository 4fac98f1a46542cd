import type { TestDefinition, TestPredicate } from './definition.js';

/** Reads one aspect of an entity (version 0), undefined when it has none. */
export type AspectReader = (urn: string, aspect: string) => Promise<unknown>;

/** The entity type named by a urn (`urn:li:<type>:…`). */
function entityTypeOf(urn: string): string {
  return /^urn:li:([^:]+):/.exec(urn)?.[1] ?? '';
}

function isUrnString(value: unknown): value is string {
  return typeof value === 'string' && /^urn:li:[^:]+:./.test(value);
}

/** A resolved value as the operators see it: strings (records as their JSON). */
function stringOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

/**
 * The values of a property path on an entity: the first segment is an aspect of the entity, the next
 * ones walk record fields, arrays are flattened at every step (`glossaryTerms.terms.urn` is every term
 * urn), and an urn with segments left continues on that entity (`container.container.globalTags.tags.tag`).
 */
export async function resolveProperty(urn: string, property: string, read: AspectReader): Promise<string[]> {
  const segments = property.split('.');
  return resolveOn(urn, segments, read, 0);
}

async function resolveOn(
  urn: string,
  segments: readonly string[],
  read: AspectReader,
  depth: number,
): Promise<string[]> {
  const [aspect, ...rest] = segments;
  if (aspect === undefined || depth > 8) return [];
  const value = await read(urn, aspect);
  if (value === undefined || value === null) return [];
  let current: unknown[] = [value];
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const field = rest[i]!;
    const next: unknown[] = [];
    for (const item of current.flatMap((v) => (Array.isArray(v) ? v : [v]))) {
      if (isUrnString(item)) {
        // An urn with segments left: the rest of the path is read on that entity.
        out.push(...(await resolveOn(item, rest.slice(i), read, depth + 1)));
        continue;
      }
      if (typeof item !== 'object' || item === null) continue;
      const child = (item as Record<string, unknown>)[field];
      if (child !== undefined && child !== null) next.push(child);
    }
    current = next;
  }
  for (const item of current.flatMap((v) => (Array.isArray(v) ? v : [v])))
    if (item !== undefined && item !== null) out.push(stringOf(item));
  return out;
}

/** An integer of a string (numbers compare as integers), or undefined when it is not a number. */
function integerOf(value: string): number | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

const regexCache = new Map<string, RegExp>();
function fullMatch(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    re = new RegExp(`^(?:${pattern})$`, 'su');
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

/** Whether a leaf operator holds for the resolved values and the operands. */
export function applyOperator(
  operator: string,
  values: readonly string[],
  operands: readonly string[],
): boolean {
  const anyPair = (f: (value: string, operand: string) => boolean) =>
    values.some((v) => operands.some((o) => f(v, o)));
  switch (operator) {
    case 'exists':
      return values.some((v) => v !== '');
    case 'equals':
    case 'contains_any':
      return anyPair((v, o) => v === o);
    case 'contains_str':
      return anyPair((v, o) => v.includes(o));
    case 'starts_with':
      return anyPair((v, o) => v.startsWith(o));
    case 'regex_match':
      return anyPair((v, o) => fullMatch(o).test(v));
    case 'greater_than':
    case 'less_than':
      return anyPair((v, o) => {
        const a = integerOf(v);
        const b = integerOf(o);
        if (a === undefined || b === undefined) return false;
        return operator === 'greater_than' ? a > b : a < b;
      });
    case 'is_true':
      return values.some((v) => v.toLowerCase() === 'true');
    case 'is_false':
      return values.some((v) => v.toLowerCase() === 'false');
    default:
      return false;
  }
}

/** Whether a predicate holds for an entity. */
export async function evaluatePredicate(
  predicate: TestPredicate,
  urn: string,
  read: AspectReader,
): Promise<boolean> {
  switch (predicate.kind) {
    case 'and':
      for (const p of predicate.predicates) if (!(await evaluatePredicate(p, urn, read))) return false;
      return true;
    case 'or':
      for (const p of predicate.predicates) if (await evaluatePredicate(p, urn, read)) return true;
      return false;
    case 'not':
      return !(await evaluatePredicate(predicate.predicate, urn, read));
    case 'leaf':
      return applyOperator(
        predicate.operator,
        await resolveProperty(urn, predicate.property, read),
        predicate.operands,
      );
  }
}

/** Whether a test applies to an entity: its type is one of `on.types` and `on.conditions` hold. */
export async function testAppliesTo(
  definition: TestDefinition,
  urn: string,
  read: AspectReader,
): Promise<boolean> {
  if (!definition.types.includes(entityTypeOf(urn))) return false;
  return definition.conditions === undefined || evaluatePredicate(definition.conditions, urn, read);
}

/** Whether an entity passes a test's rules. */
export function entityPassesTest(
  definition: TestDefinition,
  urn: string,
  read: AspectReader,
): Promise<boolean> {
  return evaluatePredicate(definition.rules, urn, read);
}

/** An aspect reader that reads each (urn, aspect) once. */
export function cachedReader(read: AspectReader): AspectReader {
  const cache = new Map<string, Promise<unknown>>();
  return (urn, aspect) => {
    const key = `${aspect}\u0000${urn}`;
    let value = cache.get(key);
    if (value === undefined) cache.set(key, (value = read(urn, aspect)));
    return value;
  };
}
