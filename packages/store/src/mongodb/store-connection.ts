import { MongoClient, type Collection, type Db } from 'mongodb';
import type { AspectDocument } from './aspect-document.js';
import type { CommandTally } from './command-tally.js';
import { learnIdLookup } from './id-lookup.js';
import type { RequestDocument, StoreLogger } from './write-context.js';

/** How long the driver may report the server unreachable before a fresh connection is tried. */
const DEFAULT_REVIVE_AFTER_MS = 30_000;
/** How often that is checked. */
const CHECK_INTERVAL_MS = 5_000;
/** A replaced client is closed this long after the swap, so what still runs on it ends first. */
const CLOSE_REPLACED_AFTER_MS = 30_000;

export interface StoreConnectionOptions {
  readonly uri: string;
  readonly databaseName: string;
  readonly logger?: StoreLogger;
  readonly tally: CommandTally;
  readonly clock: () => number;
  /** See DEFAULT_REVIVE_AFTER_MS; 0 never replaces the client. */
  readonly reviveAfterMs?: number;
}

/**
 * The store's MongoClient and collections, watched: the driver's view of the server (its SDAM events)
 * is logged when it changes, and when the driver has reported the server unreachable for longer than
 * reviveAfterMs while a new connection to it succeeds, the client is replaced. A restart of the
 * MongoDB-wire server has been seen to leave a client that never saw the server again (every operation
 * failing at once with the error of the connection the restart closed, for minutes); a consumer on such
 * a client would retry for ever.
 */
export class StoreConnection {
  private current: { client: MongoClient; db: Db };
  private unreachableSince: number | undefined;
  private reviving: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly replacedTimers = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(
    client: MongoClient,
    private readonly options: StoreConnectionOptions,
  ) {
    this.current = { client, db: client.db(options.databaseName) };
    this.watch(client);
    const reviveAfterMs = options.reviveAfterMs ?? DEFAULT_REVIVE_AFTER_MS;
    if (reviveAfterMs > 0) {
      this.timer = setInterval(() => void this.reviveIfStuck(), CHECK_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Connects a client (command monitoring on, for the tally); rejects when the server cannot be reached. */
  static async open(options: StoreConnectionOptions): Promise<StoreConnection> {
    const client = newClient(options.uri);
    options.tally.attach(client);
    try {
      await client.connect();
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return new StoreConnection(client, options);
  }

  get db(): Db {
    return this.current.db;
  }

  get aspects(): Collection<AspectDocument> {
    return this.current.db.collection<AspectDocument>('aspects');
  }

  get requests(): Collection<RequestDocument> {
    return this.current.db.collection<RequestDocument>('requests');
  }

  /**
   * Replaces the client when the driver has reported its server unreachable for over reviveAfterMs and
   * a new client reaches it. Runs on a timer; callable (tests) with the time to judge by.
   */
  reviveIfStuck(now = this.options.clock()): Promise<void> {
    const since = this.unreachableSince;
    const limit = this.options.reviveAfterMs ?? DEFAULT_REVIVE_AFTER_MS;
    if (this.closed || since === undefined || limit <= 0 || now - since < limit) return Promise.resolve();
    this.reviving ??= this.replaceClient(now - since).finally(() => (this.reviving = undefined));
    return this.reviving;
  }

  /** What the driver last reported: since when its server has been unreachable, or undefined. */
  unreachableSinceMs(): number | undefined {
    return this.unreachableSince;
  }

  /** For tests: as if the driver had reported the server unreachable at `at`. */
  markUnreachable(at: number): void {
    this.unreachableSince ??= at;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const timer of this.replacedTimers) clearTimeout(timer);
    await this.reviving?.catch(() => undefined);
    await this.current.client.close();
  }

  private async replaceClient(unreachableForMs: number): Promise<void> {
    const probe = newClient(this.options.uri);
    try {
      await probe.connect();
      await probe.db(this.options.databaseName).command({ ping: 1 });
      // The collections exist by now (the store made them before any replacement).
      await learnIdLookup(probe.db(this.options.databaseName), 'aspects');
    } catch {
      await probe.close().catch(() => undefined);
      return; // Still down: the current client is right, keep it.
    }
    if (this.closed) {
      await probe.close().catch(() => undefined);
      return;
    }
    const replaced = this.current.client;
    this.options.tally.attach(probe);
    this.watch(probe);
    this.current = { client: probe, db: probe.db(this.options.databaseName) };
    this.unreachableSince = undefined;
    this.options.logger?.warn(
      { unreachableForMs },
      'aspect store client replaced: a new connection reached the server its client still reported unreachable',
    );
    const timer = setTimeout(() => {
      this.replacedTimers.delete(timer);
      replaced.close().catch(() => undefined);
    }, CLOSE_REPLACED_AFTER_MS);
    timer.unref();
    this.replacedTimers.add(timer);
  }

  /** Follows the client's view of its server: logged on change, remembered for reviveIfStuck. */
  private watch(client: MongoClient): void {
    client.on('serverDescriptionChanged', (event) => {
      if (client !== this.current.client) return;
      const was = event.previousDescription.type;
      const now = event.newDescription.type;
      if (now === 'Unknown' && was !== 'Unknown') {
        this.unreachableSince ??= this.options.clock();
        const reason = event.newDescription.error?.message ?? 'no reason given';
        this.options.logger?.warn({ address: event.address, reason }, 'aspect store server unreachable');
      } else if (was === 'Unknown' && now !== 'Unknown') {
        this.unreachableSince = undefined;
        this.options.logger?.info({ address: event.address, type: now }, 'aspect store server reachable');
      }
    });
  }
}

function newClient(uri: string): MongoClient {
  return new MongoClient(uri, { ignoreUndefined: true, monitorCommands: true });
}
