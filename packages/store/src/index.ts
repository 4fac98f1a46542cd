export type {
  ApplyResult,
  ApplyStatus,
  AspectStore,
  AspectRetention,
  AspectWrite,
  StoredState,
  AspectWriteMode,
  SideAspect,
  AuditStamp,
  ScanOptions,
  ScanPage,
  RunRowsOptions,
  RunSummary,
  StoredAspect,
  SystemMetadata,
  CommandTotals,
  StoreWorkStats,
} from './port.js';
export { canonicalJson, sameAspectValue } from './canonical-json.js';
export { DEFAULT_RUN_ID } from './write-rules.js';
export { decodeScanCursor, encodeScanCursor, type ScanPosition } from './scan-cursor.js';
export {
  openSqliteAspectStore,
  SqliteAspectStore,
  type SqliteAspectStoreOptions,
} from './embedded/sqlite-aspect-store.js';
export {
  assignedPropertyUrns,
  countStructuredPropertyHolders,
  structuredPropertyHolders,
} from './structured-property-holders.js';
