import type { RequestContext } from '@catalog/auth';
import type { StoredAspect } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import { ActorEntityLoader } from './actor-entity-loader.js';

const USER = 'urn:li:corpuser:alice';
const TOKEN = 'urn:li:dataHubAccessToken:t1';
const CHILD = 'urn:li:container:child';
const PARENT = 'urn:li:container:parent';

function stored(urn: string, aspect: string, value: Record<string, unknown>): StoredAspect {
  return { urn, aspect, version: 0, value, systemMetadata: null, created: { time: 1, actor: USER } };
}

const ROWS: Record<string, StoredAspect[]> = {
  [USER]: [
    stored(USER, 'corpUserInfo', { displayName: 'Alice' }),
    stored(USER, 'corpUserCredentials', { hashedPassword: 'h', salt: 's' }),
  ],
  [TOKEN]: [stored(TOKEN, 'dataHubAccessTokenInfo', { name: 'deploy key' })],
  [CHILD]: [
    stored(CHILD, 'containerProperties', {
      name: 'Child',
      description: 'sensitive',
      customProperties: { a: 'b' },
    }),
    stored(CHILD, 'container', { container: PARENT }),
    stored(CHILD, 'ownership', { owners: [{ owner: USER, type: 'DATAOWNER' }] }),
  ],
};

function context(isSystem: boolean): RequestContext {
  return {
    authentication: { actorUrn: USER, actorId: 'alice', method: 'session-token', isSystem },
    origin: { sourceIp: '', userAgent: '', eventSource: 'GRAPHQL', traceId: '0'.repeat(32) },
  };
}

/** A loader over ROWS whose actor may read everything but `unreadable`; counts the calls it makes. */
function loaderFor(isSystem: boolean, unreadable: readonly string[] = []) {
  const calls = { reads: 0, decisions: 0 };
  const store = {
    getLatestMany: async (urns: readonly string[]) => {
      calls.reads++;
      return new Map(urns.flatMap((u) => (ROWS[u] ? [[u, ROWS[u]] as const] : [])));
    },
    get: async () => null,
  };
  const policy = {
    readable: async (_ctx: RequestContext, urns: readonly string[]) => {
      calls.decisions++;
      return urns.filter((u) => !unreadable.includes(u));
    },
  };
  return { loader: new ActorEntityLoader(store, policy, context(isSystem)), calls };
}

describe('ActorEntityLoader', () => {
  it('reads every entity of a tick in one store call and decides them in one batch', async () => {
    const { loader, calls } = loaderFor(false);
    await Promise.all([loader.load(USER), loader.load(TOKEN), loader.aspect(USER, 'corpUserInfo')]);
    expect(calls).toEqual({ reads: 1, decisions: 1 });
    expect(loader.storeCalls).toBe(1);
  });

  it('withholds a user’s credentials from an ordinary actor but still says the user is native', async () => {
    const { loader } = loaderFor(false);
    expect([...(await loader.load(USER)).keys()]).toEqual(['corpUserInfo']);
    expect(await loader.aspect(USER, 'corpUserCredentials')).toBeUndefined();
    expect(await loader.stores(USER, 'corpUserCredentials')).toBe(true);
    expect(await loader.version(USER, 'corpUserCredentials', 1)).toBeUndefined();
  });

  it('gives the system actor the credentials', async () => {
    const { loader } = loaderFor(true);
    expect(await loader.aspect(USER, 'corpUserCredentials')).toEqual({ hashedPassword: 'h', salt: 's' });
  });

  it('shows an entity the actor may not read as existing, with no aspects', async () => {
    const { loader } = loaderFor(false, [TOKEN]);
    expect(await loader.exists(TOKEN)).toBe(true);
    expect((await loader.load(TOKEN)).size).toBe(0);
    expect(await loader.aspect(TOKEN, 'dataHubAccessTokenInfo')).toBeUndefined();
    expect(await loader.exists('urn:li:dataHubAccessToken:none')).toBe(false);
  });

  it('shows a data asset the actor may not read as a stub: its name only, and its place in the hierarchy', async () => {
    const { loader } = loaderFor(false, [CHILD]);
    expect([...(await loader.load(CHILD)).keys()]).toEqual(['containerProperties']);
    expect(await loader.aspect(CHILD, 'containerProperties')).toEqual({ name: 'Child' });
    const shown = await loader.stored(CHILD, 'containerProperties', 0);
    expect(shown).toMatchObject({ version: 0, systemMetadata: null, created: { time: 0 } });
    expect(await loader.aspect(CHILD, 'container')).toBeUndefined();
    expect(await loader.aspect(CHILD, 'ownership')).toBeUndefined();
    expect(await loader.parentOf(CHILD, 'container', 'container')).toBe(PARENT);
    expect(await loader.parentOf(PARENT, 'container', 'container')).toBeUndefined();
  });

  it('gives a readable entity its whole aspects', async () => {
    const { loader } = loaderFor(false);
    expect(await loader.aspect(CHILD, 'containerProperties')).toMatchObject({ description: 'sensitive' });
    expect(await loader.parentOf(CHILD, 'container', 'container')).toBe(PARENT);
  });
});
