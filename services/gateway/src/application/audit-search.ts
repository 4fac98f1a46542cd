import type { RequestContext } from '@catalog/auth';
import { isDomainError, isRestrictedAspect, UnavailableError, ValidationError } from '@catalog/model';
import {
  normalizeAuditQuery,
  type AuditEvent,
  type AuditIndex,
  type AuditPage,
  type AuditQuery,
} from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';

/** The audit trail's vocabulary and shapes (domain data, re-exported for the interfaces). */
export {
  AUDIT_EVENT_TYPES,
  AUDIT_MAX_PAGE_SIZE,
  DAY_MS,
  isAuditEventType,
  isLoginEventType,
} from '@catalog/search';
export type { AuditCursor, AuditEvent, AuditPage, AuditQuery } from '@catalog/search';

/**
 * The fields the audit consumer records in the raw event of an entity change (see the audit service's
 * auditEventOfChangeLog): who, when, where from and which aspect, never its value. An event about a
 * restricted aspect keeps only these in its raw event, so no secret material an older or other
 * producer put there leaves.
 */
const CHANGE_RAW_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'timestamp',
  'actorUrn',
  'entityUrn',
  'entityType',
  'aspectName',
  'eventSource',
  'sourceIP',
  'userAgent',
  'traceId',
  'usageSource',
]);

/**
 * The audit event search. Decides ANALYTICS READ, then each event about an entity as a single read of
 * that entity (events of entities the actor may not read are left out of the page; the page still
 * continues where the index stopped), except the actor's own actions: a user sees the events of what
 * it did itself (creating and revoking its own access token, whose entity only token managers read); the raw event of a restricted aspect's change carries no value
 * for anyone but the system actor. A query the index refuses is a 400; an index that fails, a 503.
 */
export class AuditSearch {
  constructor(
    private readonly audit: AuditIndex,
    private readonly policy: AccessPolicy,
  ) {}

  /**
   * `queryOf` reads the request once the actor is allowed: a refused caller is refused before its
   * request is looked at, as the ecosystem does.
   */
  async search(ctx: RequestContext, queryOf: () => AuditQuery): Promise<AuditPage> {
    await this.policy.readAnalytics(ctx);
    const page = await this.query(queryOf());
    if (ctx.authentication.isSystem) return page;
    const urns = [...new Set(page.events.flatMap((e) => (e.entityUrn === undefined ? [] : [e.entityUrn])))];
    const readable = new Set(await this.policy.readable(ctx, urns));
    return {
      ...page,
      events: page.events
        .filter(
          (e) =>
            e.entityUrn === undefined ||
            readable.has(e.entityUrn) ||
            e.actorUrn === ctx.authentication.actorUrn,
        )
        .map(withoutRestrictedValues),
    };
  }

  private async query(query: AuditQuery): Promise<AuditPage> {
    try {
      return await this.audit.search(normalizeAuditQuery(query));
    } catch (error) {
      if (error instanceof RangeError) throw new ValidationError(error.message);
      if (isDomainError(error)) throw error;
      throw new UnavailableError('The audit index is unavailable', { cause: error });
    }
  }
}

function withoutRestrictedValues(event: AuditEvent): AuditEvent {
  if (event.aspectName === undefined || !isRestrictedAspect(event.aspectName)) return event;
  const raw = Object.entries(event.rawUsageEvent);
  if (raw.every(([key]) => CHANGE_RAW_FIELDS.has(key))) return event;
  return {
    ...event,
    rawUsageEvent: Object.fromEntries(raw.filter(([key]) => CHANGE_RAW_FIELDS.has(key))),
  };
}
