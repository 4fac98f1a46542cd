import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import type { JsonClient } from './load.js';
import type { ProcessMemory } from '@catalog/runtime';

/**
 * What a benchmarked catalog costs: its resident memory, as the catalog itself reports it over HTTP
 * (so it is the catalog process's, not the bench's), and its data directory on disk, by file.
 */

const MIB = 1024 * 1024;
const mib = (bytes: number): number => +(bytes / MIB).toFixed(1);

/** The memory section of the consumer-lag operation, in bytes: the answering process's ProcessMemory. */
export type CatalogMemory = ProcessMemory;

/** The catalog process's memory, from its consumer-lag operation. */
export async function catalogMemory(client: JsonClient): Promise<CatalogMemory> {
  const body = JSON.parse(await client.expectOk('GET', '/openapi/operations/messaging/mcp/consumer/lag')) as {
    memory?: CatalogMemory;
  };
  if (!body.memory) throw new Error('the consumer-lag operation reported no memory section');
  return body.memory;
}

/** One line of a memory table, in MiB. */
export function memoryRow(memory: CatalogMemory): Record<string, number | string> {
  return {
    'rss MiB': mib(memory.rss),
    'anon MiB': memory.rssAnon === undefined ? '' : mib(memory.rssAnon),
    'file MiB': memory.rssFile === undefined ? '' : mib(memory.rssFile),
    'heapUsed MiB': mib(memory.heapUsed),
    'heapTotal MiB': mib(memory.heapTotal),
    'external MiB': mib(memory.external),
    'arrayBuffers MiB': mib(memory.arrayBuffers),
    // Every thread's heap (used/total), where the catalog lists its threads.
    'thread heaps MiB': (memory.threads ?? [])
      .map((t) => `${t.thread} ${mib(t.heapUsed)}/${mib(t.heapTotal)}`)
      .join(', '),
  };
}

/**
 * The peak resident memory (VmHWM) of a child process, sampled until it exits: Linux only (undefined
 * elsewhere, or when the child ended before the first sample).
 */
export function watchPeakMemory(pid: number | undefined, intervalMs = 250): () => number | undefined {
  let peak: number | undefined;
  const sample = (): void => {
    if (pid === undefined) return;
    try {
      const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak ?? 0, Number(match[1]) * 1024);
    } catch {
      // gone, or no /proc
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** What a top-level entry of an embedded data directory belongs to. */
export function componentOf(name: string): string {
  if (name.startsWith('aspects.sqlite')) return 'aspect store';
  if (name.startsWith('eventlog.sqlite')) return 'event log';
  if (name.startsWith('search.sqlite')) return 'search index';
  if (name.startsWith('audit.sqlite')) return 'audit index';
  return 'other';
}

export interface DataDirEntry {
  /** A top-level file or directory (a directory's size is that of everything under it). */
  readonly name: string;
  readonly component: string;
  readonly bytes: number;
}

/** The data directory's top-level files and directories with their sizes (apparent bytes), largest first. */
export function dataDirUsage(dir: string): DataDirEntry[] {
  const sizeOf = (path: string): number => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return 0; // removed meanwhile (a WAL at checkpoint)
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  };
  return readdirSync(dir)
    .map((name) => ({ name, component: componentOf(name), bytes: sizeOf(join(dir, name)) }))
    .sort((a, b) => b.bytes - a.bytes);
}

/**
 * The data directory at one moment, how many aspects had been written then, and (when the bench counts
 * it) the bytes of those aspects' own JSON values as written (UTF-8), the measure the disk ratios take.
 */
export interface DiskSnapshot {
  readonly label: string;
  readonly entries: readonly DataDirEntry[];
  readonly aspects: number;
  readonly jsonBytes?: number;
}

/** The UTF-8 bytes of the aspect values (`aspect.value`, JSON text) of metadata change proposals. */
export function proposalJsonBytes(proposals: readonly Record<string, unknown>[]): number {
  let bytes = 0;
  for (const p of proposals) {
    const value = (p['aspect'] as { value?: unknown } | undefined)?.value;
    if (typeof value === 'string') bytes += Buffer.byteLength(value);
  }
  return bytes;
}

/**
 * The lines of a disk table: each component with its files under it, then the total; for each
 * snapshot, MiB and bytes per aspect written.
 */
export function diskTable(snapshots: readonly DiskSnapshot[]): Record<string, string | number>[] {
  const bytesOf = (s: DiskSnapshot, pick: (e: DataDirEntry) => boolean): number =>
    s.entries.filter(pick).reduce((sum, e) => sum + e.bytes, 0);
  const line = (label: string, pick: (e: DataDirEntry) => boolean): Record<string, string | number> => {
    const out: Record<string, string | number> = { '': label };
    for (const s of snapshots) {
      const bytes = bytesOf(s, pick);
      out[`${s.label} MiB`] = mib(bytes);
      out[`${s.label} B/aspect`] = Math.round(bytes / s.aspects);
    }
    return out;
  };
  const all = snapshots.flatMap((s) => s.entries);
  const last = snapshots[snapshots.length - 1]!;
  const components = [...new Set(all.map((e) => e.component))].sort(
    (a, b) => bytesOf(last, (e) => e.component === b) - bytesOf(last, (e) => e.component === a),
  );
  const rows: Record<string, string | number>[] = [];
  for (const component of components) {
    rows.push(line(component, (e) => e.component === component));
    const names = [...new Set(all.filter((e) => e.component === component).map((e) => e.name))].sort();
    for (const name of names) rows.push(line(`  ${name}`, (e) => e.name === name));
  }
  rows.push(line('total', () => true));
  if (snapshots.some((s) => s.jsonBytes !== undefined)) {
    // What the directory costs against the aspects' own JSON: the store and the search index together,
    // and the whole directory (event log and audit index included).
    const ratio = (label: string, pick: (e: DataDirEntry) => boolean): Record<string, string | number> => {
      const out: Record<string, string | number> = { '': label };
      for (const s of snapshots) {
        out[`${s.label} MiB`] = '';
        out[`${s.label} B/aspect`] = s.jsonBytes ? `${(bytesOf(s, pick) / s.jsonBytes).toFixed(2)}×` : '';
      }
      return out;
    };
    const json: Record<string, string | number> = { '': "aspects' JSON" };
    for (const s of snapshots) {
      json[`${s.label} MiB`] = s.jsonBytes === undefined ? '' : mib(s.jsonBytes);
      json[`${s.label} B/aspect`] = s.jsonBytes === undefined ? '' : Math.round(s.jsonBytes / s.aspects);
    }
    rows.push(json);
    rows.push(
      ratio('store + search ÷ JSON', (e) => e.component === 'aspect store' || e.component === 'search index'),
    );
    rows.push(ratio('total ÷ JSON', () => true));
  }
  return rows;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * better-sqlite3 as the runtime package has it (the bench declares no driver of its own), for reading
 * the files' table statistics.
 */
function sqliteDriver(): typeof BetterSqlite3 {
  return createRequire(join(repoRoot, 'packages/runtime/package.json'))(
    'better-sqlite3',
  ) as typeof BetterSqlite3;
}

/**
 * The tables and indices of a SQLite file by bytes (SQLite's dbstat: pages in use, payload bytes) with
 * its free pages, largest first; `top` of them, the rest summed. Opened read only: the catalog may still
 * be writing (the WAL's committed pages are counted).
 */
export function sqliteTables(file: string, aspects: number, top = 8): Record<string, string | number>[] {
  const Database = sqliteDriver();
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare<[], { name: string; bytes: number; payload: number; rows: number }>(
        `SELECT name, SUM(pgsize) AS bytes, SUM(payload) AS payload, SUM(ncell) AS rows
           FROM dbstat WHERE aggregate = TRUE GROUP BY name ORDER BY bytes DESC`,
      )
      .all();
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const free = Number(db.pragma('freelist_count', { simple: true })) * pageSize;
    const line = (name: string, bytes: number, payload: number | string, rows: number | string) => ({
      table: name,
      MiB: mib(bytes),
      'bytes/aspect': Math.round(bytes / aspects),
      'payload MiB': typeof payload === 'number' ? mib(payload) : payload,
      cells: rows,
    });
    const shown = tables.slice(0, top).map((t) => line(t.name, t.bytes, t.payload, t.rows));
    const rest = tables.slice(top);
    if (rest.length > 0)
      shown.push(
        line(
          `(${rest.length} more)`,
          rest.reduce((sum, t) => sum + t.bytes, 0),
          rest.reduce((sum, t) => sum + t.payload, 0),
          rest.reduce((sum, t) => sum + t.rows, 0),
        ),
      );
    if (free > 0) shown.push(line('(free pages)', free, '', ''));
    return shown;
  } finally {
    db.close();
  }
}
