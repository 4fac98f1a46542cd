import {
  createLogger,
  deadLetterTargetOf,
  EnvReader,
  openEventLog,
  readAdapterSettings,
  readConsumerSettings,
  readLogLevel,
  replayDeadLetters,
} from '@catalog/runtime';

/**
 * `pnpm dead-letters:replay <group>` (or `node services/system-update/dist/replay-dead-letters-main.js
 * <group>`): produces a consumer group's dead letters again, once the cause is fixed. `<group>` is a role
 * (persistence, indexer, audit, structured-property-cleanup) or a group id; the adapters and group ids
 * come from the same variables the services read, so it works on both families (on the embedded one,
 * beside a running catalog: the log file is shared). Prints what it replayed as JSON; exit 1 on failure.
 */
const env = new EnvReader(process.env);
const adapters = readAdapterSettings(env);
/** Only the group ids are used here. */
const GROUP_ONLY = { maxBatchSize: 1, batchWaitMs: 0 };
const groups = {
  persistence: readConsumerSettings(env, 'persistence', adapters.topics, GROUP_ONLY).groupId,
  indexer: readConsumerSettings(env, 'indexer', adapters.topics, GROUP_ONLY).groupId,
  audit: readConsumerSettings(env, 'audit', adapters.topics, GROUP_ONLY).groupId,
};
const logger = createLogger({ name: 'dead-letter-replay', level: readLogLevel(env) });
const name = process.argv.slice(2).find((a) => !a.startsWith('-'));
const target = name === undefined ? undefined : deadLetterTargetOf(name, groups, adapters.topics);
if (!target) {
  process.stderr.write(
    `usage: dead-letters:replay <group>: one of persistence, indexer, audit, structured-property-cleanup, ` +
      `${Object.values(groups).join(', ')}\n`,
  );
  process.exit(2);
}
try {
  const log = await openEventLog(adapters, logger);
  try {
    const result = await replayDeadLetters({ log, ...target, logger });
    process.stdout.write(`${JSON.stringify({ group: target.groupId, ...result })}\n`);
  } finally {
    await log.close();
  }
} catch (error) {
  logger.fatal({ err: error }, 'dead-letter replay failed');
  process.exitCode = 1;
}
