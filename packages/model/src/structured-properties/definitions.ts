import { StructuredPropertyRuleError } from './rule-error.js';
import { entityRegistry, type EntityRegistry } from '../registry/entity-registry.js';
import { isUrn, parseUrn } from '../urn.js';
import { isValidDate } from './primitive-checks.js';
import { DATA_TYPE_URNS, entityNameOfTypeUrn, logicalTypeOf } from './type-entities.js';
import type { AllowedValue, PropertyDefinition } from './types.js';
import { formatList, formatValue, isDoubleValue, isStringValue, sameValue } from './values-format.js';

/** The ecosystem's messages (PropertyDefinitionValidator), which clients match on. */
export const DEFINITION_MESSAGES = {
  softDeleted: 'Cannot mutate a soft deleted Structured Property Definition',
  urnIdSpaces: 'Urn ID cannot have spaces',
  qualifiedNameSpaces: 'Qualified names cannot have spaces',
  versionFormat: (version: string) =>
    `Invalid version ${JSON.stringify(version)}: it must be a non-empty string without spaces ` +
    '(the form yyyyMMddHHmmss is recommended)',
  versionDot: (version: string) => `Invalid version \`${version}\` cannot contain the \`.\` character.`,
  valueTypeChanged: 'Value type cannot be changed as this is a backwards incompatible change',
  cardinalityNarrowed: 'Property definition cardinality cannot be changed from MULTI to SINGLE',
  qualifiedNameChanged: 'Cannot change the fully qualified name of a Structured Property',
  valuesRestricted: 'Cannot restrict values that were previously allowed',
  allowedTypesNotUrns: (types: readonly string[]) =>
    `Issue resolving allowedTypes inside of typeQualifier. These must be entity type urns. List of allowedTypes: ${formatList(types)}`,
  allowedTypesNotEntityTypes: (types: readonly string[]) =>
    `Provided allowedType that is not an entityType entity. List of allowedTypes: ${formatList(types)}`,
  allowedTypesUnknown: (types: readonly string[]) =>
    `Provided allowedType that does not exist. List of allowedTypes: ${formatList(types)}`,
  // Rules the ecosystem leaves to its clients; the words are this service's own.
  unknownValueType: (valueType: string) =>
    `Invalid valueType ${valueType}: it must be one of ${formatList(DATA_TYPE_URNS)}`,
  unknownEntityTypes: (entityTypes: readonly string[]) =>
    `Invalid entityTypes ${formatList(entityTypes)}: each must be an entity type urn ` +
    'urn:li:entityType:datahub.<entity name> of a known entity type',
  allowedValueKind: (value: unknown, valueType: string, expected: string) =>
    `Allowed value ${formatValue(value)} does not fit valueType ${valueType}: it should be ${expected}`,
  nameCollision: (urn: string, qualifiedName: string, other: CollidingProperty) =>
    `Cannot create Structured Property ${urn}: its qualifiedName ${qualifiedName} collides with ` +
    `${other.urn} (qualifiedName ${other.qualifiedName}); qualified names that differ only by '.' ` +
    "and '_' share one search field",
  nameLeftover: (urn: string, qualifiedName: string, other: CollidingProperty) =>
    `Cannot create Structured Property ${urn}: its qualifiedName ${qualifiedName} matches the hard-deleted ` +
    `property ${other.urn} (qualifiedName ${other.qualifiedName}), whose search index mappings remain. ` +
    'They go once its values are gone from every entity (see ' +
    'GET /openapi/operations/structuredProperties/cleanup) and the system-update job has run with ' +
    'ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE=true (with ELASTICSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX=true ' +
    'too, every index is rebuilt)',
  hardDeleteActive: (urn: string) =>
    `Cannot hard delete the active Structured Property ${urn}: a hard delete removes its definition ` +
    'and, asynchronously, its values from every entity, and cannot be undone. Soft delete it first ' +
    '(status.removed=true), which keeps all data and can be reversed.',
} as const;

/** Another property whose qualified name normalizes to the same search field name. */
export interface CollidingProperty {
  readonly urn: string;
  readonly qualifiedName: string;
  /**
   * A hard-deleted property whose search index mappings remain: it blocks its name (even for its own
   * urn) until the mappings are cleaned up (spec 3.2).
   */
  readonly retired?: boolean;
}

export interface DefinitionCheck {
  /** The structured property's urn. */
  readonly urn: string;
  /** The definition to store (schema-valid, after any patch). */
  readonly next: Readonly<Record<string, unknown>>;
  /** The stored definition it replaces; undefined when the property is created. */
  readonly previous?: Readonly<Record<string, unknown>> | undefined;
  /** Whether the property is soft-deleted (status.removed). */
  readonly removed: boolean;
  /**
   * Another existing property whose qualified name has this normalized form (see
   * searchFieldNameOf), other than `urn` itself, or a hard-deleted one (`retired`, `urn` itself too)
   * whose index mappings remain; asked only when the property is created.
   */
  readonly collidingWith?: (normalized: string) => CollidingProperty | undefined;
  readonly registry?: EntityRegistry;
}

/** The search field a qualified name maps to: '.' becomes '_', so `a.b` and `a_b` collide. */
export function searchFieldNameOf(qualifiedName: string): string {
  return qualifiedName.replace(/\./g, '_');
}

/**
 * Spec 3.3: a version's string format is free (yyyyMMddHHmmss recommended), where the ecosystem insists
 * on 14 digits. What this service still refuses is what cannot name a search field: blanks and `.`
 * (the version is a segment of the `_versioned.<name>.<version>.<type>` field path).
 */
const VERSION = /^\S+$/;

/**
 * Every rule a definition write breaks, in the ecosystem's order (PropertyDefinitionValidator), then
 * this service's own (valueType, entityTypes, allowed-value kinds, name collision): empty when it may
 * be stored.
 */
export function definitionProblems(input: DefinitionCheck): string[] {
  const registry = input.registry ?? entityRegistry;
  const next = asDefinition(input.next);
  const previous = input.previous === undefined ? undefined : asDefinition(input.previous);
  const problems: string[] = [];
  if (input.removed) problems.push(DEFINITION_MESSAGES.softDeleted);
  if (next.version !== undefined) {
    if (!VERSION.test(next.version)) problems.push(DEFINITION_MESSAGES.versionFormat(next.version));
    if (next.version.includes('.')) problems.push(DEFINITION_MESSAGES.versionDot(next.version));
  }
  if (idOf(input.urn).includes(' ')) problems.push(DEFINITION_MESSAGES.urnIdSpaces);
  if (next.qualifiedName.includes(' ')) problems.push(DEFINITION_MESSAGES.qualifiedNameSpaces);
  const allowedTypes = next.typeQualifier?.['allowedTypes'];
  if (allowedTypes !== undefined) {
    const problem = allowedTypesProblem(allowedTypes, registry);
    if (problem !== undefined) problems.push(problem);
  }

  const logicalType = logicalTypeOf(next.valueType);
  if (logicalType === undefined) problems.push(DEFINITION_MESSAGES.unknownValueType(next.valueType));
  const unknownEntityTypes = next.entityTypes.filter((t) => entityNameOfTypeUrn(t, registry) === undefined);
  if (unknownEntityTypes.length > 0)
    problems.push(DEFINITION_MESSAGES.unknownEntityTypes(unknownEntityTypes));
  if (logicalType !== undefined) {
    for (const allowed of next.allowedValues ?? []) {
      const expected = allowedValueMismatch(allowed, logicalType);
      if (expected !== undefined)
        problems.push(DEFINITION_MESSAGES.allowedValueKind(allowed.value, next.valueType, expected));
    }
  }

  if (previous !== undefined) {
    const breakingAllowed = versionBumped(previous.version, next.version);
    if (next.valueType !== previous.valueType && !breakingAllowed)
      problems.push(DEFINITION_MESSAGES.valueTypeChanged);
    if (cardinalityOf(next) === 'SINGLE' && cardinalityOf(previous) === 'MULTIPLE' && !breakingAllowed)
      problems.push(DEFINITION_MESSAGES.cardinalityNarrowed);
    if (next.qualifiedName !== previous.qualifiedName)
      problems.push(DEFINITION_MESSAGES.qualifiedNameChanged);
    if (next.allowedValues !== undefined && !breakingAllowed) {
      const before = previous.allowedValues;
      const restricted =
        before === undefined ||
        before.some((old) => !next.allowedValues!.some((v) => sameValue(v.value, old.value)));
      if (restricted) problems.push(DEFINITION_MESSAGES.valuesRestricted);
    }
  } else if (input.collidingWith !== undefined) {
    const other = input.collidingWith(searchFieldNameOf(next.qualifiedName));
    if (other?.retired === true)
      problems.push(DEFINITION_MESSAGES.nameLeftover(input.urn, next.qualifiedName, other));
    else if (other !== undefined && other.urn !== input.urn)
      problems.push(DEFINITION_MESSAGES.nameCollision(input.urn, next.qualifiedName, other));
  }
  return problems;
}

/** Throws StructuredPropertyRuleError naming every rule the definition write breaks (joined by "; "). */
export function checkPropertyDefinition(input: DefinitionCheck): void {
  const problems = definitionProblems(input);
  if (problems.length > 0) throw new StructuredPropertyRuleError(problems);
}

/**
 * A breaking change is allowed with a new version that compares greater than the old one
 * (case-insensitively, as the ecosystem's compareToIgnoreCase), or any version where there was none.
 */
function versionBumped(before: string | undefined, after: string | undefined): boolean {
  if (after === undefined) return false;
  if (before === undefined) return true;
  return after.toLowerCase() > before.toLowerCase();
}

function cardinalityOf(definition: PropertyDefinition): 'SINGLE' | 'MULTIPLE' {
  return definition.cardinality ?? 'SINGLE';
}

/** What an allowed value should be for the logical type; undefined when it fits. */
function allowedValueMismatch(allowed: AllowedValue, type: string): string | undefined {
  const value = allowed.value;
  if (type === 'number') return isDoubleValue(value) ? undefined : 'a number';
  if (!isStringValue(value)) return 'a string';
  if (type === 'date' && !isValidDate(value.string)) return 'a date with format YYYY-MM-DD';
  if (type === 'urn' && !isUrn(value.string)) return 'an urn';
  return undefined;
}

/** The ecosystem's allowedTypesCheck, with existence answered by the registry. */
function allowedTypesProblem(types: readonly string[], registry: EntityRegistry): string | undefined {
  if (!types.every((t) => isUrn(t))) return DEFINITION_MESSAGES.allowedTypesNotUrns(types);
  if (types.some((t) => parseUrn(t).entityType !== 'entityType'))
    return DEFINITION_MESSAGES.allowedTypesNotEntityTypes(types);
  if (types.some((t) => entityNameOfTypeUrn(t, registry) === undefined))
    return DEFINITION_MESSAGES.allowedTypesUnknown(types);
  return undefined;
}

function idOf(urn: string): string {
  try {
    return parseUrn(urn).id;
  } catch {
    return urn;
  }
}

/** The definition fields the rules read, from a schema-valid aspect value. */
export function asDefinition(value: Readonly<Record<string, unknown>>): PropertyDefinition {
  const v = value as Partial<Record<keyof PropertyDefinition, unknown>>;
  return {
    qualifiedName: typeof v.qualifiedName === 'string' ? v.qualifiedName : '',
    valueType: typeof v.valueType === 'string' ? v.valueType : '',
    ...(isStringListMap(v.typeQualifier) ? { typeQualifier: v.typeQualifier } : {}),
    ...(Array.isArray(v.allowedValues) ? { allowedValues: v.allowedValues as AllowedValue[] } : {}),
    ...(v.cardinality === 'SINGLE' || v.cardinality === 'MULTIPLE' ? { cardinality: v.cardinality } : {}),
    entityTypes: Array.isArray(v.entityTypes)
      ? v.entityTypes.filter((t): t is string => typeof t === 'string')
      : [],
    ...(typeof v.immutable === 'boolean' ? { immutable: v.immutable } : {}),
    ...(typeof v.version === 'string' ? { version: v.version } : {}),
  };
}

function isStringListMap(value: unknown): value is Record<string, readonly string[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((list) => Array.isArray(list) && list.every((s) => typeof s === 'string'))
  );
}
