export { startIndexer, type IndexerDeps, type IndexerService } from './indexer-service.js';
export { readIndexerConfig, readIndexerSection, type IndexerConfig } from './config.js';
