import {
  createLogger,
  describeAdapters,
  openAspectStore,
  openEventLog,
  openSearchAdapters,
} from '@catalog/runtime';
import { readSystemUpdateConfig } from './config.js';
import { runSystemUpdate } from './system-update.js';

const config = readSystemUpdateConfig(process.env, process.argv.slice(2));
const logger = createLogger({ name: 'system-update', level: config.logLevel });

// A one-shot job: it exits 0 when every step is done and non-zero on the first failure.
try {
  logger.info(
    { steps: config.steps, clean: config.clean, ...describeAdapters(config.adapters) },
    'system update starting',
  );
  const log = await openEventLog(config.adapters, logger);
  const store = await openAspectStore(config.adapters, logger);
  const readModels = await openSearchAdapters(config.adapters, logger);
  try {
    await runSystemUpdate({ log, store, readModels, topics: config.adapters.topics, logger }, config);
  } finally {
    await readModels.close();
    await store.close();
    await log.close();
  }
  logger.info('system update finished');
} catch (error) {
  logger.fatal({ err: error }, 'system update failed');
  process.exitCode = 1;
}
