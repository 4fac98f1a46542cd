export {
  databaseOf,
  MongoAspectStore,
  openMongoAspectStore,
  type MongoAspectStoreOptions,
} from './mongo-aspect-store.js';
export type { StoreLogger, WriteHooks, WriteStep } from './write-context.js';
