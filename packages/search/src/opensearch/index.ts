export {
  openOpenSearch,
  openOpenSearchAuditIndex,
  type OpenSearchAdapters,
  type OpenSearchAuditOptions,
  type OpenSearchOptions,
} from './open-opensearch.js';
export type { OpenSearchLogger } from './logger.js';
export type { RefreshPolicy } from './bulk-writer.js';
export { BulkWriteError, type BulkItemFailure } from './bulk-writer.js';
export {
  auditIndexName,
  auditIndexPattern,
  auditTemplateName,
  OpenSearchAuditIndex,
  type AuditIndexParts,
} from './opensearch-audit-index.js';
