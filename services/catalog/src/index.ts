export { startCatalog, type RunningCatalog } from './catalog.js';
export { readCatalogConfig, type CatalogConfig } from './config.js';
