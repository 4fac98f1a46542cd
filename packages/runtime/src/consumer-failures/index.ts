export {
  classifyFailure,
  UnprocessableRecordError,
  type ClassifiedFailure,
  type FailureClass,
} from './failure-class.js';
export {
  DEAD_LETTER_HEADERS,
  deadLetterHeaders,
  deadLetterTopicOf,
  isReplayForAnotherGroup,
  produceDeadLetter,
  recordDeadLetters,
  type DeadLetterReason,
  type DeadLetterSink,
} from './dead-letters.js';
export {
  assertNotRetrying,
  DEFAULT_MAX_ATTEMPTS,
  FailurePolicy,
  type ConsumerFailureState,
  type FailurePolicyOptions,
} from './failure-policy.js';
export {
  cleanupGroupOf,
  deadLetterTargetOf,
  replayDeadLetters,
  replayGroupOf,
  type ConsumerGroupIds,
  type DeadLetterTarget,
  type ReplayOptions,
  type ReplayResult,
} from './replay-dead-letters.js';
