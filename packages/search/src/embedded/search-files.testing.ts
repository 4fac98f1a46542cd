import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';

/**
 * Scratch search files for int tests that reopen one file (conversions at open, layouts of older
 * builds): `file()` names a new file in its own temporary directory, `open()` opens it, collecting
 * the logger's messages when given a list. What they open is closed, and the directories removed,
 * after each test.
 */
export function scratchSearchFiles(prefix: string): {
  file: () => string;
  open: (path: string, messages?: string[]) => Promise<EmbeddedSearch>;
  /** Closes the file opened last (so that the test can open it again). */
  closeLast: () => Promise<void>;
} {
  const opened: EmbeddedSearch[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    file: () => {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      dirs.push(dir);
      return join(dir, 'search.sqlite');
    },
    open: async (path, messages) => {
      const o = await openEmbeddedSearch({
        file: path,
        ...(messages === undefined
          ? {}
          : { logger: { info: (_: unknown, message: string) => messages.push(message) } }),
      });
      opened.push(o);
      return o;
    },
    closeLast: async () => {
      await opened.pop()?.close();
    },
  };
}
