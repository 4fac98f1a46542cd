import type { Logger } from '@catalog/runtime';
import type { PolicyRecord, PolicySource } from '../types.js';
import { type CompiledPolicy, compilePolicy } from './compiled-policy.js';

/** The ACTIVE policies of one load, indexed by the privileges they grant. */
export class PolicySet {
  private readonly byPrivilege = new Map<string, CompiledPolicy[]>();
  /** Policies that apply without a resource: what `platformPrivileges` unions. */
  readonly resourceFree: readonly CompiledPolicy[];

  constructor(readonly policies: readonly CompiledPolicy[]) {
    for (const policy of policies) {
      for (const privilege of policy.privileges) {
        const list = this.byPrivilege.get(privilege);
        if (list === undefined) this.byPrivilege.set(privilege, [policy]);
        else list.push(policy);
      }
    }
    this.resourceFree = policies.filter((p) => p.scope.kind === 'any');
  }

  /** Policies granting at least one of the privileges, each once, in stored order. */
  grantingAny(privileges: readonly string[]): CompiledPolicy[] {
    const found = new Set<CompiledPolicy>();
    for (const privilege of privileges) {
      for (const policy of this.byPrivilege.get(privilege) ?? []) found.add(policy);
    }
    return [...found];
  }
}

/** After a failed reload the previous policies are served this long before the next attempt. */
const RETRY_DELAY_MS = 1_000;

interface Loaded {
  readonly set: PolicySet;
  /** The invalidation generation the load started in: a load that began before an invalidation is stale. */
  readonly generation: number;
  readonly loadedAt: number;
}

/**
 * Policies read lazily from the catalog: reloaded on first use after `refreshIntervalMs` or after an
 * invalidation, with concurrent callers sharing one load. A failed reload keeps the previous policies
 * (a brief outage of the store must not lock everyone out) and is retried shortly; with nothing loaded
 * yet, the failure is the caller's.
 */
export class PolicyCache {
  private generation = 0;
  private loaded?: Loaded;
  private inFlight?: { readonly generation: number; readonly promise: Promise<PolicySet> };
  private retryAt = 0;

  constructor(
    private readonly source: PolicySource,
    private readonly refreshIntervalMs: number,
    private readonly now: () => number,
    private readonly logger?: Logger,
  ) {}

  get(): Promise<PolicySet> {
    const now = this.now();
    const loaded = this.loaded;
    if (loaded !== undefined) {
      const fresh = loaded.generation === this.generation && now - loaded.loadedAt < this.refreshIntervalMs;
      if (fresh || now < this.retryAt) return Promise.resolve(loaded.set);
    }
    if (this.inFlight !== undefined && this.inFlight.generation === this.generation) {
      return this.inFlight.promise;
    }
    const generation = this.generation;
    const promise = this.load(generation).finally(() => {
      if (this.inFlight?.promise === promise) this.inFlight = undefined;
    });
    this.inFlight = { generation, promise };
    return promise;
  }

  /** The next `get` reloads, even if a load that started earlier is still under way. */
  invalidate(): void {
    this.generation++;
    this.retryAt = 0;
  }

  /** A malformed stored policy is skipped, not fatal: it must not take every other policy down. */
  private compile(record: PolicyRecord): CompiledPolicy[] {
    try {
      const compiled = compilePolicy(record);
      return compiled === undefined ? [] : [compiled];
    } catch (error) {
      this.logger?.warn({ err: error, policyUrn: record.urn }, 'Skipping a policy that cannot be read');
      return [];
    }
  }

  private async load(generation: number): Promise<PolicySet> {
    try {
      const records = await this.source.listPolicies();
      const set = new PolicySet(records.flatMap((record) => this.compile(record)));
      // Two loads can overlap across an invalidation; the one that started later wins.
      if (this.loaded === undefined || this.loaded.generation <= generation) {
        this.loaded = { set, generation, loadedAt: this.now() };
        this.retryAt = 0;
      }
      return set;
    } catch (error) {
      const previous = this.loaded;
      if (previous === undefined) throw error;
      this.retryAt = this.now() + Math.min(RETRY_DELAY_MS, this.refreshIntervalMs);
      this.logger?.warn({ err: error }, 'Reloading policies failed; keeping the previous policies');
      return previous.set;
    }
  }
}
