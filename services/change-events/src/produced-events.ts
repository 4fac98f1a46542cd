import type { EventLog } from '@catalog/events';
import { LRUCache } from 'lru-cache';
import { CHANGE_EVENT_ID_HEADER } from './change-events-of.js';

/** Records read per step while learning what an earlier run produced. */
const READ_PAGE = 5_000;

/**
 * The ids of the change events already on the platform-event topic, so that a change log delivered
 * again produces nothing a second time. A run remembers what it produced; what an earlier run (killed
 * between its produce and its commit) or another member of the group (before a rebalance) produced is
 * learnt by reading the topic's records since a time before the change logs about to be processed: their
 * events were produced after the change logs were, so they are all in that range.
 */
export class ProducedEvents {
  private readonly ids: LRUCache<string, true>;

  constructor(
    private readonly log: EventLog,
    private readonly topic: string,
    capacity: number,
  ) {
    this.ids = new LRUCache({ max: capacity });
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.set(id, true);
  }

  /** Learns the ids of every change event on the topic from `since` (a record timestamp) to its end now. */
  async learnSince(since: number): Promise<number> {
    const starts = await this.log.offsetsForTime(this.topic, since);
    const ends = new Map((await this.log.offsets(this.topic)).map((p) => [p.partition, BigInt(p.end)]));
    const positions = new Map(
      [...starts].filter(([partition, offset]) => BigInt(offset) < (ends.get(partition) ?? 0n)),
    );
    let learnt = 0;
    while (positions.size > 0) {
      const records = await this.log.read(this.topic, positions, { maxRecords: READ_PAGE });
      if (records.length === 0) break;
      for (const record of records) {
        const id = record.headers[CHANGE_EVENT_ID_HEADER];
        if (id) {
          this.add(id);
          learnt += 1;
        }
        const next = BigInt(record.offset) + 1n;
        if (next >= (ends.get(record.partition) ?? 0n)) positions.delete(record.partition);
        else positions.set(record.partition, next.toString());
      }
    }
    return learnt;
  }
}
