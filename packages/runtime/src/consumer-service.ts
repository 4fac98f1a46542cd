import type { EventLog } from '@catalog/events';
import { describeAdapters } from './adapter-settings.js';
import { openEventLog } from './adapters.js';
import { startConsumerHealth, type HealthReportingConsumer } from './health/consumer-health.js';
import type { Pingable } from './health/readiness.js';
import { Lifecycle, runMain } from './lifecycle.js';
import { createLogger, type Logger } from './logger.js';
import { runAtNice } from './process-priority.js';
import type { ConsumerConfig } from './service-config.js';

/** What the runner reads of a consumer's configuration (ConsumerConfig has it; `nice` when the role has one). */
export type ConsumerServiceConfig = Pick<
  ConsumerConfig,
  'logLevel' | 'adapters' | 'healthPort' | 'groupId'
> & {
  readonly nice?: number;
};

/** A consumer as its process runs it: ready once it consumes, stopped on shutdown. */
export interface RunningConsumer extends HealthReportingConsumer {
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/** What a consumer service opens beside the event log, and how it starts over what it opened. */
export interface ConsumerServiceParts {
  /** The adapters readiness pings beside the event log. */
  readonly dependencies?: { readonly store?: Pingable; readonly search?: Pingable };
  /** Counters served on the health server's `/stats`. */
  readonly stats?: () => unknown;
  /** Fields the "consuming" line carries beside the group and the adapters. */
  readonly describe?: Readonly<Record<string, unknown>>;
  start(): Promise<RunningConsumer>;
}

/**
 * The composition root every consumer process (persistence, indexer, audit, change events, ...) shares:
 * its logger and nice value, the event log, the service's own adapters (`open`, each registered with the
 * lifecycle by it), the health server, the consumer started and reported as consuming, and one line
 * saying so. Shutdown closes them in reverse order (runMain's signals).
 */
export async function runConsumerService(
  name: string,
  config: ConsumerServiceConfig,
  open: (opened: { log: EventLog; lifecycle: Lifecycle; logger: Logger }) => Promise<ConsumerServiceParts>,
): Promise<void> {
  const logger = createLogger({ name, level: config.logLevel });
  if (config.nice !== undefined) runAtNice(config.nice, logger);
  await runMain(logger, async () => {
    const lifecycle = new Lifecycle(logger);
    const log = await openEventLog(config.adapters, logger);
    lifecycle.onClose('event log', () => log.close());
    const parts = await open({ log, lifecycle, logger });
    const health = await startConsumerHealth({
      port: config.healthPort,
      dependencies: { ...parts.dependencies, log },
      logger,
      lifecycle,
      ...(parts.stats ? { stats: parts.stats } : {}),
    });
    const service = await parts.start();
    lifecycle.onClose(`${name} consumer`, () => service.stop());
    await service.ready;
    health.consuming(service);
    logger.info(
      { groupId: config.groupId, ...parts.describe, ...describeAdapters(config.adapters) },
      `${name} consuming`,
    );
    return lifecycle;
  });
}
