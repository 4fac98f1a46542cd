export {
  EntityProjector,
  type EntityChange,
  type ProjectionCounts,
  type ProjectorLogger,
  type ProjectorOptions,
} from './entity-projector.js';
export { timeseriesDeletionOf, timeseriesDocumentOf } from './timeseries-projector.js';
export { ensureReadModels, type ReadModels } from './ensure-read-models.js';
