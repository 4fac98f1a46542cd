import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvReader } from '@catalog/runtime';
import { parse } from 'yaml';
import { DEFAULT_RETENTION_POLICIES, RetentionPolicies, type RetentionPolicy } from './retention-policies.js';

/** How persistence applies the retention of aspect histories. */
export interface RetentionSettings {
  /** ENTITY_SERVICE_ENABLE_RETENTION (the ecosystem's name; default true): false keeps every version. */
  readonly enabled: boolean;
  /**
   * The policies in force where no dataHubRetention entity is stored under the same key: the
   * ecosystem's boot defaults, with the entries of the YAML files in RETENTION_PLUGIN_PATH (the
   * ecosystem's plugin folder and file format) over them, key by key.
   */
  readonly defaults: readonly RetentionPolicy[];
  /**
   * ENTITY_SERVICE_RETENTION_REFRESH_SECONDS (default 60): how long stored policies read are used by a
   * persistence process before it reads them again; a policy it writes itself is seen at its next batch.
   */
  readonly refreshMs: number;
}

export function readRetentionSettings(env: EnvReader): RetentionSettings {
  const folder = env.optionalString('RETENTION_PLUGIN_PATH');
  let plugins: RetentionPolicy[] = [];
  if (folder !== undefined) {
    try {
      plugins = readPluginPolicies(folder);
    } catch (error) {
      env.invalid('RETENTION_PLUGIN_PATH', error instanceof Error ? error.message : String(error));
    }
  }
  return {
    enabled: env.bool('ENTITY_SERVICE_ENABLE_RETENTION', true),
    defaults: mergePolicies(DEFAULT_RETENTION_POLICIES, plugins),
    refreshMs: env.int('ENTITY_SERVICE_RETENTION_REFRESH_SECONDS', 60, { min: 0 }) * 1000,
  };
}

/** `over`'s policies replace `base`'s of the same key; the others are added. */
export function mergePolicies(
  base: readonly RetentionPolicy[],
  over: readonly RetentionPolicy[],
): RetentionPolicy[] {
  const byKey = new Map<string, RetentionPolicy>();
  for (const policy of [...base, ...over]) byKey.set(`${policy.entity}\u0000${policy.aspect}`, policy);
  return [...byKey.values()];
}

/**
 * The policies of every .yaml/.yml file in `folder`, in file-name order, in the ecosystem's format:
 * a list of `{ entity, aspect, config: { retention: { version: { maxVersions }, time: { maxAgeInSeconds } } } }`.
 * Throws naming the file and entry that does not fit.
 */
export function readPluginPolicies(folder: string): RetentionPolicy[] {
  if (!statSync(folder).isDirectory()) throw new Error(`${folder} is not a folder`);
  const files = readdirSync(folder)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort();
  return files.flatMap((name) => policiesOf(readFileSync(join(folder, name), 'utf8'), name));
}

export function policiesOf(text: string, source: string): RetentionPolicy[] {
  const parsed: unknown = parse(text);
  if (parsed === null || parsed === undefined) return [];
  if (!Array.isArray(parsed)) throw new Error(`${source}: expected a list of retention policies`);
  return parsed.map((entry: unknown, i) => {
    const where = `${source}, entry ${i + 1}`;
    const item = objectOf(entry, where);
    const entity = item['entity'];
    const aspect = item['aspect'];
    if (typeof entity !== 'string' || entity === '')
      throw new Error(`${where}: entity must be a name or "*"`);
    if (typeof aspect !== 'string' || aspect === '')
      throw new Error(`${where}: aspect must be a name or "*"`);
    const retention = objectOf(
      objectOf(item['config'], `${where}: config`)['retention'],
      `${where}: config.retention`,
    );
    const version = retention['version'];
    const time = retention['time'];
    return {
      entity,
      aspect,
      retention: {
        ...(version === undefined
          ? {}
          : {
              version: {
                maxVersions: positive(objectOf(version, where)['maxVersions'], `${where}: maxVersions`),
              },
            }),
        ...(time === undefined
          ? {}
          : {
              time: {
                maxAgeInSeconds: positive(
                  objectOf(time, where)['maxAgeInSeconds'],
                  `${where}: maxAgeInSeconds`,
                ),
              },
            }),
      },
    };
  });
}

function objectOf(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${where}: expected a mapping`);
  return value as Record<string, unknown>;
}

function positive(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new Error(`${where} must be a positive integer`);
  return value;
}

/** The policies persistence applies under these settings; undefined keeps every version. */
export function retentionPoliciesFor(settings: RetentionSettings): RetentionPolicies | undefined {
  return settings.enabled
    ? new RetentionPolicies({ defaults: settings.defaults, refreshMs: settings.refreshMs })
    : undefined;
}
