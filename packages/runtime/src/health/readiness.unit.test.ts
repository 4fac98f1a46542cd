import { describe, expect, it } from 'vitest';
import { dependencyChecks, Readiness } from './readiness.js';

const up = async (): Promise<void> => {};
const down = (message: string) => async (): Promise<void> => {
  throw new Error(message);
};

describe('Readiness', () => {
  it('is UP when every check passes, DOWN naming each check that fails, in order', async () => {
    const readiness = new Readiness([
      { name: 'store', check: down('connection refused') },
      { name: 'search', check: up },
      { name: 'log', check: down('no broker') },
    ]);
    expect(await readiness.report()).toEqual({
      status: 'DOWN',
      unavailable: ['store', 'log'],
      checks: {
        store: { status: 'DOWN', reason: 'connection refused' },
        search: { status: 'UP' },
        log: { status: 'DOWN', reason: 'no broker' },
      },
    });
    expect((await new Readiness([{ name: 'store', check: up }]).report()).status).toBe('UP');
  });

  it('counts a check that does not answer in time as down', async () => {
    const readiness = new Readiness([{ name: 'search', check: () => new Promise<void>(() => undefined) }], {
      timeoutMs: 20,
    });
    expect(await readiness.report()).toMatchObject({
      unavailable: ['search'],
      checks: { search: { status: 'DOWN', reason: 'no answer within 20 ms' } },
    });
  });

  it('reuses a report while it is fresh, and probes again after', async () => {
    let calls = 0;
    let now = 1_000;
    const readiness = new Readiness(
      [
        {
          name: 'store',
          check: async () => {
            calls += 1;
          },
        },
      ],
      { cacheMs: 1_000, now: () => now },
    );
    await Promise.all([readiness.report(), readiness.report()]);
    now += 999;
    await readiness.report();
    expect(calls).toBe(1);
    now += 1;
    await readiness.report();
    expect(calls).toBe(2);
  });

  it('takes checks added later (consumer state) and refuses two with one name', async () => {
    let consuming = false;
    const readiness = new Readiness([{ name: 'store', check: up }], { cacheMs: 0 });
    readiness.add({
      name: 'consumer',
      check: async () => {
        if (!consuming) throw new Error('not consuming yet');
      },
    });
    expect((await readiness.report()).unavailable).toEqual(['consumer']);
    consuming = true;
    expect((await readiness.report()).status).toBe('UP');
    expect(() => readiness.add({ name: 'store', check: up })).toThrow(/registered twice/);
  });

  it('keeps credentials of a connection string out of the reason', async () => {
    const readiness = new Readiness([
      { name: 'store', check: down('cannot reach mongodb://admin:hunter2@db:27017/catalog') },
    ]);
    const { checks } = await readiness.report();
    expect(checks['store']?.reason).toBe('cannot reach mongodb://[redacted]@db:27017/catalog');
  });

  it('names the adapters it is given: store, search, log', () => {
    const ping = { ping: up };
    expect(dependencyChecks({ store: ping, search: ping, log: ping }).map((c) => c.name)).toEqual([
      'store',
      'search',
      'log',
    ]);
    expect(dependencyChecks({ log: ping }).map((c) => c.name)).toEqual(['log']);
  });
});
