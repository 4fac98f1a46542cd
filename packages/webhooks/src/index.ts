export {
  startWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherDeps,
} from './webhook-dispatcher.js';
export { DEFAULT_DELIVERY_SETTINGS, type WebhookDeliverySettings } from './settings.js';
export { readWebhookDispatcherSection, type WebhookDispatcherSection } from './config.js';
export {
  EMPTY_DELIVERY_STATE,
  matchesFilter,
  type DeadLetter,
  type DeliveryState,
  type DispatchSubscription,
  type ReplayRequest,
  type WebhookFilter,
  type WebhookSource,
} from './subscription.js';
export { generateSecret, signedHeaders, signingKeyOf, webhookIdOf, type SecretFormat } from './signing.js';
export { checkDestination, DestinationError, parseDestination } from './destination.js';
export { deliverOnce, type DeliveryOutcome } from './deliver.js';
