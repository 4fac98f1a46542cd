import { DEFAULT_ROOT_PASSWORD, readRootPassword, secretValueProblem } from '@catalog/auth';
import { readStructuredPropertySettings, type StructuredPropertySettings } from '@catalog/model';
import { EnvReader, readAdapterSettings, type AdapterSettings } from '@catalog/runtime';

export type SystemUpdateStep = 'setup' | 'restore-indices';

export interface SystemUpdateConfig {
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
  readonly steps: readonly SystemUpdateStep[];
  /** Drop and recreate the entity and graph indices before restoring (mappings rebuilt from scratch). */
  readonly clean: boolean;
  readonly batchSize: number;
  readonly urnLike?: string;
  /**
   * The STRUCTURED_PROPERTIES_* settings; a restore leaves out oversized values as the indexer does
   * (STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH, STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX).
   */
  readonly structuredProperties: StructuredPropertySettings;
  /**
   * ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: remove the index mappings hard-deleted structured
   * properties left behind (spec 3.2), and free their names, once no entity holds their values.
   */
  readonly structuredPropertyMappingCleanup: boolean;
  /**
   * ROOT_USER_PASSWORD: the root user's first password; when not the default, also the one its stored
   * credential is brought back to. Set but empty is refused; with CATALOG_ENVIRONMENT=production, so are
   * the default and a placeholder.
   */
  readonly rootPassword: string;
}

/**
 * The job always creates topics and index mappings ("setup"); it restores indices when asked by argument
 * (`restore-indices`) or by SYSTEM_UPDATE_RESTORE_INDICES / the ecosystem's
 * ELASTICSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX (OPENSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX is the same
 * switch under this engine's name), which also rebuilds the indices from scratch. With
 * ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE it then removes hard-deleted structured properties'
 * leftover mappings; on its own, that clean-up recreates only the indices that hold such mappings.
 */
export function readSystemUpdateConfig(
  source: Readonly<Record<string, string | undefined>>,
  args: readonly string[],
): Readonly<SystemUpdateConfig> {
  const env = new EnvReader(source);
  const reindex =
    env.bool('ELASTICSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX', false) ||
    env.bool('OPENSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX', false);
  const restore =
    env.bool('SYSTEM_UPDATE_RESTORE_INDICES', false) || reindex || args.includes('restore-indices');
  const unknown = args.filter((a) => !['restore-indices', '--clean'].includes(a));
  const urnLike = env.optionalString('SYSTEM_UPDATE_URN_LIKE');
  const config: SystemUpdateConfig = {
    logLevel: env.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    adapters: readAdapterSettings(env),
    steps: restore ? ['setup', 'restore-indices'] : ['setup'],
    clean: reindex || args.includes('--clean') || env.bool('SYSTEM_UPDATE_CLEAN', false),
    batchSize: env.int('SYSTEM_UPDATE_BATCH_SIZE', 2000, { min: 1, max: 50_000 }),
    ...(urnLike ? { urnLike } : {}),
    structuredProperties: readStructuredPropertySettings(env),
    structuredPropertyMappingCleanup: env.bool('ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE', false),
    rootPassword: readRootPassword(env),
  };
  // The job holds no other secret: the root password is the one it writes.
  const production =
    env.oneOf('CATALOG_ENVIRONMENT', ['development', 'production'] as const, 'development') === 'production';
  const problem = production ? secretValueProblem(config.rootPassword, DEFAULT_ROOT_PASSWORD) : undefined;
  if (problem !== undefined && !env.setButBlank('ROOT_USER_PASSWORD')) {
    env.invalid('ROOT_USER_PASSWORD', `${problem}; set it (CATALOG_ENVIRONMENT=production refuses it)`);
  }
  env.finish();
  if (unknown.length > 0)
    throw new Error(`Unknown arguments: ${unknown.join(' ')}; known: restore-indices --clean`);
  return Object.freeze(config);
}
