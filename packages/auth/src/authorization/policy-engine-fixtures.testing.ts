import type { ActorState, AuthorizationRequest, PolicyRecord, ResourceAttributes } from '../types.js';
import { PolicyEngine } from './policy-engine.js';
import { FakeActorDirectory, FakePolicySource, FakeResourceResolver } from './policy-fakes.testing.js';

export const ALICE = 'urn:li:corpuser:alice';
export const BOB = 'urn:li:corpuser:bob';
export const ENGINEERS = 'urn:li:corpGroup:engineers';
export const EDITOR = 'urn:li:dataHubRole:Editor';
export const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
export const USERS_TABLE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
export const CHART = 'urn:li:chart:(looker,c1)';

export interface EngineSetup {
  readonly policies: readonly PolicyRecord[];
  readonly actors?: Readonly<Record<string, Partial<ActorState>>>;
  readonly resources?: Readonly<Record<string, Partial<ResourceAttributes>>>;
}

/** An engine over fixed policies, users and resources; `allowed` asks as ALICE unless told otherwise. */
export function engineWith(setup: EngineSetup) {
  const resources = new FakeResourceResolver(setup.resources);
  const actors = new FakeActorDirectory(setup.actors);
  const engine = new PolicyEngine({
    policies: new FakePolicySource(setup.policies),
    actors,
    resources,
    refreshIntervalMs: 60_000,
  });
  const allowed = (request: Partial<AuthorizationRequest> & { privileges: readonly string[] }) =>
    engine.isAllowed({ actorUrn: ALICE, ...request });
  return { engine, allowed, resources, actors };
}
