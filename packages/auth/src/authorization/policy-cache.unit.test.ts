import { describe, expect, it } from 'vitest';
import { PolicyEngine } from './policy-engine.js';
import {
  FakeActorDirectory,
  FakePolicySource,
  FakeResourceResolver,
  policy,
} from './policy-fakes.testing.js';

const ALICE = 'urn:li:corpuser:alice';
const REFRESH_MS = 120_000;

const grantsAlice = policy('p', { privileges: ['EDIT_ENTITY'], actors: { users: [ALICE] } });

function engineOver(source: FakePolicySource) {
  let now = 1_000_000;
  const engine = new PolicyEngine({
    policies: source,
    actors: new FakeActorDirectory(),
    resources: new FakeResourceResolver(),
    refreshIntervalMs: REFRESH_MS,
    now: () => now,
  });
  return {
    engine,
    canEdit: () => engine.isAllowed({ actorUrn: ALICE, privileges: ['EDIT_ENTITY'] }),
    advance: (ms: number) => (now += ms),
  };
}

describe('PolicyEngine policy cache', () => {
  it('keeps its policies until refreshIntervalMs has passed, then reloads', async () => {
    const source = new FakePolicySource([]);
    const { canEdit, advance } = engineOver(source);
    expect(await canEdit()).toBe(false);
    source.records = [grantsAlice];
    advance(REFRESH_MS - 1);
    expect(await canEdit()).toBe(false);
    expect(source.loads).toBe(1);
    advance(1);
    expect(await canEdit()).toBe(true);
    expect(source.loads).toBe(2);
  });

  it('reloads on the next decision after invalidatePolicies', async () => {
    const source = new FakePolicySource([grantsAlice]);
    const { engine, canEdit } = engineOver(source);
    expect(await canEdit()).toBe(true);
    source.records = [];
    engine.invalidatePolicies();
    expect(await canEdit()).toBe(false);
    expect(source.loads).toBe(2);
  });

  it('shares one load between concurrent decisions', async () => {
    const source = new FakePolicySource([grantsAlice]);
    const { canEdit } = engineOver(source);
    const release = source.hold();
    const decisions = Promise.all([canEdit(), canEdit(), canEdit()]);
    release();
    expect(await decisions).toEqual([true, true, true]);
    expect(source.loads).toBe(1);
  });

  it('does not let a load that began before an invalidation satisfy a later decision', async () => {
    const source = new FakePolicySource([grantsAlice]);
    const { engine, canEdit } = engineOver(source);
    const release = source.hold();
    const early = canEdit();
    source.records = [];
    engine.invalidatePolicies();
    release();
    expect(await early).toBe(true);
    expect(await canEdit()).toBe(false);
    expect(source.loads).toBe(2);
  });

  it('keeps the previous policies when a reload fails, and retries later', async () => {
    const source = new FakePolicySource([grantsAlice]);
    const { canEdit, advance } = engineOver(source);
    expect(await canEdit()).toBe(true);
    source.failWith(new Error('store down'));
    advance(REFRESH_MS);
    expect(await canEdit()).toBe(true);
    expect(source.loads).toBe(2);
    source.failWith(undefined);
    source.records = [];
    expect(await canEdit()).toBe(true);
    expect(source.loads).toBe(2);
    advance(REFRESH_MS);
    expect(await canEdit()).toBe(false);
    expect(source.loads).toBe(3);
  });

  it('fails the decision when the first load fails, and loads again on the next one', async () => {
    const source = new FakePolicySource([grantsAlice]);
    const { canEdit } = engineOver(source);
    source.failWith(new Error('store down'));
    await expect(canEdit()).rejects.toThrow('store down');
    source.failWith(undefined);
    expect(await canEdit()).toBe(true);
    expect(source.loads).toBe(2);
  });

  it('skips a malformed stored policy and keeps the others', async () => {
    const malformed = { urn: 'urn:li:dataHubPolicy:bad', info: null } as unknown as ReturnType<typeof policy>;
    const source = new FakePolicySource([malformed, grantsAlice]);
    const { canEdit } = engineOver(source);
    expect(await canEdit()).toBe(true);
  });
});
