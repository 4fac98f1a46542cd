export { EntityProjector, type EntityChange, type ProjectionCounts } from './entity-projector.js';
export { timeseriesDeletionOf, timeseriesDocumentOf } from './timeseries-projector.js';
export { ensureReadModels, type ReadModels } from './ensure-read-models.js';
