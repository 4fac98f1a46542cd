import type {
  ActorDirectory,
  ActorState,
  PolicyInfo,
  PolicyRecord,
  PolicySource,
  ResourceAttributes,
  ResourceOverrides,
  ResourceResolver,
} from '../types.js';

/** An ACTIVE METADATA policy granting nothing to no one, with `info` laid over it. */
export function policy(urn: string, info: Partial<PolicyInfo>): PolicyRecord {
  return {
    urn: `urn:li:dataHubPolicy:${urn}`,
    info: {
      displayName: urn,
      description: '',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: [],
      actors: {},
      ...info,
    },
  };
}

/** Stored policies that a test can replace, fail or hold back, counting the loads. */
export class FakePolicySource implements PolicySource {
  loads = 0;
  private failure?: Error;
  private gate?: Promise<void>;

  constructor(public records: readonly PolicyRecord[] = []) {}

  async listPolicies(): Promise<readonly PolicyRecord[]> {
    this.loads++;
    const records = this.records;
    const failure = this.failure;
    if (this.gate !== undefined) await this.gate;
    if (failure !== undefined) throw failure;
    return records;
  }

  failWith(error: Error | undefined): void {
    this.failure = error;
  }

  /** Loads started from now on wait until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }
}

export function actorState(state: Partial<ActorState> = {}): ActorState {
  return { exists: true, removed: false, suspended: false, groups: [], roles: [], ...state };
}

export class FakeActorDirectory implements ActorDirectory {
  readonly reads: string[] = [];
  constructor(private readonly states: Readonly<Record<string, Partial<ActorState>>> = {}) {}

  async actorState(actorUrn: string): Promise<ActorState> {
    this.reads.push(actorUrn);
    return actorState(this.states[actorUrn] ?? {});
  }
}

export function resourceAttributes(urn: string, facts: Partial<ResourceAttributes> = {}): ResourceAttributes {
  return {
    urn,
    type: urn.split(':')[2] ?? '',
    owners: [],
    domains: [],
    containers: [],
    tags: [],
    glossaryTerms: [],
    dataPlatformInstances: [],
    ...facts,
  };
}

export class FakeResourceResolver implements ResourceResolver {
  readonly reads: string[] = [];
  constructor(private readonly facts: Readonly<Record<string, Partial<ResourceAttributes>>> = {}) {}

  async resourceAttributes(urn: string, overrides: ResourceOverrides = {}): Promise<ResourceAttributes> {
    this.reads.push(urn);
    return resourceAttributes(urn, { ...(this.facts[urn] ?? {}), ...overrides });
  }
}
