/**
 * In-process wake-ups: a produce that commits bumps its topic's version and wakes the consumers waiting on
 * it, so they fetch at once instead of at their next poll. A consumer remembers the version it saw before
 * an empty fetch; if the version moved meanwhile, it does not wait at all, so no wake-up is ever lost.
 */
export class TopicSignals {
  private readonly versions = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();

  version(topic: string): number {
    return this.versions.get(topic) ?? 0;
  }

  notify(topic: string): void {
    this.versions.set(topic, this.version(topic) + 1);
    const waiting = this.waiters.get(topic);
    if (!waiting) return;
    this.waiters.delete(topic);
    for (const wake of waiting) wake();
  }

  /** Registers `wake` for the next notify of `topic`; returns false (and does not register) if it already moved past `seen`. */
  subscribe(topic: string, seen: number, wake: () => void): boolean {
    if (this.version(topic) !== seen) return false;
    let waiting = this.waiters.get(topic);
    if (!waiting) {
      waiting = new Set();
      this.waiters.set(topic, waiting);
    }
    waiting.add(wake);
    return true;
  }

  unsubscribe(topic: string, wake: () => void): void {
    this.waiters.get(topic)?.delete(wake);
  }
}
