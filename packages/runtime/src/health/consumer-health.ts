import type { Logger } from 'pino';
import { assertNotRetrying, type ConsumerFailureState } from '../consumer-failures/failure-policy.js';
import type { Lifecycle } from '../lifecycle.js';
import { startHealthServer } from './health-server.js';
import { dependencyChecks, Readiness, type Pingable } from './readiness.js';

/** A consumer as readiness sees it: its failure state. */
export interface HealthReportingConsumer {
  failures(): ConsumerFailureState;
}

export interface ConsumerHealth {
  /** From now on the process is ready while the consumer is not retrying a transient failure. */
  consuming(consumer: HealthReportingConsumer): void;
}

/**
 * The health of a consumer process (persistence, indexer, audit): `/health/live`, and `/health/ready`
 * with its dependencies and a `consumer` check that fails until it consumes and while it retries a
 * dependency that is down. Served on `port` (none when 0); closed with the lifecycle.
 */
export async function startConsumerHealth(options: {
  readonly port: number;
  readonly dependencies: { readonly store?: Pingable; readonly search?: Pingable; readonly log?: Pingable };
  readonly logger: Logger;
  readonly lifecycle: Lifecycle;
  /** Counters served on `/stats`. */
  readonly stats?: () => unknown;
}): Promise<ConsumerHealth> {
  let running: HealthReportingConsumer | undefined = undefined;
  const readiness = new Readiness([
    ...dependencyChecks(options.dependencies),
    {
      name: 'consumer',
      check: async () => {
        if (!running) throw new Error('not consuming yet');
        assertNotRetrying(running.failures());
      },
    },
  ]);
  if (options.port > 0) {
    const health = await startHealthServer({
      port: options.port,
      readiness,
      logger: options.logger,
      ...(options.stats ? { stats: options.stats } : {}),
    });
    options.lifecycle.onClose('health', () => health.close());
  }
  return {
    consuming: (consumer) => {
      running = consumer;
    },
  };
}
