import { crashWrite } from './crash-writes.js';
import { openSqliteAspectStore } from '../src/index.js';

/**
 * Child process of the crash test: applies batches of crash writes forever and prints each request
 * id on its own line only after applyBatch has resolved. The parent kills it with SIGKILL.
 */
const file = process.argv[2];
if (file === undefined) throw new Error('usage: crash-writer <database file>');
const store = await openSqliteAspectStore({ file });
let seq = 0;
for (;;) {
  // Batch sizes vary from 1 to 16 so the kill lands in both small and large transactions.
  const size = 1 + (seq % 16);
  const writes = Array.from({ length: size }, (_, i) => crashWrite(seq + i));
  await store.applyBatch(writes);
  process.stdout.write(writes.map((w) => `${w.requestId}\n`).join(''));
  seq += size;
}
