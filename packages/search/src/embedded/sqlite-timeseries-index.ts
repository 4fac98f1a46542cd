import type Database from 'better-sqlite3';
import { matchesFilter } from '../matches-filter.js';
import { normalizeFilter } from '../normalize-filter.js';
import type {
  TimeseriesDeletion,
  TimeseriesDocument,
  TimeseriesIndex,
  TimeseriesQuery,
  TimeseriesRunGroup,
} from '../port.js';
import { timeseriesRunIdOf } from '../timeseries-document-id.js';
import type { SqliteHandle } from './sqlite-handle.js';
import { writeTransaction } from './write-transaction.js';

interface TimeseriesRow {
  readonly id: string;
  readonly entity_type: string;
  readonly aspect: string;
  readonly urn: string;
  readonly ts: number;
  readonly value: string;
  readonly system_metadata: string | null;
}

/**
 * The embedded TimeseriesIndex: one row per document id (so re-indexing an event replaces it), read
 * newest first (ties by ascending id) through the (entity_type, aspect, urn, ts) index, or the
 * (entity_type, aspect, ts, id) index for a scan; a filter is applied to the value's top-level
 * fields as rows stream, until `limit` documents match.
 */
export class SqliteTimeseriesIndex implements TimeseriesIndex {
  private readonly write: (documents: readonly TimeseriesDocument[]) => void;
  private readonly remove: Database.Statement<unknown[]>;
  private readonly removeOfRun: Database.Statement<unknown[]>;
  private readonly counter: Database.Statement<unknown[], { n: number }>;
  private readonly counterOfRun: Database.Statement<unknown[], { n: number }>;
  private readonly groupsOfRun: Database.Statement<[string], TimeseriesRunGroup>;
  private readonly removeRun: Database.Statement<[string]>;
  private readonly selects = new Map<string, Database.Statement<unknown[], TimeseriesRow>>();
  private released = false;

  constructor(private readonly handle: SqliteHandle) {
    handle.acquire();
    const db = handle.db;
    const insert = db.prepare(
      `INSERT OR REPLACE INTO timeseries (id, entity_type, aspect, urn, ts, value, system_metadata, run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.write = writeTransaction(db, (documents: readonly TimeseriesDocument[]) => {
      for (const d of documents)
        insert.run(
          d.id,
          d.entityType,
          d.aspect,
          d.urn,
          d.timestampMillis,
          JSON.stringify(d.value),
          d.systemMetadata === undefined ? null : JSON.stringify(d.systemMetadata),
          timeseriesRunIdOf(d.systemMetadata) ?? null,
        );
    });
    // Through the (entity_type, aspect, urn, ts) index, as a one-urn read.
    this.remove = db.prepare(
      `DELETE FROM timeseries WHERE entity_type = ? AND aspect = ? AND urn = ? AND ts >= ? AND ts <= ?`,
    );
    this.counter = db.prepare<unknown[], { n: number }>(
      `SELECT COUNT(*) AS n FROM timeseries
       WHERE entity_type = ? AND aspect = ? AND urn = ? AND ts >= ? AND ts <= ?`,
    );
    // The same, restricted to one run's documents.
    this.removeOfRun = db.prepare(
      `DELETE FROM timeseries
       WHERE entity_type = ? AND aspect = ? AND urn = ? AND ts >= ? AND ts <= ? AND run_id = ?`,
    );
    this.counterOfRun = db.prepare<unknown[], { n: number }>(
      `SELECT COUNT(*) AS n FROM timeseries
       WHERE entity_type = ? AND aspect = ? AND urn = ? AND ts >= ? AND ts <= ? AND run_id = ?`,
    );
    // Through the (run_id, entity_type, aspect, urn) index.
    this.groupsOfRun = db.prepare<[string], TimeseriesRunGroup>(
      `SELECT entity_type AS entityType, aspect, urn, COUNT(*) AS count FROM timeseries
       WHERE run_id = ? GROUP BY entity_type, aspect, urn ORDER BY entity_type, aspect, urn`,
    );
    this.removeRun = db.prepare<[string]>(`DELETE FROM timeseries WHERE run_id = ?`);
  }

  /** One prepared statement per shape: with or without a urn, with or without a resume position. */
  private select(byUrn: boolean, resumes: boolean): Database.Statement<unknown[], TimeseriesRow> {
    const key = `${byUrn}/${resumes}`;
    let statement = this.selects.get(key);
    if (statement === undefined) {
      statement = this.handle.db.prepare<unknown[], TimeseriesRow>(
        `SELECT id, entity_type, aspect, urn, ts, value, system_metadata FROM timeseries
         WHERE entity_type = ? AND aspect = ?${byUrn ? ' AND urn = ?' : ''} AND ts >= ? AND ts <= ?
         ${resumes ? 'AND (ts < ? OR (ts = ? AND id > ?))' : ''}
         ORDER BY ts DESC, id ASC`,
      );
      this.selects.set(key, statement);
    }
    return statement;
  }

  async ensure(_entityType: string, _aspect: string): Promise<void> {}

  async upsert(documents: readonly TimeseriesDocument[]): Promise<void> {
    if (documents.length > 0) this.write(documents);
  }

  async query(query: TimeseriesQuery): Promise<readonly TimeseriesDocument[]> {
    const filter = normalizeFilter(query.filter);
    const found: TimeseriesDocument[] = [];
    if (query.limit <= 0) return found;
    const parameters: unknown[] = [query.entityType, query.aspect];
    if (query.urn !== undefined) parameters.push(query.urn);
    parameters.push(
      query.startTimeMillis ?? Number.MIN_SAFE_INTEGER,
      query.endTimeMillis ?? Number.MAX_SAFE_INTEGER,
    );
    const { after } = query;
    if (after !== undefined) parameters.push(after.timestampMillis, after.timestampMillis, after.id);
    const rows = this.select(query.urn !== undefined, after !== undefined).iterate(...parameters);
    for (const row of rows) {
      const value = JSON.parse(row.value) as Record<string, unknown>;
      if (!matchesFilter(filter, (field) => topLevelValues(value, field))) continue;
      found.push({
        entityType: row.entity_type,
        aspect: row.aspect,
        urn: row.urn,
        timestampMillis: row.ts,
        id: row.id,
        value,
        ...(row.system_metadata === null
          ? {}
          : { systemMetadata: JSON.parse(row.system_metadata) as Record<string, unknown> }),
      });
      if (found.length >= query.limit) break;
    }
    return found;
  }

  async delete(deletion: TimeseriesDeletion): Promise<number> {
    const { changes } =
      deletion.runId === undefined
        ? this.remove.run(...rangeParameters(deletion))
        : this.removeOfRun.run(...rangeParameters(deletion), deletion.runId);
    return changes;
  }

  async count(range: TimeseriesDeletion): Promise<number> {
    const row =
      range.runId === undefined
        ? this.counter.get(...rangeParameters(range))
        : this.counterOfRun.get(...rangeParameters(range), range.runId);
    return row?.n ?? 0;
  }

  async runGroups(runId: string): Promise<readonly TimeseriesRunGroup[]> {
    return this.groupsOfRun.all(runId).map((g) => ({ ...g }));
  }

  async countRun(runId: string): Promise<number> {
    return (await this.runGroups(runId)).reduce((sum, g) => sum + g.count, 0);
  }

  async deleteRun(runId: string): Promise<number> {
    return this.removeRun.run(runId).changes;
  }

  async refresh(): Promise<void> {}

  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.handle.release();
  }
}

function rangeParameters(range: TimeseriesDeletion): unknown[] {
  return [
    range.entityType,
    range.aspect,
    range.urn,
    range.startTimeMillis ?? Number.MIN_SAFE_INTEGER,
    range.endTimeMillis ?? Number.MAX_SAFE_INTEGER,
  ];
}

function topLevelValues(value: Record<string, unknown>, field: string): readonly unknown[] {
  const v = value[field];
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? (v as unknown[]) : [v];
}
