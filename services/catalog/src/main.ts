import { createLogger, runMain } from '@catalog/runtime';
import { startCatalog } from './catalog.js';
import { readCatalogConfig } from './config.js';

const config = readCatalogConfig(process.env);
const logger = createLogger({ name: 'catalog', level: config.logLevel });

await runMain(logger, async () => (await startCatalog(config, logger)).lifecycle);
