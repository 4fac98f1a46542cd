import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventLogContract } from '@catalog/testkit';
import { openEmbeddedEventLog } from './embedded-event-log.js';

eventLogContract('embedded (SQLite)', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'eventlog-contract-'));
  const log = await openEmbeddedEventLog({ directory, retryInitialMs: 20 });
  return {
    log,
    cleanup: async () => {
      await log.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});
