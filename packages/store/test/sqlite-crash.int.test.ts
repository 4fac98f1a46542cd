import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteAspectStore } from '../src/index.js';
import { CRASH_ASPECTS, CRASH_URN_COUNT, crashWrite, seqOfRequestId } from './crash-writes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const writerScript = join(here, 'crash-writer.ts');

/** Runs the writer until it has acknowledged `ackTarget` writes, then SIGKILLs it; returns the acknowledged ids. */
async function killWriterAfter(file: string, ackTarget: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', writerScript, file], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffered = '';
  let stderr = '';
  const acknowledged: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((done) =>
    child.on('exit', (_code, signal) => done(signal)),
  );
  await new Promise<void>((done, fail) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      // A line cut short by the kill has no newline yet and is not an acknowledgement.
      buffered = lines.pop() ?? '';
      acknowledged.push(...lines);
      if (acknowledged.length >= ackTarget && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        done();
      }
    });
    child.on('exit', (code) => fail(new Error(`writer exited (${code}) before the kill: ${stderr}`)));
  }).catch(async (error: unknown) => {
    await exited;
    throw error;
  });
  expect(await exited).toBe('SIGKILL');
  // Lines that arrived between the kill and the exit were acknowledged too.
  return acknowledged.concat(buffered.split('\n').slice(0, -1));
}

describe('embedded aspect store after kill -9', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  for (const round of [1, 2, 3]) {
    it(`keeps every acknowledged write exactly once (round ${round})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aspect-crash-'));
      dirs.push(dir);
      const file = join(dir, 'aspects.db');
      const acknowledged = await killWriterAfter(file, 200 + Math.floor(Math.random() * 3_000));
      expect(acknowledged.length).toBeGreaterThanOrEqual(200);

      const raw = new Database(file);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();

      const store = await openSqliteAspectStore({ file });
      try {
        const storedSeqs: number[] = [];
        for (let u = 0; u < CRASH_URN_COUNT; u += 1) {
          const urn = crashWrite(u).urn;
          expect(await store.listVersions(urn, 'datasetKey')).toHaveLength(1);
          for (const aspect of CRASH_ASPECTS) {
            const versions = await store.listVersions(urn, aspect);
            const numbers = versions.map((v) => v.version).sort((a, b) => a - b);
            expect(numbers).toEqual(Array.from({ length: versions.length }, (_, i) => i));
            storedSeqs.push(...versions.map((v) => Number(v.value['seq'])));
          }
        }
        // Batches run one after another, so what survived is a prefix of the sequence, each write once,
        // and it covers everything the writer acknowledged.
        storedSeqs.sort((a, b) => a - b);
        expect(storedSeqs).toEqual(Array.from({ length: storedSeqs.length }, (_, i) => i));
        const maxAcknowledged = Math.max(...acknowledged.map(seqOfRequestId));
        expect(storedSeqs.length).toBeGreaterThan(maxAcknowledged);

        const redelivered = await store.applyBatch(acknowledged.map((id) => crashWrite(seqOfRequestId(id))));
        expect(redelivered.every((result) => result.replayed)).toBe(true);
        expect(await store.count()).toBe(CRASH_URN_COUNT * (CRASH_ASPECTS.length + 1));
        let rows = 0;
        for (let u = 0; u < CRASH_URN_COUNT; u += 1) {
          for (const aspect of CRASH_ASPECTS)
            rows += (await store.listVersions(crashWrite(u).urn, aspect)).length;
        }
        expect(rows).toBe(storedSeqs.length);
      } finally {
        await store.close();
      }
    });
  }
});
