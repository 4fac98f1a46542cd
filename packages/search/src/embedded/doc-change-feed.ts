import type Database from 'better-sqlite3';

/** A reader that fell further behind than this rebuilds instead of replaying (the writer keeps twice it). */
export const REPLAY_AT_MOST = 50_000;

/**
 * A reader's position in `doc_changes`, the ids of changed documents the writers record in commit
 * order: in-memory indexes (FacetForwardIndex, TextIndexReader) catch up by re-reading those documents,
 * or start over when that would cost more than rebuilding or the file was replaced.
 */
export class DocChangeFeed {
  private seq = 0;
  private readonly maxSeq: Database.Statement<[], number | null>;
  private readonly changes: Database.Statement<[number], number>;

  constructor(db: Database.Database) {
    this.maxSeq = db.prepare<[], number | null>('SELECT MAX(seq) FROM doc_changes').pluck();
    this.changes = db.prepare<[number], number>('SELECT DISTINCT doc FROM doc_changes WHERE seq > ?').pluck();
  }

  /**
   * Calls `changed` with each document changed since the last call (in the caller's read snapshot),
   * unless `reset` is due instead; `built` says whether the reader holds anything to keep current.
   */
  catchUp(built: boolean, changed: (id: number) => void, reset: () => void): void {
    const latest = this.maxSeq.get() ?? 0;
    if (latest === this.seq) return;
    if (latest < this.seq || latest - this.seq > REPLAY_AT_MOST) reset();
    else if (built) for (const id of this.changes.iterate(this.seq)) changed(id);
    this.seq = latest;
  }
}
