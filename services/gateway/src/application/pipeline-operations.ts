import type { RequestContext } from '@catalog/auth';
import type { EventLog, TopicNames } from '@catalog/events';
import type { Logger, ThreadMemory } from '@catalog/runtime';
import type { SearchIndex } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import { consumerLag, type ConsumerGroups } from './consumer-lag.js';
import { replayDeadLettersOperation } from './dead-letter-replay.js';
import { structuredPropertyCleanup, type PropertyCleanupStatus } from './structured-property-cleanup.js';

export interface PipelineOperationsDeps {
  readonly log: EventLog;
  readonly topics: TopicNames;
  readonly groups: ConsumerGroups;
  readonly search: SearchIndex;
  /** Which event log carries the pipeline. */
  readonly transport: 'kafka' | 'embedded';
  readonly logger: Logger;
  /** The process's other JavaScript threads' memory, listed in the consumer-lag memory report. */
  readonly threads?: () => Promise<readonly ThreadMemory[]>;
}

/**
 * The operators' view of the pipeline (the operations endpoints): the transport, consumer lag with the
 * process's memory, replaying dead letters, and the structured-property clean-up progress. Each asks
 * MANAGE_SYSTEM_OPERATIONS (with REST API authorization on, as the ecosystem's operations routes).
 */
export class PipelineOperations {
  constructor(
    private readonly deps: PipelineOperationsDeps,
    private readonly policy: AccessPolicy,
  ) {}

  async transport(ctx: RequestContext): Promise<'kafka' | 'embedded'> {
    await this.policy.systemOperation(ctx, 'read the transport');
    return this.deps.transport;
  }

  async consumerLag(ctx: RequestContext, kind: string, detailed: boolean): Promise<Record<string, unknown>> {
    await this.policy.systemOperation(ctx, 'read consumer lag');
    return consumerLag(kind, detailed, this.deps);
  }

  async replayDeadLetters(ctx: RequestContext, group: string | undefined): Promise<Record<string, unknown>> {
    await this.policy.systemOperation(ctx, 'replay dead letters');
    return replayDeadLettersOperation(group, this.deps);
  }

  async structuredPropertyCleanup(
    ctx: RequestContext,
    urn: string | undefined,
  ): Promise<{ properties: PropertyCleanupStatus[] }> {
    await this.policy.systemOperation(ctx, 'read clean-up progress');
    return structuredPropertyCleanup(urn, this.deps);
  }
}
