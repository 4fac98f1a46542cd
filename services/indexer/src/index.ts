export { EntityProjector, type EntityChange, type ProjectionCounts } from './entity-projector.js';
export { ensureReadModels, startIndexer, type IndexerDeps, type IndexerService } from './indexer-service.js';
export { readIndexerConfig, readIndexerSection, type IndexerConfig } from './config.js';
export { timeseriesDocumentOf } from './timeseries-projector.js';
