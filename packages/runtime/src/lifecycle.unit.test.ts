import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Lifecycle, REPEATED_SIGNAL_MS, runMain } from './lifecycle.js';

const logger = pino({ level: 'silent' });

describe('runMain', () => {
  const listeners = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
  afterEach(() => {
    // Leave the test process's own signal handling as it was.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      for (const l of process.listeners(signal)) if (!listeners[signal].includes(l)) process.off(signal, l);
    }
  });

  it('closes what started and exits 0 on a SIGTERM that came while the service was starting', async () => {
    const exits: number[] = [];
    const closed: string[] = [];
    let started!: () => void;
    const starting = new Promise<void>((resolve) => (started = resolve));
    const running = runMain(
      logger,
      async () => {
        const lifecycle = new Lifecycle(logger);
        lifecycle.onClose('consumer', async () => {
          closed.push('consumer');
        });
        await starting;
        return lifecycle;
      },
      (code) => exits.push(code),
    );
    process.emit('SIGTERM', 'SIGTERM');
    expect(exits).toEqual([]);
    started();
    await running;
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toEqual(['consumer']);
    expect(exits).toEqual([0]);
  });

  it('exits 1 at once on a second signal while starting', async () => {
    const exits: number[] = [];
    void runMain(
      logger,
      () => new Promise<Lifecycle>(() => undefined),
      (code) => exits.push(code),
    );
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([1]);
  });

  it('handles a signal after start with the lifecycle, once', async () => {
    const exits: number[] = [];
    await runMain(
      logger,
      async () => new Lifecycle(logger),
      (code) => exits.push(code),
    );
    process.emit('SIGTERM', 'SIGTERM');
    await new Promise((r) => setTimeout(r, 10));
    expect(exits).toEqual([0]);
  });

  it('shuts down gracefully when Ctrl+C reaches it twice at once (the terminal and pnpm both send SIGINT)', async () => {
    const exits: number[] = [];
    const closed: string[] = [];
    await runMain(
      logger,
      async () => {
        const lifecycle = new Lifecycle(logger);
        lifecycle.onClose('http', async () => {
          closed.push('http');
        });
        return lifecycle;
      },
      (code) => exits.push(code),
    );
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toEqual(['http']);
    expect(exits).toEqual([0]);
  });

  it('ignores a copy of the signal that came while starting, and still closes once started', async () => {
    const exits: number[] = [];
    let started!: () => void;
    const starting = new Promise<void>((resolve) => (started = resolve));
    const running = runMain(
      logger,
      async () => {
        await starting;
        return new Lifecycle(logger);
      },
      (code) => exits.push(code),
    );
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([]);
    started();
    await running;
    await new Promise((r) => setTimeout(r, 10));
    expect(exits).toEqual([0]);
  });

  it('exits 1 at once on the same signal again once a person could have pressed twice', async () => {
    const exits: number[] = [];
    let clock = 0;
    await runMain(
      logger,
      async () => {
        const lifecycle = new Lifecycle(logger);
        lifecycle.onClose('slow', () => new Promise(() => undefined));
        return lifecycle;
      },
      (code) => exits.push(code),
      () => clock,
    );
    process.emit('SIGINT', 'SIGINT');
    clock += REPEATED_SIGNAL_MS;
    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([1]);
  });
});
