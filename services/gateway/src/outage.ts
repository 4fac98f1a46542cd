/** Seconds a client is told to wait (Retry-After) before trying again after an outage. */
export const RETRY_AFTER_SECONDS = 5;

/** What is an outage is decided once, for the interfaces and the consumers alike. */
export { outageOf } from '@catalog/runtime';
