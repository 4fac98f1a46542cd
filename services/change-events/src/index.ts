export {
  startChangeEventProducer,
  type ChangeEventProducer,
  type ChangeEventProducerDeps,
} from './change-event-service.js';
export { readChangeEventsConfig, readChangeEventsSection } from './config.js';
export {
  CHANGE_EVENT_ID_HEADER,
  changeEventsOf,
  type ChangeEventsResult,
  type ProducibleChangeEvent,
} from './change-events-of.js';
export {
  ENTITY_CHANGE_EVENT_NAME,
  entityChangeEventOf,
  entityTypeOfUrn,
  platformEventOf,
  type EntityChangeEvent,
} from './entity-change-event.js';
