export { eventLogContract } from './contracts/event-log.contract.js';
export type { EventLogContractOptions, EventLogFixture } from './contracts/event-log.contract.js';
export { waitFor } from './wait-for.js';
export { aspectStoreContract, type AspectStoreUnderTest } from './contracts/aspect-store.contract.js';
