export {
  checkTestInfo,
  parseTestDefinition,
  TEST_OPERATORS,
  TestDefinitionError,
  type TestAction,
  type TestDefinition,
  type TestOperator,
  type TestPredicate,
} from './definition.js';
export {
  applyOperator,
  cachedReader,
  entityPassesTest,
  evaluatePredicate,
  resolveProperty,
  testAppliesTo,
  type AspectReader,
} from './evaluate.js';
