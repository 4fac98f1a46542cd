import type { ChangeAuditStamp, ChangeEvent } from './change-event.js';
import { text, type Json } from './aspect-values.js';

const deprecated = (value: Json | undefined) => value?.['deprecated'] === true;

/**
 * The entity became deprecated or active again (the ecosystem's deprecation generator): one DEPRECATION
 * MODIFY whose `status` says which, a deprecation carrying its decommission time and note. Editing the
 * note of an entity that stays deprecated is no change.
 */
export function deprecationChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const was = deprecated(base);
  const is = deprecated(target);
  if (was === is) return [];
  const decommissionTime = target?.['decommissionTime'];
  const note = text(target?.['note']);
  const parameters: Record<string, unknown> = is
    ? {
        status: 'DEPRECATED',
        ...(typeof decommissionTime === 'number' ? { timestamp: String(decommissionTime) } : {}),
        ...(note === undefined ? {} : { note }),
      }
    : { status: 'ACTIVE' };
  return [
    {
      entityUrn,
      category: 'DEPRECATION',
      operation: 'MODIFY',
      parameters,
      ...(auditStamp ? { auditStamp } : {}),
      semVerChange: 'MINOR',
      description: is ? `${entityUrn} was deprecated.` : `${entityUrn} is no longer deprecated.`,
    },
  ];
}
