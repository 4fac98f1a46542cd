import { ValidationError } from '../errors.js';
import { entityRegistry } from '../registry/entity-registry.js';

/**
 * The JSON definition language of metadata tests (the ecosystem's TestDefinitionParser):
 *
 *   {"on": {"types": ["dataset"], "conditions": <pred>?}, "rules": <pred>, "actions"?: {...}}
 *
 * A predicate is `{"and": [..]}`, `{"or": [..]}`, `{"not": <pred>}`, an array (an implicit AND) or a
 * leaf `{"property": "glossaryTerms.terms.urn", "operator": "exists", "values"?: [..]}`, whose operands
 * are the values of its `params` object, else of every other key (`value`, `values`, …). The legacy
 * keys `query` (property), `operation` (operator), `negate` and `match` (conditions) are read too.
 */

/** The leaf operators (case-insensitive on input, lower case here). */
export const TEST_OPERATORS = [
  'equals',
  'exists',
  'contains_str',
  'contains_any',
  'starts_with',
  'regex_match',
  'greater_than',
  'less_than',
  'is_true',
  'is_false',
] as const;
export type TestOperator = (typeof TEST_OPERATORS)[number];

export type TestPredicate =
  | { readonly kind: 'and'; readonly predicates: readonly TestPredicate[] }
  | { readonly kind: 'or'; readonly predicates: readonly TestPredicate[] }
  | { readonly kind: 'not'; readonly predicate: TestPredicate }
  | {
      readonly kind: 'leaf';
      readonly property: string;
      readonly operator: TestOperator;
      readonly operands: readonly string[];
    };

export interface TestAction {
  readonly type: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface TestDefinition {
  /** Entity type names of the registry (`dataset`, `chart`, …). */
  readonly types: readonly string[];
  readonly conditions?: TestPredicate;
  readonly rules: TestPredicate;
  readonly actions?: { readonly passing: readonly TestAction[]; readonly failing: readonly TestAction[] };
}

/** A definition that does not parse: a 400 naming the reason. */
export class TestDefinitionError extends ValidationError {
  constructor(readonly reason: string) {
    super(`Invalid test definition: ${reason}`);
  }
}

const LOGICAL = new Set(['and', 'or', 'not']);
/** The keys of a leaf that are not operands. */
const LEAF_KEYS = new Set(['property', 'operator', 'query', 'operation', 'negate', 'params']);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entity type an `on.types` item names: the registry's name, matched case-insensitively. */
function entityTypeOf(raw: unknown, where: string): string {
  if (typeof raw !== 'string' || raw === '') throw new TestDefinitionError(`${where} must be a string`);
  const name =
    entityRegistry.getEntity(raw)?.name ??
    entityRegistry.entities().find((e) => e.name.toLowerCase() === raw.toLowerCase())?.name;
  if (name === undefined)
    throw new TestDefinitionError(`Unknown entity type ${JSON.stringify(raw)} in ${where}`);
  return name;
}

/** A scalar or list operand as strings (`true` → "true", 3 → "3"). */
function operandStrings(raw: unknown, where: string): string[] {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item, i) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    throw new TestDefinitionError(
      `${Array.isArray(raw) ? `${where}[${i}]` : where} must be a string, number or boolean`,
    );
  });
}

class Parser {
  constructor(private readonly types: readonly string[]) {}

  predicate(raw: unknown, where: string): TestPredicate {
    if (Array.isArray(raw)) return { kind: 'and', predicates: this.list(raw, where) };
    if (!isObject(raw)) throw new TestDefinitionError(`${where} must be an object or an array of predicates`);
    const logical = Object.keys(raw).filter((k) => LOGICAL.has(k.toLowerCase()));
    if (logical.length > 1)
      throw new TestDefinitionError(`${where} has more than one of and, or, not: ${logical.join(', ')}`);
    const key = logical[0];
    if (key !== undefined) {
      const extra = Object.keys(raw).filter((k) => k !== key);
      if (extra.length > 0)
        throw new TestDefinitionError(`${where}.${key} cannot be combined with ${extra.join(', ')}`);
      const inner = raw[key];
      const at = `${where}.${key}`;
      switch (key.toLowerCase()) {
        case 'not':
          return { kind: 'not', predicate: this.predicate(inner, at) };
        case 'and':
        case 'or': {
          if (!Array.isArray(inner)) throw new TestDefinitionError(`${at} must be an array of predicates`);
          return { kind: key.toLowerCase() as 'and' | 'or', predicates: this.list(inner, at) };
        }
      }
    }
    return this.leaf(raw, where);
  }

  private list(raw: readonly unknown[], where: string): TestPredicate[] {
    if (raw.length === 0) throw new TestDefinitionError(`${where} must not be empty`);
    return raw.map((item, i) => this.predicate(item, `${where}[${i}]`));
  }

  private leaf(raw: Json, where: string): TestPredicate {
    const property = raw['property'] ?? raw['query'];
    if (typeof property !== 'string' || property.trim() === '')
      throw new TestDefinitionError(
        `${where}.property is required (a path such as datasetProperties.description)`,
      );
    this.checkProperty(property, `${where}.property`);
    const rawOperator = raw['operator'] ?? raw['operation'];
    if (typeof rawOperator !== 'string' || rawOperator === '')
      throw new TestDefinitionError(`${where}.operator is required`);
    const operator = rawOperator.toLowerCase();
    if (!(TEST_OPERATORS as readonly string[]).includes(operator))
      throw new TestDefinitionError(
        `Unsupported operation ${rawOperator} at ${where}; supported: ${TEST_OPERATORS.join(', ')}`,
      );
    const operands: string[] = [];
    const params = raw['params'];
    if (params !== undefined && params !== null) {
      if (!isObject(params)) throw new TestDefinitionError(`${where}.params must be an object`);
      for (const [k, v] of Object.entries(params))
        operands.push(...operandStrings(v, `${where}.params.${k}`));
    } else {
      for (const [k, v] of Object.entries(raw)) {
        if (LEAF_KEYS.has(k) || v === null || v === undefined) continue;
        operands.push(...operandStrings(v, `${where}.${k}`));
      }
    }
    const needsOperands = !['exists', 'is_true', 'is_false'].includes(operator);
    if (needsOperands && operands.length === 0)
      throw new TestDefinitionError(`${where}: operator ${operator} needs values`);
    if (operator === 'regex_match') {
      for (const pattern of operands) {
        try {
          new RegExp(pattern);
        } catch (error) {
          throw new TestDefinitionError(
            `${where}: invalid regex ${JSON.stringify(pattern)}: ${(error as Error).message}`,
          );
        }
      }
    }
    const negate = raw['negate'];
    if (negate !== undefined && negate !== null && typeof negate !== 'boolean')
      throw new TestDefinitionError(`${where}.negate must be a boolean`);
    const leaf: TestPredicate = {
      kind: 'leaf',
      property: property.trim(),
      operator: operator as TestOperator,
      operands,
    };
    return negate === true ? { kind: 'not', predicate: leaf } : leaf;
  }

  /** The first segment of a path is an aspect of one of the entity types the test is on. */
  private checkProperty(property: string, where: string): void {
    const segments = property.trim().split('.');
    if (segments.some((s) => s === ''))
      throw new TestDefinitionError(`${where} ${JSON.stringify(property)} has an empty segment`);
    const aspect = segments[0]!;
    const known = this.types.some((type) => entityRegistry.getAspect(type, aspect) !== undefined);
    if (!known)
      throw new TestDefinitionError(
        `Unknown aspect ${aspect} in property ${property} at ${where} (not an aspect of ${this.types.join(', ')})`,
      );
  }
}

function parseActions(raw: unknown): TestDefinition['actions'] {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new TestDefinitionError('actions must be an object {passing, failing}');
  const list = (name: 'passing' | 'failing'): TestAction[] => {
    const items = raw[name];
    if (items === undefined || items === null) return [];
    if (!Array.isArray(items)) throw new TestDefinitionError(`actions.${name} must be an array`);
    return items.map((item, i) => {
      if (!isObject(item) || typeof item['type'] !== 'string' || item['type'] === '')
        throw new TestDefinitionError(`actions.${name}[${i}] must be an object with a type`);
      const params = item['params'];
      if (params !== undefined && params !== null && !isObject(params))
        throw new TestDefinitionError(`actions.${name}[${i}].params must be an object`);
      return { type: item['type'], params: (params as Json | undefined) ?? {} };
    });
  };
  return { passing: list('passing'), failing: list('failing') };
}

/** Parses a test definition (its JSON text, or the parsed value); throws TestDefinitionError naming why. */
export function parseTestDefinition(json: unknown): TestDefinition {
  let raw = json;
  if (typeof json === 'string') {
    try {
      raw = JSON.parse(json);
    } catch (error) {
      throw new TestDefinitionError(`the definition is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (!isObject(raw)) throw new TestDefinitionError('the definition must be a JSON object with on and rules');
  const on = raw['on'];
  if (on === undefined || on === null) throw new TestDefinitionError('on is required');
  if (!isObject(on)) throw new TestDefinitionError('on must be an object {types, conditions?}');
  const rawTypes = on['types'];
  if (!Array.isArray(rawTypes) || rawTypes.length === 0)
    throw new TestDefinitionError('on.types must be a non-empty array of entity types');
  const types = [...new Set(rawTypes.map((t, i) => entityTypeOf(t, `on.types[${i}]`)))];
  const parser = new Parser(types);
  const rawConditions = on['conditions'] ?? on['match'];
  const conditions =
    rawConditions === undefined || rawConditions === null
      ? undefined
      : parser.predicate(rawConditions, 'on.conditions');
  if (raw['rules'] === undefined || raw['rules'] === null) throw new TestDefinitionError('rules is required');
  const rules = parser.predicate(raw['rules'], 'rules');
  const actions = parseActions(raw['actions']);
  return {
    types,
    rules,
    ...(conditions === undefined ? {} : { conditions }),
    ...(actions === undefined ? {} : { actions }),
  };
}

/**
 * The check of a `testInfo` value that every write route makes: its JSON definition must parse.
 * A value without a definition JSON has nothing to check.
 */
export function checkTestInfo(value: Readonly<Record<string, unknown>>): void {
  const definition = value['definition'];
  if (!isObject(definition)) return;
  const json = definition['json'];
  if (json === undefined || json === null) return;
  parseTestDefinition(json);
}
