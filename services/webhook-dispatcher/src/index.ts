export { readWebhookDispatcherConfig, type WebhookDispatcherConfig } from './config.js';
