import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
const file = '/tmp/probe.sqlite';
rmSync(file, { force: true });
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');
const variant = process.argv[2] ?? 'full';
db.exec(`CREATE VIRTUAL TABLE f USING fts5(c0, c1, c2, c3, c4, c5, c6, ${variant === 'plain' ? '' : "content='', contentless_delete=1,"} tokenize='unicode61 remove_diacritics 2' ${variant === 'noprefix' ? '' : ", prefix='2 3 4'"})`);
const ins = db.prepare('INSERT INTO f (rowid, c0, c1, c2, c3, c4, c5, c6) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
const del = db.prepare('DELETE FROM f WHERE rowid = ?');
const w = () => Math.random().toString(36).slice(2, 8);
const text = (n: number) => Array.from({ length: n }, w).join(' ');
const N = 20000;
const t0 = performance.now();
const tx = db.transaction((start: number) => {
  for (let i = start; i < start + 1000; i++) {
    if (variant === 'delete') del.run(i);
    ins.run(i, text(3), text(3), text(2), text(12), text(20), text(20), text(5));
  }
});
for (let s = 0; s < N; s += 1000) tx(s);
console.log(variant, Math.round(N / ((performance.now() - t0) / 1000)), 'docs/s');
