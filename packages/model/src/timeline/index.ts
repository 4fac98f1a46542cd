export {
  CHANGE_CATEGORIES,
  highestSemanticChange,
  SEMANTIC_CHANGE_TYPES,
  type ChangeAuditStamp,
  type ChangeCategory,
  type ChangeEvent,
  type ChangeOperation,
  type SemanticChangeType,
} from './change-event.js';
export { aspectChangeCategories, aspectChangeEvents, type AspectChange } from './aspect-diff.js';
export { hasTimeline, timelineAspects } from './timeline-registry.js';
export {
  computeTimeline,
  type AspectVersion,
  type ChangeTransaction,
  type TimelineRequest,
} from './timeline.js';
