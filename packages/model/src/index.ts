export type {
  AspectKind,
  AspectSpec,
  EntitySpec,
  FieldProblem,
  RelationshipAnnotation,
  SearchableField,
  SearchFieldType,
  Urn,
  ValidationOutcome,
} from './types.js';
export {
  ConflictError,
  describeProblems,
  DomainError,
  ForbiddenError,
  isDomainError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionError,
  SchemaValidationError,
  UnauthorizedError,
  UnavailableError,
  ThrottledError,
  ValidationError,
  type ErrorCode,
} from './errors.js';
export {
  checkNoControlCharacters,
  checkUrnForWrite,
  formatUrn,
  isUrn,
  parseUrn,
  URN_DELIMITER_SEPARATOR,
  URN_MAX_ENCODED_BYTES,
  urnFromPathSegment,
  urnToPathSegment,
  urnToQueryValue,
} from './urn.js';
export { entityRegistry, EntityRegistry, type KeyAspect } from './registry/entity-registry.js';
export { validateAspect } from './validate.js';
export { PINNED_SDK_VERSION } from './registry/sdk-version.js';
export { CATALOG_OWN_ENTITIES } from './registry/catalog-registry-data.js';
export { isRestrictedAspect, RESTRICTED_ASPECTS } from './registry/restricted-aspects.js';
export { defaultAspectsFor, type DefaultAspect } from './registry/default-aspects.js';
export {
  DATA_PLATFORMS,
  dataPlatformEntities,
  type DataPlatformEntity,
  type DataPlatformEntry,
} from './registry/data-platforms.js';
export { applyAspectPatch, parseAspectPatch, type AspectPatch } from './patch/apply-patch.js';
export { DEFAULT_OWNERSHIP_TYPE_URN, withOwnerTypes } from './aspect-hooks/owner-types.js';
export { PATCH_TEMPLATES, type KeyedArray, type PatchTemplate } from './patch/patch-templates.js';
export { aspectAvroType, namedAvroType } from './schemas/avro-registry.js';
export { UrnType } from './schemas/urn-type.js';
export {
  doubleShapeOf,
  IntegralDouble,
  stringifyJson,
  withDoubles,
  type DoubleShape,
} from './schemas/double-fields.js';
export {
  CHANGE_TYPES,
  checkProposal,
  SUPPORTED_CHANGE_TYPES,
  type ChangeType,
  type CheckedProposal,
  type CheckedSystemMetadata,
  type ProposalInput,
  type SupportedChangeType,
} from './proposal.js';
export {
  TIMESERIES_END_TIME_HEADER,
  TIMESERIES_START_TIME_HEADER,
  TIMESERIES_RUN_ID_HEADER,
  timeseriesRangeFromHeaders,
  timeseriesRangeHeaders,
  withoutTimeseriesRangeHeaders,
  type TimeseriesRange,
} from './timeseries-range.js';
export * from './structured-properties/index.js';
export * from './metadata-tests/index.js';
export {
  aspectChangeCategories,
  aspectChangeEvents,
  CHANGE_CATEGORIES,
  computeTimeline,
  hasTimeline,
  highestSemanticChange,
  SEMANTIC_CHANGE_TYPES,
  timelineAspects,
  type AspectChange,
  type AspectVersion,
  type ChangeAuditStamp,
  type ChangeCategory,
  type ChangeEvent,
  type ChangeOperation,
  type ChangeTransaction,
  type SemanticChangeType,
  type TimelineRequest,
} from './timeline/index.js';
