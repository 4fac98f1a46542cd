export { readSystemUpdateConfig, type SystemUpdateConfig, type SystemUpdateStep } from './config.js';
export { restoreAll, type RestoreOptions, type RestoreReport } from './restore-all.js';
export { runSystemUpdate, type SystemUpdateDeps } from './system-update.js';
export {
  bootstrapTypeEntities,
  type BootstrapTypeEntitiesDeps,
  type BootstrapTypeEntitiesReport,
} from './bootstrap-type-entities.js';
export {
  awaitIdentityBootstrap,
  bootstrapIdentity,
  ROOT_USER_URN,
  type BootstrapIdentityDeps,
  type BootstrapIdentityReport,
} from './bootstrap-identity.js';
export {
  backfillRunFields,
  RUN_FIELDS_UPGRADE_URN,
  type BackfillRunFieldsDeps,
  type BackfillRunFieldsReport,
} from './backfill-run-fields.js';
