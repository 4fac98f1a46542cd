export type {
  AllowedValue,
  Cardinality,
  LogicalValueType,
  PrimitiveValue,
  PropertyDefinition,
  PropertyLookup,
  PropertyState,
  ValueAssignment,
} from './types.js';
export {
  checkPropertyDefinition,
  DEFINITION_MESSAGES,
  definitionProblems,
  searchFieldNameOf,
  type CollidingProperty,
  type DefinitionCheck,
} from './definitions.js';
export {
  checkStructuredPropertyValues,
  definitionOf,
  propertyUrnsOf,
  propertyUrnsOfPatch,
  VALUE_MESSAGES,
  type ValueCheck,
  type ValueCheckResult,
} from './values.js';
export {
  DEFAULT_STRUCTURED_PROPERTY_SETTINGS,
  KEYWORD_MAX_LENGTH,
  readStructuredPropertySettings,
  STRUCTURED_PROPERTY_ENV,
  type SettingsEnv,
  type StructuredPropertySettings,
} from './settings.js';
export {
  DATA_TYPE_URNS,
  DATA_TYPES,
  dataTypeUrn,
  entityNameOfTypeUrn,
  entityTypeUrn,
  logicalTypeOf,
  typeEntities,
  typeIdOf,
  type TypeEntity,
} from './type-entities.js';
export { StructuredPropertyRuleError } from './rule-error.js';
export { isNumericString, isValidDate, utf8Length } from './primitive-checks.js';
export { formatValue, javaDouble } from './values-format.js';
