import { entityRegistry, parseUrn } from '@catalog/model';
import type { AspectRetention, AspectStore } from '@catalog/store';

/** The ecosystem's retention entity, its config aspect and the wildcard of its key. */
export const RETENTION_ENTITY = 'dataHubRetention';
export const RETENTION_CONFIG_ASPECT = 'dataHubRetentionConfig';
const ALL = '*';

/** One policy: the `(entity, aspect)` key of a dataHubRetention entity and its config's `retention`. */
export interface RetentionPolicy {
  readonly entity: string;
  readonly aspect: string;
  readonly retention: AspectRetention;
}

/**
 * The policies the ecosystem's system-update ingests on a fresh install (datahub-upgrade's
 * boot/retention.yaml): one version (no history) for the run-status aspects rewritten on every
 * heartbeat, and 20 history versions for everything else.
 */
export const DEFAULT_RETENTION_POLICIES: readonly RetentionPolicy[] = Object.freeze([
  keepOne('dataHubExecutionRequest', 'dataHubExecutionRequestResult'),
  keepOne('dataHubRemoteExecutor', 'dataHubRemoteExecutorStatus'),
  keepOne('dataHubAction', 'dataHubActionStatus'),
  keepOne('actionRequest', 'actionRequestStatus'),
  { entity: ALL, aspect: ALL, retention: { version: { maxVersions: 20 } } },
]);

function keepOne(entity: string, aspect: string): RetentionPolicy {
  return { entity, aspect, retention: { version: { maxVersions: 1 } } };
}

/** The retention of an aspect of an entity type; undefined keeps every version. */
export type RetentionResolver = (entityType: string, aspect: string) => AspectRetention | undefined;

/** Keeps every version: retention turned off. */
export const KEEP_EVERY_VERSION: RetentionResolver = () => undefined;

const SCAN_PAGE = 500;

export interface RetentionPolicyOptions {
  /** The policies in force where no stored dataHubRetention entity has the same key. */
  readonly defaults?: readonly RetentionPolicy[];
  /**
   * How long the stored policies read are used before they are read again. Writes of policies this
   * process applies are seen at its next batch; another process's after at most this long.
   */
  readonly refreshMs: number;
  readonly clock?: () => number;
}

/**
 * The retention policies in force, as the ecosystem resolves them (RetentionService.getRetention):
 * the stored dataHubRetention entities over the defaults, key by key, and for an aspect the first of
 * (entity, aspect), (entity, *), (*, aspect), (*, *) that has one. A stored config whose `retention`
 * has neither bound keeps every version, as in the ecosystem.
 */
export class RetentionPolicies {
  private readonly defaults: readonly RetentionPolicy[];
  private readonly clock: () => number;
  private loaded: { readonly at: number; readonly byKey: ReadonlyMap<string, AspectRetention> } | undefined;

  constructor(private readonly options: RetentionPolicyOptions) {
    this.defaults = options.defaults ?? DEFAULT_RETENTION_POLICIES;
    this.clock = options.clock ?? Date.now;
  }

  /** The resolver for a batch: the stored policies read again when older than refreshMs. */
  async resolver(store: AspectStore): Promise<RetentionResolver> {
    const now = this.clock();
    if (this.loaded === undefined || now - this.loaded.at >= this.options.refreshMs) {
      this.loaded = { at: now, byKey: await this.read(store) };
    }
    const byKey = this.loaded.byKey;
    return (entityType, aspect) => {
      for (const key of [
        policyKey(entityType, aspect),
        policyKey(entityType, ALL),
        policyKey(ALL, aspect),
        policyKey(ALL, ALL),
      ]) {
        const found = byKey.get(key);
        if (found !== undefined)
          return found.version === undefined && found.time === undefined ? undefined : found;
      }
      return undefined;
    };
  }

  /** Forgets what was read: a batch wrote a policy, the next one reads them again. */
  invalidate(): void {
    this.loaded = undefined;
  }

  private async read(store: AspectStore): Promise<Map<string, AspectRetention>> {
    const byKey = new Map<string, AspectRetention>();
    for (const policy of this.defaults) byKey.set(policyKey(policy.entity, policy.aspect), policy.retention);
    let after: string | undefined;
    for (;;) {
      const page = await store.scan({
        aspect: RETENTION_CONFIG_ASPECT,
        limit: SCAN_PAGE,
        ...(after ? { after } : {}),
      });
      for (const item of page.items) {
        const key = keyOf(item.urn);
        if (key !== undefined) byKey.set(key, retentionOf(item.value));
      }
      if (page.next === undefined || page.items.length === 0) break;
      after = page.next;
    }
    return byKey;
  }
}

function policyKey(entity: string, aspect: string): string {
  return `${entity}\u0000${aspect}`;
}

/** The (entity, aspect) key of a dataHubRetention urn; undefined for anything else. */
function keyOf(urn: string): string | undefined {
  try {
    const parsed = parseUrn(urn);
    if (parsed.entityType !== RETENTION_ENTITY) return undefined;
    const key = entityRegistry.keyAspectFromUrn(parsed).value;
    const entity =
      typeof key['entityName'] === 'string' && key['entityName'] !== '' ? key['entityName'] : ALL;
    const aspect =
      typeof key['aspectName'] === 'string' && key['aspectName'] !== '' ? key['aspectName'] : ALL;
    return policyKey(entity, aspect);
  } catch {
    return undefined;
  }
}

/** A stored config's `retention`, only its positive bounds (the ecosystem refuses the others). */
function retentionOf(value: Readonly<Record<string, unknown>>): AspectRetention {
  const retention = record(value['retention']);
  const maxVersions = positiveInt(record(retention?.['version'])?.['maxVersions']);
  const maxAge = positiveInt(record(retention?.['time'])?.['maxAgeInSeconds']);
  return {
    ...(maxVersions === undefined ? {} : { version: { maxVersions } }),
    ...(maxAge === undefined ? {} : { time: { maxAgeInSeconds: maxAge } }),
  };
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
