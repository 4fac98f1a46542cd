import { UnavailableError } from '@catalog/model';
import type { EventLog, RecordPosition } from '@catalog/events';

export interface IndexWaiterDeps {
  readonly log: EventLog;
  readonly indexerGroup: string;
  /** Makes completed index writes visible to searches (OpenSearch refresh; a no-op embedded). */
  readonly refresh: () => Promise<void>;
  readonly pollMs: number;
}

/**
 * Read-your-writes for clients that ask for it: waits until the indexer's committed offsets have passed
 * the change logs of a write, then refreshes the indices, so the write is searchable when this resolves.
 */
export class IndexWaiter {
  constructor(private readonly deps: IndexWaiterDeps) {}

  async waitFor(positions: readonly RecordPosition[], timeoutMs: number): Promise<void> {
    if (positions.length === 0) return;
    const deadline = Date.now() + timeoutMs;
    const byTopic = new Map<string, RecordPosition[]>();
    for (const p of positions) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p]);
    for (const [topic, wanted] of byTopic) {
      for (;;) {
        const lag = await this.deps.log.lag(this.deps.indexerGroup, topic);
        const committed = new Map(lag.map((p) => [p.partition, BigInt(p.offset)]));
        if (wanted.every((p) => (committed.get(p.partition) ?? -1n) > BigInt(p.offset))) break;
        if (Date.now() > deadline) {
          throw new UnavailableError(`The write was stored but not yet indexed within ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, this.deps.pollMs));
      }
    }
    await this.deps.refresh();
  }
}
