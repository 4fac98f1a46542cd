import type { RequestContext } from '@catalog/auth';
import { ThrottledError } from '@catalog/model';
import { agentClassOf } from '../metrics/agent-class.js';
import type { AccessPolicy } from './access-policy.js';

/** The ecosystem's throttle types that apply to API writes. */
export type ThrottleType = 'MANUAL';

/**
 * The API write throttle (the ecosystem's ManualThrottleSensor and APIThrottle): an operator switches
 * it on (`POST /openapi/operations/throttle/requests/manual?enabled=true`) to hold back synchronous
 * ingestion while the pipeline catches up; meanwhile such a write from a program answers 429 with
 * Retry-After and nothing written. Asynchronous writes only queue a proposal and are not throttled, nor
 * are requests from a browser (the UI's edits) or without a User-Agent (internal calls), as there.
 * The switch is this process's (the ecosystem's without its distributed cache): with several gateways,
 * each is switched on its own.
 */
export class ApiThrottle {
  private manual = false;

  constructor(private readonly policy: AccessPolicy) {}

  /**
   * The active throttle events, keyed as the ecosystem's endpoint prints them (the set of active types):
   * `{}` when none, `{"[MANUAL]": {activeThrottles, disabledThrottles, throttled}}` while switched on.
   */
  async events(ctx: RequestContext): Promise<Record<string, unknown>> {
    await this.policy.systemOperation(ctx, 'read the API throttle');
    return this.snapshot();
  }

  /**
   * Switches the manual throttle; answers the events as they are after. `enabledOf` reads the request
   * once the actor is allowed: a refused caller is refused before its request is looked at.
   */
  async setManual(ctx: RequestContext, enabledOf: () => boolean): Promise<Record<string, unknown>> {
    await this.policy.systemOperation(ctx, 'switch the API throttle');
    this.manual = enabledOf();
    return this.snapshot();
  }

  /** Throws the 429 for a synchronous write the throttle holds back. */
  check(ctx: RequestContext, sync: boolean): void {
    if (!this.manual || !sync) return;
    const userAgent = ctx.origin.userAgent;
    if (userAgent === '' || agentClassOf(userAgent) === 'browser') return;
    throw new ThrottledError('Throttled due to [MANUAL]: API writes are held back; retry later');
  }

  private snapshot(): Record<string, unknown> {
    if (!this.manual) return {};
    return { '[MANUAL]': { activeThrottles: ['MANUAL'], disabledThrottles: [], throttled: true } };
  }
}
