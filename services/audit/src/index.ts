export { startAuditConsumer, type AuditConsumer, type AuditConsumerDeps } from './audit-service.js';
export { readAuditConfig, readAuditSection, type AuditConfig, type AuditSettings } from './config.js';
export {
  AUDIT_EVENT_TYPES,
  auditEventTypeOfChange,
  isAuditEventType,
  LOGIN_EVENT_TYPES,
  type AuditEventType,
} from './audit-event-types.js';
export {
  AUDIT_EVENT_SOURCES,
  auditEventOf,
  auditEventOfChangeLog,
  auditEventOfPlatformEvent,
  type AuditRecordResult,
} from './audit-events-of.js';
