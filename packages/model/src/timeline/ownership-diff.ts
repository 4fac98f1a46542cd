import type { ChangeAuditStamp, ChangeEvent, ChangeOperation } from './change-event.js';
import { compareJava, records, sourceDetails, text, urnId, type Json } from './aspect-values.js';

/**
 * Owners added or removed, per ownership type (type and type urn): moving an owner to another type
 * removes it from the old and adds it to the new one, as the ecosystem reports it.
 */
export function ownershipChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const before = ownersByType(base);
  const after = ownersByType(target);
  const types = [...new Set([...before.keys(), ...after.keys()])].sort(compareJava);
  const events: ChangeEvent[] = [];
  for (const type of types) {
    const old = before.get(type) ?? new Map<string, Json>();
    const now = after.get(type) ?? new Map<string, Json>();
    for (const [urn, owner] of [...now].sort(([a], [b]) => compareJava(a, b)))
      if (!old.has(urn)) events.push(ownerEvent(owner, 'ADD', entityUrn, auditStamp));
    for (const [urn, owner] of [...old].sort(([a], [b]) => compareJava(a, b)))
      if (!now.has(urn)) events.push(ownerEvent(owner, 'REMOVE', entityUrn, auditStamp));
  }
  return events;
}

function ownersByType(ownership: Json | undefined): Map<string, Map<string, Json>> {
  const map = new Map<string, Map<string, Json>>();
  for (const owner of records(ownership?.['owners'])) {
    const urn = text(owner['owner']);
    if (urn === undefined) continue;
    const key = `${text(owner['type']) ?? ''}|${text(owner['typeUrn']) ?? ''}`;
    let owners = map.get(key);
    if (owners === undefined) map.set(key, (owners = new Map()));
    owners.set(urn, owner);
  }
  return map;
}

function ownerEvent(
  owner: Json,
  operation: ChangeOperation,
  entityUrn: string,
  auditStamp: ChangeAuditStamp | undefined,
): ChangeEvent {
  const urn = text(owner['owner']) ?? '';
  const type = text(owner['type']) ?? 'NONE';
  const typeUrn = text(owner['typeUrn']);
  return {
    entityUrn,
    category: 'OWNERSHIP',
    operation,
    modifier: urn,
    parameters: {
      ownerUrn: urn,
      ownerType: type,
      ...(typeUrn === undefined ? {} : { ownerTypeUrn: typeUrn }),
      sourceDetails: sourceDetails(owner),
    },
    semVerChange: 'MINOR',
    description:
      operation === 'ADD'
        ? `'${urnId(urn)}' added as a \`${type}\` of '${entityUrn}'.`
        : `'${urnId(urn)}' removed as a \`${type}\` of '${entityUrn}'.`,
    ...(auditStamp ? { auditStamp } : {}),
  };
}
