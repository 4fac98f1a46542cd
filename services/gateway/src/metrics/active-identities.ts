/**
 * Distinct identities active in the last window, per (identity_metric, actor_class): the ecosystem's
 * `datahub.usage.active_identities` gauge. The ecosystem counts per flush window; this counts over a
 * sliding window of the same length, so the figure is there as soon as the activity is (a series seen
 * once stays, reading 0 once its window holds nobody, as the ecosystem publishes empty windows as 0).
 */
export class ActiveIdentities {
  /** metric → actor class → identity → when last seen (ms). */
  private readonly seen = new Map<string, Map<string, Map<string, number>>>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  record(identity: string, actorClass: string, metrics: readonly string[]): void {
    const at = this.now();
    for (const metric of metrics) {
      let byClass = this.seen.get(metric);
      if (byClass === undefined) this.seen.set(metric, (byClass = new Map()));
      let identities = byClass.get(actorClass);
      if (identities === undefined) byClass.set(actorClass, (identities = new Map()));
      identities.delete(identity);
      identities.set(identity, at);
    }
  }

  /** Each series' count of identities seen within the window; older sightings are dropped. */
  counts(): { metric: string; actorClass: string; count: number }[] {
    const since = this.now() - this.windowMs;
    const result: { metric: string; actorClass: string; count: number }[] = [];
    for (const [metric, byClass] of this.seen)
      for (const [actorClass, identities] of byClass) {
        // Insertion order is last-seen order (record re-inserts), so the stale ones come first.
        for (const [identity, at] of identities) {
          if (at >= since) break;
          identities.delete(identity);
        }
        result.push({ metric, actorClass, count: identities.size });
      }
    return result;
  }
}
