import { JSON_CONTENT_TYPE, type PlatformEvent } from '@catalog/events';
import type { ChangeAuditStamp, ChangeEvent } from '@catalog/model';

/** The platform event name of an entity change event (the ecosystem's CHANGE_EVENT_PLATFORM_EVENT_NAME). */
export const ENTITY_CHANGE_EVENT_NAME = 'entityChangeEvent';

/** The ecosystem's EntityChangeEvent record (platform.event.v1), as its JSON payload carries it. */
export interface EntityChangeEvent {
  readonly entityType: string;
  readonly entityUrn: string;
  readonly category: string;
  readonly operation: string;
  readonly modifier?: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly auditStamp: ChangeAuditStamp & { readonly impersonator?: string };
  /** The version of the event type; the ecosystem's is 0. */
  readonly version: number;
}

/** The entity type of a urn: the part after `urn:li:` (a schema field's urn gives `schemaField`). */
export function entityTypeOfUrn(urn: string): string {
  const match = /^urn:li:([^:]+):/.exec(urn);
  if (!match?.[1]) throw new RangeError(`not an entity urn: "${urn}"`);
  return match[1];
}

/**
 * The public form of one semantic change (the ecosystem's thin mapping from its timeline change event):
 * the urn's entity type, category and operation by name, modifier and parameters when present, the
 * change's audit stamp, version 0. Timeline-only fields (semantic version change, description) stay out.
 */
export function entityChangeEventOf(
  change: ChangeEvent,
  auditStamp: EntityChangeEvent['auditStamp'],
): EntityChangeEvent {
  return {
    entityType: entityTypeOfUrn(change.entityUrn),
    entityUrn: change.entityUrn,
    category: change.category,
    operation: change.operation,
    ...(change.modifier === undefined ? {} : { modifier: change.modifier }),
    ...(change.parameters === undefined ? {} : { parameters: change.parameters }),
    auditStamp,
    version: 0,
  };
}

/** The platform event carrying an entity change event: stamped with the change's time, JSON payload. */
export function platformEventOf(event: EntityChangeEvent): PlatformEvent {
  return {
    header: { timestampMillis: event.auditStamp.time },
    name: ENTITY_CHANGE_EVENT_NAME,
    payload: { value: Buffer.from(JSON.stringify(event), 'utf8'), contentType: JSON_CONTENT_TYPE },
  };
}
