import type { OpenLineageDataset } from './openlineage-event.js';
import type { FabricType, OpenLineageSettings } from './openlineage-settings.js';

/** A dataset as the catalog names it. */
export interface DatasetIdentity {
  readonly urn: string;
  readonly platform: string;
  readonly name: string;
  readonly env: FabricType;
}

/** Namespace schemes whose platform has another name in the catalog. */
const PLATFORM_OF_SCHEME: Readonly<Record<string, string>> = { awsathena: 'athena', sqlserver: 'mssql' };

/** File system schemes: the dataset is a path, named by it, on the platform of its scheme. */
const FILE_SYSTEM_PLATFORMS: Readonly<Record<string, string>> = {
  s3: 's3',
  s3a: 's3',
  s3n: 's3',
  gs: 'gcs',
  gcs: 'gcs',
  abfs: 'abs',
  abfss: 'abs',
  wasb: 'abs',
  wasbs: 'abs',
  dbfs: 'dbfs',
  file: 'file',
};

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const TABLE_PREFIX = 'table/';

export function datasetUrn(platform: string, name: string, env: string): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;
}

function withoutPartition(path: string, pattern: string | undefined): string {
  if (pattern === undefined) return path;
  return path.replace(new RegExp(`${pattern}$`), '').replace(/\/$/, '');
}

/**
 * The platform and name of an OpenLineage dataset, by the ecosystem's rules: a `TABLE` symlink (a
 * Spark job's metastore table) names it on Glue or Hive; a namespace with a scheme (`postgres://host:5432`)
 * gives the platform by its scheme, and a file system scheme (`s3://bucket`) makes the dataset its
 * path; a namespace without one is the platform itself (`bigquery`). Undefined when the namespace
 * names no platform.
 */
function platformAndName(
  dataset: OpenLineageDataset,
  settings: OpenLineageSettings,
): { platform: string; name: string } | undefined {
  let namespace = dataset.namespace;
  let name = dataset.name;
  const symlinks = (dataset.facets?.['symlinks'] as { identifiers?: unknown } | undefined)?.identifiers;
  if (Array.isArray(symlinks)) {
    for (const link of symlinks as { namespace?: unknown; name?: unknown; type?: unknown }[]) {
      if (link.type !== 'TABLE' || typeof link.namespace !== 'string' || typeof link.name !== 'string')
        continue;
      namespace = /^(arn:)?aws:glue:/.test(link.namespace) ? 'glue' : 'hive';
      name = link.name.startsWith(TABLE_PREFIX)
        ? link.name.slice(TABLE_PREFIX.length).replace(/\//g, '.')
        : link.name;
    }
  }
  const scheme = SCHEME.exec(namespace)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (namespace.trim() === '') return undefined;
    const fileSystem = FILE_SYSTEM_PLATFORMS[namespace] !== undefined;
    return {
      platform: namespace,
      name: fileSystem ? withoutPartition(name, settings.filePartitionPattern) : name,
    };
  }
  const fileSystem = FILE_SYSTEM_PLATFORMS[scheme];
  if (fileSystem === undefined) return { platform: PLATFORM_OF_SCHEME[scheme] ?? scheme, name };
  const joined = namespace.endsWith('/') || name.startsWith('/') ? namespace + name : `${namespace}/${name}`;
  const rest = withoutPartition(
    joined.slice(joined.indexOf('://') + 3).replace(/\/+$/, ''),
    settings.filePartitionPattern,
  );
  // A local file keeps its leading slash (`file:///tmp/x` is `/tmp/x`); a bucket path starts at the bucket.
  return { platform: fileSystem, name: fileSystem === 'file' ? rest : rest.replace(/^\//, '') };
}

/** The dataset's identity in the catalog, or undefined when its namespace names no platform. */
export function datasetIdentity(
  dataset: OpenLineageDataset,
  settings: OpenLineageSettings,
): DatasetIdentity | undefined {
  const found = platformAndName(dataset, settings);
  if (found === undefined || found.name === '') return undefined;
  const instance = settings.commonDatasetPlatformInstance;
  const name = instance === undefined ? found.name : `${instance}.${found.name}`;
  const env = settings.commonDatasetEnv ?? settings.env ?? 'PROD';
  return { urn: datasetUrn(found.platform, name, env), platform: found.platform, name, env };
}

/**
 * As datasetIdentity, but never undefined: a dataset whose namespace names no platform is put on the
 * fallback platform (DATAHUB_OPENLINEAGE_PLATFORM, or `unknown`), as a DatasetEvent's dataset is.
 */
export function datasetIdentityOrFallback(
  dataset: OpenLineageDataset,
  settings: OpenLineageSettings,
): DatasetIdentity {
  const found = datasetIdentity(dataset, settings);
  if (found !== undefined) return found;
  const platform = settings.platform ?? 'unknown';
  const env = settings.commonDatasetEnv ?? settings.env ?? 'PROD';
  const name = dataset.name === '' ? dataset.namespace : dataset.name;
  return { urn: datasetUrn(platform, name, env), platform, name, env };
}
