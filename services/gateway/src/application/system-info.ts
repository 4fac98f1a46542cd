import type { RequestContext } from '@catalog/auth';
import type { AccessPolicy } from './access-policy.js';
import type { PipelineOperationsDeps } from './pipeline-operations.js';

/** A configuration value as the system information lists it. */
export type PropertyValue = string | number | boolean;

/** One service of the catalog, as the ecosystem's ComponentInfo. */
export interface ComponentInfo {
  readonly name: string;
  readonly status: 'AVAILABLE' | 'UNAVAILABLE' | 'ERROR';
  readonly version?: string;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly errorMessage?: string;
}

export interface SpringComponentsInfo {
  readonly gms: ComponentInfo;
  readonly maeConsumer: ComponentInfo;
  readonly mceConsumer: ComponentInfo;
}

export interface PropertyInfo {
  readonly key: string;
  readonly value: PropertyValue;
  readonly source: string;
  readonly sourceType: string;
}

export interface SystemPropertiesInfo {
  readonly properties: Readonly<Record<string, PropertyInfo>>;
  readonly propertySources: readonly {
    readonly name: string;
    readonly type: string;
    readonly propertyCount: number;
  }[];
  readonly totalProperties: number;
  readonly redactedProperties: number;
}

export interface SystemInfoDeps {
  readonly operations: PipelineOperationsDeps;
  readonly version: string;
  /** The service's effective configuration, by dotted name. */
  readonly configuration: Readonly<Record<string, PropertyValue>>;
}

export const REDACTED = '***REDACTED***';
const SENSITIVE = /password|secret|key|token|salt|credential/i;
const SOURCE = { name: 'catalogConfiguration', type: 'EffectiveConfiguration' } as const;

/**
 * The ecosystem's system information (`/openapi/v1/system-info`): the services of the catalog with their
 * status (the gateway, which answers; the change-log consumer, the indexer, as `maeConsumer`; the
 * proposal consumer, persistence, as `mceConsumer`, each AVAILABLE while its consumer group's lag can be
 * read, with that lag), and the effective configuration, values of sensitive names redacted. Only for
 * MANAGE_SYSTEM_OPERATIONS.
 */
export class SystemInfo {
  constructor(
    private readonly deps: SystemInfoDeps,
    private readonly policy: AccessPolicy,
  ) {}

  async components(ctx: RequestContext): Promise<SpringComponentsInfo> {
    await this.policy.readSystemInfo(ctx);
    const { topics, groups } = this.deps.operations;
    const [mae, mce] = await Promise.all([
      this.consumer('MAE Consumer', groups.indexer, [
        topics.metadataChangeLogVersioned,
        topics.metadataChangeLogTimeseries,
      ]),
      this.consumer('MCE Consumer', groups.persistence, [topics.metadataChangeProposal]),
    ]);
    return {
      gms: { name: 'GMS', status: 'AVAILABLE', version: this.deps.version, properties: this.simple() },
      maeConsumer: mae,
      mceConsumer: mce,
    };
  }

  async properties(ctx: RequestContext): Promise<SystemPropertiesInfo> {
    await this.policy.readSystemInfo(ctx);
    const entries = Object.entries(this.simple());
    return {
      properties: Object.fromEntries(
        entries.map(([key, value]) => [key, { key, value, source: SOURCE.name, sourceType: SOURCE.type }]),
      ),
      propertySources: [{ ...SOURCE, propertyCount: entries.length }],
      totalProperties: entries.length,
      redactedProperties: entries.filter(([, v]) => v === REDACTED).length,
    };
  }

  async simpleProperties(ctx: RequestContext): Promise<Readonly<Record<string, PropertyValue>>> {
    await this.policy.readSystemInfo(ctx);
    return this.simple();
  }

  private simple(): Record<string, PropertyValue> {
    return Object.fromEntries(
      Object.entries(this.deps.configuration)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, value]) => [key, SENSITIVE.test(key) ? REDACTED : value]),
    );
  }

  /** A consumer service: AVAILABLE while its group's lag on its topics can be read, with that lag. */
  private async consumer(name: string, group: string, topics: readonly string[]): Promise<ComponentInfo> {
    try {
      let totalLag = 0;
      for (const topic of topics)
        for (const partition of await this.deps.operations.log.lag(group, topic)) totalLag += partition.lag;
      return {
        name,
        status: 'AVAILABLE',
        version: this.deps.version,
        properties: {
          consumerGroup: group,
          topics: topics.join(','),
          transport: this.deps.operations.transport,
          totalLag,
        },
      };
    } catch (error) {
      return { name, status: 'ERROR', errorMessage: (error as Error).message };
    }
  }
}

/**
 * A configuration object as dotted names and scalar values (lists joined with commas); functions and
 * absent values are left out.
 */
export function flattenConfiguration(value: unknown, prefix = ''): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = {};
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    if (prefix !== '') out[prefix] = value;
    return out;
  }
  if (Array.isArray(value)) {
    if (prefix !== '') out[prefix] = value.map(String).join(',');
    return out;
  }
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, inner] of Object.entries(value))
    Object.assign(out, flattenConfiguration(inner, prefix === '' ? key : `${prefix}.${key}`));
  return out;
}
