import type {
  CommandFailedEvent,
  CommandStartedEvent,
  CommandSucceededEvent,
  Document,
  MongoClient,
} from 'mongodb';
import type { CommandTotals } from '../port.js';

/** Commands of the driver's own housekeeping, not of the store's work. */
const HOUSEKEEPING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'buildInfo']);

interface Pending {
  readonly name: string;
  readonly sent: number;
  /** performance.now() when the driver sent it: the driver's own `duration` is whole milliseconds. */
  readonly at: number;
}

/**
 * Counts the commands a MongoClient sends (from the driver's command monitoring): per command name,
 * how many, their round-trip time (timed here to a fraction of a millisecond: the driver's event
 * duration is whole milliseconds, so a fast command counted 0), the documents they sent (inserts, updates, deletes) and read
 * (cursor batches), and how many failed. What a batch costs at the server is read from two snapshots.
 */
export class CommandTally {
  private readonly totals = new Map<
    string,
    { count: number; ms: number; documents: number; failed: number }
  >();
  private readonly pending = new Map<number, Pending>();

  attach(client: MongoClient): void {
    client.on('commandStarted', (event: CommandStartedEvent) => {
      if (HOUSEKEEPING.has(event.commandName)) return;
      this.pending.set(event.requestId, {
        name: event.commandName,
        sent: documentsSent(event.command),
        at: performance.now(),
      });
    });
    client.on('commandSucceeded', (event: CommandSucceededEvent) => {
      const started = this.pending.get(event.requestId);
      if (started === undefined) return;
      this.pending.delete(event.requestId);
      const total = this.totalOf(started.name);
      total.count += 1;
      total.ms += performance.now() - started.at;
      total.documents += started.sent + documentsRead(event.reply as Document);
    });
    client.on('commandFailed', (event: CommandFailedEvent) => {
      const started = this.pending.get(event.requestId);
      if (started === undefined) return;
      this.pending.delete(event.requestId);
      const total = this.totalOf(started.name);
      total.count += 1;
      total.failed += 1;
      total.ms += performance.now() - started.at;
    });
  }

  snapshot(): Record<string, CommandTotals> {
    const out: Record<string, CommandTotals> = {};
    for (const [name, total] of this.totals) out[name] = { ...total, ms: Math.round(total.ms * 10) / 10 };
    return out;
  }

  private totalOf(name: string) {
    let total = this.totals.get(name);
    if (total === undefined) {
      total = { count: 0, ms: 0, documents: 0, failed: 0 };
      this.totals.set(name, total);
    }
    return total;
  }
}

function documentsSent(command: Document): number {
  for (const field of ['documents', 'updates', 'deletes']) {
    const list: unknown = command[field];
    if (Array.isArray(list)) return list.length;
  }
  return 0;
}

function documentsRead(reply: Document | undefined): number {
  const cursor: unknown = reply?.['cursor'];
  if (cursor === null || typeof cursor !== 'object') return 0;
  const batch: unknown =
    (cursor as Record<string, unknown>)['firstBatch'] ?? (cursor as Record<string, unknown>)['nextBatch'];
  return Array.isArray(batch) ? batch.length : 0;
}
