/**
 * In-process exclusive sections per key (entity URN). Writes of one process to one entity then never
 * race each other at the server, which keeps the conditional-write protocol out of its retry path in
 * the common case; writes from other processes are still handled by the protocol itself.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` holding every key; keys are taken in sorted order, so two callers cannot deadlock. */
  async withKeys<T>(keys: Iterable<string>, task: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const releases: (() => void)[] = [];
    try {
      for (const key of sorted) releases.push(await this.acquire(key));
      return await task();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => held);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
