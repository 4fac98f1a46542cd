import type Database from 'better-sqlite3';
import type { FacetForwardIndex } from './facet-forward-index.js';
import type { IndexedEntity } from './indexed-entity.js';
import type { TextIndexReader } from './text-index-reader.js';

/** When and how often the embedded search reads its query structures ahead of the queries. */
export interface WarmOptions {
  /** Entity types with at least this many documents are kept in memory. Default 20,000. */
  readonly minDocuments?: number;
  /** How often the structures catch up with the documents changed since. Default 1,000 ms. */
  readonly intervalMs?: number;
  /** Told when a catch-up fails (the next query then catches up itself); a pino logger fits. */
  readonly logger?: { warn(context: Record<string, unknown>, message: string): void };
}

const DEFAULT_MIN_DOCUMENTS = 20_000;
const DEFAULT_INTERVAL_MS = 1_000;

/**
 * Keeps the in-memory query structures of the large entity types (TextIndexReader's per-document
 * state, FacetForwardIndex's documents, filterable fields and urn order) built and current between
 * queries, so that no search pays for them:
 * - `start` reads them for every entity type with at least `minDocuments` documents, before the
 *   catalog takes requests. At a million datasets that is seconds, which the first search of the type
 *   used to spend.
 * - Then, every `intervalMs`, they catch up with the documents changed since: a few hundred a second
 *   under a bulk load. Without this the next search replayed every change since the one before it,
 *   or, past REPLAY_AT_MOST changes, read everything again. The urn order is rebuilt here once stale.
 * Smaller entity types are read at their first query, which costs milliseconds at that size. The
 * fields read ahead are the keyed ones offered as filters: the ecosystem's default facets.
 */
export class SearchWarmer {
  private readonly largeTypes: Database.Statement<[number], string>;
  private readonly warmInSnapshot: () => void;
  private readonly minDocuments: number;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    db: Database.Database,
    private readonly forward: FacetForwardIndex,
    private readonly text: TextIndexReader,
    private readonly entity: (entityType: string) => IndexedEntity | undefined,
    private readonly options: WarmOptions = {},
  ) {
    this.minDocuments = options.minDocuments ?? DEFAULT_MIN_DOCUMENTS;
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    if (!Number.isInteger(this.minDocuments) || this.minDocuments < 0)
      throw new RangeError(`minDocuments must be a non-negative integer, got ${this.minDocuments}`);
    if (!Number.isFinite(this.intervalMs) || this.intervalMs <= 0)
      throw new RangeError(`intervalMs must be positive, got ${this.intervalMs}`);
    this.largeTypes = db
      .prepare<[number], string>('SELECT entity_type FROM text_stats WHERE docs >= ? ORDER BY entity_type')
      .pluck();
    // One read snapshot for the catch-up and the reads, as a query has.
    this.warmInSnapshot = db.transaction(() => this.warmNow());
  }

  /** Reads the structures now, then keeps them current until `stop`. */
  start(): void {
    this.warmInSnapshot();
    this.timer ??= setInterval(() => this.tick(), this.intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Catches up (and reads any entity type that has grown large, or was dropped by a catch-up). */
  private tick(): void {
    try {
      this.warmInSnapshot();
      this.failing = false;
    } catch (error) {
      // Reported once per run of failures; the queries catch up on their own meanwhile.
      if (!this.failing) this.options.logger?.warn({ err: error }, 'search structures could not catch up');
      this.failing = true;
    }
  }

  private warmNow(): void {
    this.forward.sync();
    this.text.sync();
    for (const entityType of this.largeTypes.iterate(this.minDocuments)) {
      const entity = this.entity(entityType);
      if (entity === undefined) continue;
      this.text.warm(entityType);
      this.forward.warm(entityType, entity.filterFields);
    }
  }
}
