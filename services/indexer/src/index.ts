export { startIndexer, type IndexerDeps, type IndexerService } from './indexer-service.js';
export { readIndexerConfig, readIndexerSection, type IndexerConfig, type IndexerSettings } from './config.js';
