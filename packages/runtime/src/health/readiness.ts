/** One thing a service needs to do its work, probed by readiness: a dependency, or internal state. */
export interface ReadinessCheck {
  /** What the 503 names when the check fails (`store`, `search`, `log`, …). */
  readonly name: string;
  /** Resolves when the dependency answers; rejects (with the reason) when it does not. */
  readonly check: () => Promise<void>;
}

export interface CheckResult {
  readonly status: 'UP' | 'DOWN';
  /** Why it is down: the error's message, or that it did not answer in time. */
  readonly reason?: string;
}

export interface ReadinessReport {
  readonly status: 'UP' | 'DOWN';
  /** The names of the checks that failed, in registration order. */
  readonly unavailable: readonly string[];
  readonly checks: Readonly<Record<string, CheckResult>>;
}

export interface ReadinessOptions {
  /** How long one check may take before it counts as down. Default 2 s. */
  readonly timeoutMs?: number;
  /** How long a report is reused, so that frequent probes do not hammer the dependencies. Default 1.5 s. */
  readonly cacheMs?: number;
  readonly now?: () => number;
}

/** Anything with the ports' cheap `ping()`. */
export interface Pingable {
  ping(): Promise<void>;
}

/**
 * Readiness of a service: every check run at once, each bounded by a timeout, the report cached for a
 * moment and shared by concurrent probes. More checks can be added after construction (e.g. a
 * consumer's state once it is running).
 */
export class Readiness {
  private readonly checks: ReadinessCheck[];
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private readonly now: () => number;
  private cached: { readonly at: number; readonly report: Promise<ReadinessReport> } | undefined;

  constructor(checks: readonly ReadinessCheck[] = [], options: ReadinessOptions = {}) {
    this.checks = [...checks];
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.cacheMs = options.cacheMs ?? 1_500;
    this.now = options.now ?? Date.now;
    const names = new Set<string>();
    for (const { name } of this.checks) {
      if (names.has(name)) throw new Error(`readiness check "${name}" is registered twice`);
      names.add(name);
    }
  }

  add(check: ReadinessCheck): void {
    if (this.checks.some((c) => c.name === check.name))
      throw new Error(`readiness check "${check.name}" is registered twice`);
    this.checks.push(check);
    this.cached = undefined;
  }

  /** The current report: a cached one while it is fresh (or still being made), else a new one. */
  report(): Promise<ReadinessReport> {
    const now = this.now();
    if (this.cached && now - this.cached.at < this.cacheMs) return this.cached.report;
    const report = this.evaluate();
    this.cached = { at: now, report };
    return report;
  }

  private async evaluate(): Promise<ReadinessReport> {
    const results = await Promise.all(this.checks.map((c) => this.run(c)));
    const checks: Record<string, CheckResult> = {};
    const unavailable: string[] = [];
    this.checks.forEach(({ name }, i) => {
      const result = results[i]!;
      checks[name] = result;
      if (result.status === 'DOWN') unavailable.push(name);
    });
    return { status: unavailable.length === 0 ? 'UP' : 'DOWN', unavailable, checks };
  }

  private async run({ check }: ReadinessCheck): Promise<CheckResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CheckResult>((resolve) => {
      timer = setTimeout(
        () => resolve({ status: 'DOWN', reason: `no answer within ${this.timeoutMs} ms` }),
        this.timeoutMs,
      );
      timer.unref();
    });
    const probe = (async (): Promise<CheckResult> => {
      try {
        await check();
        return { status: 'UP' };
      } catch (error) {
        return { status: 'DOWN', reason: reasonOf(error) };
      }
    })();
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The usual checks of a service's adapters, under the names a 503 reports. */
export function dependencyChecks(deps: {
  readonly store?: Pingable;
  readonly search?: Pingable;
  readonly log?: Pingable;
}): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [];
  const { store, search, log } = deps;
  if (store) checks.push({ name: 'store', check: () => store.ping() });
  if (search) checks.push({ name: 'search', check: () => search.ping() });
  if (log) checks.push({ name: 'log', check: () => log.ping() });
  return checks;
}

/** A short reason without credentials a connection string might carry. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\/\/[^/@\s]*@/g, '//[redacted]@').slice(0, 300) || 'failed';
}
