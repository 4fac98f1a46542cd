export { KafkaEventLog, openKafkaEventLog, type KafkaEventLogOptions } from './kafka-event-log.js';
export type { KafkaLogLevel } from './kafka-logger.js';
