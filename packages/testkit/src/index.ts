export { eventLogContract } from './contracts/event-log.contract.js';
export type { EventLogContractOptions, EventLogFixture } from './contracts/event-log.contract.js';
export { waitFor } from './wait-for.js';
export {
  aspectStoreContract,
  type AspectStoreUnderTest,
  type AspectStoreTestOptions,
  type SystemMetadataEdit,
} from './contracts/aspect-store.contract.js';
export {
  dockerEngine,
  isSkipped,
  kafkaForTests,
  mongoForTests,
  opensearchForTests,
  type ServiceForTests,
  skipUnlessCi,
} from './services.js';
export { searchIndexContract, type CurrentSearchIndex } from './contracts/search-index.contract.js';
export {
  countsOf,
  datasetDoc,
  datasets,
  datasetSpec,
  uniqueNamespace,
  type SearchIndexUnderTest,
} from './contracts/search-index-fixtures.js';
export { graphIndexContract, type GraphIndexUnderTest } from './contracts/graph-index.contract.js';
export {
  timeseriesIndexContract,
  type TimeseriesIndexUnderTest,
} from './contracts/timeseries-index.contract.js';
export {
  auditIndexContract,
  type AuditIndexContractOptions,
  type AuditIndexUnderTest,
} from './contracts/audit-index-contract.js';
export { capturingLogger } from './capturing-logger.js';
export { duplicateJsonKeys } from './duplicate-json-keys.js';
export { readTopic } from './read-topic.js';
export { freePort } from './free-port.js';
export { seededRandom } from './seeded-random.js';
