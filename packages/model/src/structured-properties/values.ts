import { StructuredPropertyRuleError } from './rule-error.js';
import type { AspectPatch } from '../patch/apply-patch.js';
import { isUrn, parseUrn } from '../urn.js';
import { asDefinition } from './definitions.js';
import { isNumericString, isValidDate, utf8Length } from './primitive-checks.js';
import type { StructuredPropertySettings } from './settings.js';
import { typeIdOf } from './type-entities.js';
import type { LogicalValueType, PrimitiveValue, PropertyDefinition, PropertyLookup } from './types.js';
import {
  formatAssignment,
  formatList,
  formatValue,
  formatValues,
  isDoubleValue,
  isStringValue,
  sameValue,
  sameValues,
} from './values-format.js';

const STRUCTURED_PROPERTY = 'structuredProperty';
const STRING_BACKED: ReadonlySet<LogicalValueType> = new Set(['string', 'rich_text', 'date', 'urn']);
const LOGICAL_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'date', 'urn', 'rich_text']);

/**
 * The ecosystem's messages (StructuredPropertiesValidator, StructuredPropertiesAssignmentMutator),
 * which clients match on; the entity-type rule is this service's own.
 */
export const VALUE_MESSAGES = {
  multipleEntries: (propertyUrn: string, entries: readonly Assignment[]) =>
    `Property: ${propertyUrn} has multiple entries: ${formatList(entries, (e) => formatAssignment(e as Assignment))}`,
  notStructuredProperty: (entityType: string) =>
    `Unexpected entity type. Expected: structuredProperty Found: ${entityType}`,
  softDeleted: 'Cannot apply a soft deleted Structured Property value',
  missingDefinition: (propertyUrn: string) =>
    `Unexpected null value found for ${propertyUrn} Structured Property Definition.`,
  allOrphans: (entityUrn: string, propertyUrns: readonly string[]) =>
    `Structured properties write rejected for ${entityUrn}: no valid property assignments remain after ` +
    `removing values for non-existent properties: ${formatList(propertyUrns)}`,
  cardinality: (propertyUrn: string, values: readonly unknown[]) =>
    `Property: ${propertyUrn} has cardinality 1, but multiple values were assigned: ${formatValues(values)}`,
  notString: (propertyUrn: string, value: unknown) =>
    `Property: ${propertyUrn}, value: ${formatValue(value)} should be a string`,
  notDate: (propertyUrn: string, value: unknown) =>
    `Property: ${propertyUrn}, value: ${formatValue(value)} should be a date with format YYYY-MM-DD`,
  notUrn: (propertyUrn: string, value: unknown) =>
    `Property: ${propertyUrn}, value: ${formatValue(value)} should be an urn`,
  urnTypeNotAllowed: (propertyUrn: string, value: unknown, allowedTypes: readonly string[]) =>
    `Property: ${propertyUrn}, value: ${formatValue(value)} is not of any supported urn types:${formatList(allowedTypes)}`,
  notNumber: (propertyUrn: string, value: unknown) =>
    `Property: ${propertyUrn}, value: ${formatValue(value)} should be a number`,
  unsupportedType: (valueType: string) => `Validation support for type ${valueType} is not yet implemented.`,
  notAllowed: (propertyUrn: string, value: unknown, allowed: readonly unknown[]) =>
    `Property: ${propertyUrn}, value: ${formatValue(value)} should be one of ${formatValues(allowed)}`,
  oversized: (propertyUrn: string, bytes: number, max: number) =>
    `Property: ${propertyUrn}, value is ${bytes} bytes which exceeds the maximum of ${max} UTF-8 bytes for ` +
    'structured property values indexed as Elasticsearch keywords (structuredProperties.keywordMaxLength)',
  entityTypeNotAllowed: (propertyUrn: string, entityType: string, entityTypes: readonly string[]) =>
    `Property: ${propertyUrn} cannot be applied to entity type ${entityType}: its entityTypes are ${formatList(entityTypes)}`,
  immutableChanged: (propertyUrn: string) => `Cannot mutate an immutable property: ${propertyUrn}`,
  immutableDeleted: (propertyUrn: string) => `Cannot delete an immutable property ${propertyUrn}`,
} as const;

interface Assignment {
  readonly propertyUrn: string;
  readonly values: readonly unknown[];
}

export interface ValueCheck {
  /** The entity the aspect belongs to, and its type (`dataset`, `schemaField`, …). */
  readonly entityUrn: string;
  readonly entityType: string;
  /** The `structuredProperties` value to store (schema-valid, after any patch). */
  readonly next: Readonly<Record<string, unknown>>;
  /** The stored value it replaces; undefined when there is none. */
  readonly previous?: Readonly<Record<string, unknown>> | undefined;
  /** The definitions and status of the properties named (in `next` and in `previous`). */
  readonly lookup: PropertyLookup;
  readonly settings: StructuredPropertySettings;
  /**
   * Check only the assignments that are new or whose values changed from `previous` (a patch's
   * result: stored assignments it did not touch are not re-judged). Default: check every assignment.
   */
  readonly changedOnly?: boolean;
}

export interface ValueCheckResult {
  /** The value to store: `next` without the dropped assignments. */
  readonly value: Record<string, unknown>;
  /** Property urns whose assignments were dropped because they have no definition (orphans). */
  readonly dropped: readonly string[];
}

/**
 * Checks a write of the `structuredProperties` aspect against the properties' definitions, in the
 * ecosystem's order: each property at most once and a structuredProperty urn; orphans (no definition)
 * dropped or refused per the settings; then per assignment: not soft-deleted, the entity's type among
 * the property's entityTypes, cardinality, each value's type, allowed values and keyword size; then
 * immutable properties against the previous value. Throws StructuredPropertyRuleError naming every problem
 * (joined by "; "); otherwise returns the value to store.
 */
export function checkStructuredPropertyValues(input: ValueCheck): ValueCheckResult {
  const assignments = assignmentsOf(input.next);
  const previous = input.previous === undefined ? undefined : assignmentsOf(input.previous);
  fail(urnProblems(assignments));

  const previousByUrn = new Map((previous ?? []).map((a) => [a.propertyUrn, a]));
  const toCheck = assignments.filter((a) => {
    if (!input.changedOnly) return true;
    const before = previousByUrn.get(a.propertyUrn);
    return before === undefined || !sameValues(before.values, a.values);
  });

  const problems: string[] = [];
  const orphans = toCheck
    .filter((a) => input.lookup(a.propertyUrn)?.definition === undefined)
    .map((a) => a.propertyUrn);
  const orphanSet = new Set(orphans);
  let kept = assignments;
  let dropped: string[] = [];
  if (orphans.length > 0) {
    if (input.settings.dropMissingPropertyValuesWithWarning) {
      kept = assignments.filter((a) => !orphanSet.has(a.propertyUrn));
      dropped = orphans;
      if (kept.length === 0)
        throw new StructuredPropertyRuleError([VALUE_MESSAGES.allOrphans(input.entityUrn, orphans)]);
    } else {
      problems.push(...orphans.map((urn) => VALUE_MESSAGES.missingDefinition(urn)));
    }
  }

  for (const assignment of toCheck) {
    if (orphanSet.has(assignment.propertyUrn)) continue;
    const state = input.lookup(assignment.propertyUrn)!;
    if (state.removed) problems.push(VALUE_MESSAGES.softDeleted);
    problems.push(...assignmentProblems(assignment, state.definition!, input));
  }

  if (previous !== undefined) problems.push(...immutableProblems(previous, kept, input.lookup));
  fail(problems);
  const value: Record<string, unknown> = { ...input.next };
  if (dropped.length > 0) {
    const raw = Array.isArray(input.next['properties']) ? (input.next['properties'] as unknown[]) : [];
    value['properties'] = raw.filter((a) => !orphanSet.has((a as Assignment).propertyUrn));
  }
  return { value, dropped };
}

/** The property urns a `structuredProperties` value assigns. */
export function propertyUrnsOf(value: Readonly<Record<string, unknown>> | undefined): string[] {
  return value === undefined ? [] : assignmentsOf(value).map((a) => a.propertyUrn);
}

function fail(problems: readonly string[]): void {
  if (problems.length > 0) throw new StructuredPropertyRuleError(problems);
}

/** StructuredPropertiesValidator.validateStructuredPropertyUrns: once each, and structuredProperty urns. */
function urnProblems(assignments: readonly Assignment[]): string[] {
  const problems: string[] = [];
  const byUrn = new Map<string, Assignment[]>();
  for (const a of assignments) byUrn.set(a.propertyUrn, [...(byUrn.get(a.propertyUrn) ?? []), a]);
  for (const [urn, entries] of byUrn) {
    if (entries.length > 1) problems.push(VALUE_MESSAGES.multipleEntries(urn, entries));
  }
  if (problems.length > 0) return problems;
  for (const a of assignments) {
    const entityType = isUrn(a.propertyUrn) ? parseUrn(a.propertyUrn).entityType : a.propertyUrn;
    if (entityType !== STRUCTURED_PROPERTY) problems.push(VALUE_MESSAGES.notStructuredProperty(entityType));
  }
  return problems;
}

function assignmentProblems(
  assignment: Assignment,
  definition: PropertyDefinition,
  input: ValueCheck,
): string[] {
  const urn = assignment.propertyUrn;
  const problems: string[] = [];
  const entityType = input.entityType.toLowerCase();
  if (!definition.entityTypes.some((t) => typeIdOf(t) === entityType))
    problems.push(VALUE_MESSAGES.entityTypeNotAllowed(urn, input.entityType, definition.entityTypes));
  if ((definition.cardinality ?? 'SINGLE') === 'SINGLE' && assignment.values.length > 1)
    problems.push(VALUE_MESSAGES.cardinality(urn, assignment.values));
  for (const value of assignment.values) {
    const typeProblem = valueTypeProblem(urn, definition, value);
    if (typeProblem !== undefined) problems.push(typeProblem);
    const allowed = definition.allowedValues;
    if (allowed !== undefined && !allowed.some((a) => sameValue(a.value, value)))
      problems.push(
        VALUE_MESSAGES.notAllowed(
          urn,
          value,
          allowed.map((a) => a.value),
        ),
      );
    const sizeProblem = keywordSizeProblem(urn, definition, value, input.settings);
    if (sizeProblem !== undefined) problems.push(sizeProblem);
  }
  return problems;
}

/**
 * The logical type of a stored definition's valueType, read as the ecosystem reads it
 * (getLogicalValueType: the id after `datahub.`, any case), so definitions stored before the
 * valueType rule still type their values.
 */
function logicalTypeOfStored(valueType: string): LogicalValueType | undefined {
  const id = typeIdOf(valueType);
  return LOGICAL_TYPES.has(id) ? (id as LogicalValueType) : undefined;
}

function valueTypeProblem(urn: string, definition: PropertyDefinition, value: unknown): string | undefined {
  const type = logicalTypeOfStored(definition.valueType);
  if (type === undefined) return VALUE_MESSAGES.unsupportedType(definition.valueType);
  if (type === 'number') {
    if (isDoubleValue(value) || (isStringValue(value) && isNumericString(value.string))) return undefined;
    return VALUE_MESSAGES.notNumber(urn, value);
  }
  if (!isStringValue(value)) return VALUE_MESSAGES.notString(urn, value);
  if (type === 'date' && !isValidDate(value.string)) return VALUE_MESSAGES.notDate(urn, value);
  if (type === 'urn') {
    if (!isUrn(value.string)) return VALUE_MESSAGES.notUrn(urn, value);
    const allowedTypes = definition.typeQualifier?.['allowedTypes'];
    if (allowedTypes !== undefined) {
      const entityType = parseUrn(value.string).entityType.toLowerCase();
      if (!allowedTypes.some((t) => typeIdOf(t) === entityType))
        return VALUE_MESSAGES.urnTypeNotAllowed(urn, value, allowedTypes);
    }
  }
  return undefined;
}

function keywordSizeProblem(
  urn: string,
  definition: PropertyDefinition,
  value: unknown,
  settings: StructuredPropertySettings,
): string | undefined {
  if (settings.dropOversizedKeywordValuesFromIndex || !isStringValue(value)) return undefined;
  const type = logicalTypeOfStored(definition.valueType);
  if (type === undefined || !STRING_BACKED.has(type)) return undefined;
  const bytes = utf8Length(value.string);
  return bytes > settings.keywordMaxLength
    ? VALUE_MESSAGES.oversized(urn, bytes, settings.keywordMaxLength)
    : undefined;
}

/** Immutable properties (StructuredPropertiesValidator.validateImmutable): set values stay as they are. */
function immutableProblems(
  previous: readonly Assignment[],
  next: readonly Assignment[],
  lookup: PropertyLookup,
): string[] {
  const problems: string[] = [];
  const nextByUrn = new Map(next.map((a) => [a.propertyUrn, a]));
  for (const before of previous) {
    if (lookup(before.propertyUrn)?.definition?.immutable !== true) continue;
    const after = nextByUrn.get(before.propertyUrn);
    if (after === undefined) problems.push(VALUE_MESSAGES.immutableDeleted(before.propertyUrn));
    else if (!sameValues(before.values, after.values))
      problems.push(VALUE_MESSAGES.immutableChanged(before.propertyUrn));
  }
  return problems;
}

function assignmentsOf(value: Readonly<Record<string, unknown>>): Assignment[] {
  const raw = value['properties'];
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((a): a is Record<string, unknown> => typeof a === 'object' && a !== null)
    .map((a) => ({
      propertyUrn: typeof a['propertyUrn'] === 'string' ? a['propertyUrn'] : '',
      values: Array.isArray(a['values']) ? (a['values'] as PrimitiveValue[]) : [],
    }));
}

/** The definition fields of a stored `propertyDefinition` value (for lookups built from the store). */
export function definitionOf(value: Readonly<Record<string, unknown>>): PropertyDefinition {
  return asDefinition(value);
}

/**
 * The property urns a patch of `structuredProperties` names: in its paths (`/properties/<urn>`, the
 * SDK's patch builder keyed by propertyUrn) and in the assignments its operations carry.
 */
export function propertyUrnsOfPatch(patch: AspectPatch): string[] {
  const urns = new Set<string>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (typeof record['propertyUrn'] === 'string') urns.add(record['propertyUrn']);
      if (Array.isArray(record['properties'])) collect(record['properties']);
    }
  };
  for (const operation of patch.operations) {
    const segments = operation.path.split('/').slice(1);
    const key = segments[0] === 'properties' ? segments[1] : undefined;
    if (key !== undefined && key !== '' && key !== '-' && !/^\d+$/.test(key))
      urns.add(key.replace(/~1/g, '/').replace(/~0/g, '~'));
    if ('value' in operation) collect(operation.value);
  }
  return [...urns];
}
