import type { ChangeAuditStamp, ChangeEvent, ChangeOperation } from './change-event.js';
import {
  canonical,
  compareJava,
  record,
  records,
  sourceDetails,
  text,
  texts,
  urnId,
  type Json,
} from './aspect-values.js';
import { sortedMergeDiff } from './merge-diff.js';

const stamp = (auditStamp: ChangeAuditStamp | undefined) => (auditStamp ? { auditStamp } : {});

/**
 * The entity's (first) domain set, unset or replaced: a replacement is a REMOVE of the old domain and
 * an ADD of the new one.
 */
export function domainChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const first = (value: Json | undefined) => texts(value?.['domains'])[0];
  const event = (domains: Json | undefined, domain: string, operation: ChangeOperation): ChangeEvent => {
    const association = records(domains?.['domainAssociations']).find((a) => text(a['domain']) === domain);
    return {
      entityUrn,
      category: 'DOMAIN',
      operation,
      modifier: domain,
      parameters: {
        domainUrn: domain,
        context: text(association?.['context']) ?? '{}',
        sourceDetails: sourceDetails(association),
      },
      semVerChange: 'MINOR',
      description:
        operation === 'ADD'
          ? `Domain '${urnId(domain)}' added to entity '${entityUrn}'.`
          : `Domain '${urnId(domain)}' removed from entity '${entityUrn}'.`,
      ...stamp(auditStamp),
    };
  };
  const from = first(base);
  const to = first(target);
  if (from === undefined && to !== undefined) return [event(target, to, 'ADD')];
  if (from !== undefined && to === undefined) return [event(base, from, 'REMOVE')];
  if (from !== undefined && to !== undefined && from !== to)
    return [event(base, from, 'REMOVE'), event(target, to, 'ADD')];
  return [];
}

/** Structured property assignments added, removed, or given other values, in property urn order. */
export function structuredPropertyChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const assignments = (value: Json | undefined) =>
    new Map(
      records(value?.['properties'])
        .filter((a) => text(a['propertyUrn']))
        .map((a) => [text(a['propertyUrn']) ?? '', a]),
    );
  const before = assignments(base);
  const after = assignments(target);
  const urns = [...new Set([...before.keys(), ...after.keys()])].sort(compareJava);
  const events: ChangeEvent[] = [];
  for (const urn of urns) {
    const old = before.get(urn);
    const now = after.get(urn);
    if (old === undefined && now !== undefined) events.push(propertyEvent(now, 'ADD', entityUrn, auditStamp));
    else if (now === undefined && old !== undefined)
      events.push(propertyEvent(old, 'REMOVE', entityUrn, auditStamp));
    else if (old !== undefined && now !== undefined && canonical(old['values']) !== canonical(now['values']))
      events.push(propertyEvent(now, 'MODIFY', entityUrn, auditStamp));
  }
  return events;
}

function propertyEvent(
  assignment: Json,
  operation: ChangeOperation,
  entityUrn: string,
  auditStamp: ChangeAuditStamp | undefined,
): ChangeEvent {
  const urn = text(assignment['propertyUrn']) ?? '';
  const values = Array.isArray(assignment['values']) ? assignment['values'] : [];
  const verb = operation === 'ADD' ? 'added to' : operation === 'REMOVE' ? 'removed from' : 'changed on';
  return {
    entityUrn,
    category: 'STRUCTURED_PROPERTY',
    operation,
    modifier: urn,
    parameters: {
      propertyUrn: urn,
      propertyValues: JSON.stringify(values.map(primitiveValue)),
      sourceDetails: sourceDetails(assignment),
    },
    semVerChange: 'MINOR',
    description: `Structured property '${urnId(urn)}' ${verb} entity '${entityUrn}'.`,
    ...stamp(auditStamp),
  };
}

/** A property value as its union is stored (`{string: …}` / `{double: …}`) or as plain JSON. */
function primitiveValue(value: unknown): unknown {
  const union = record(value);
  if (union === undefined) return value;
  if ('string' in union) return union['string'];
  if ('double' in union) return union['double'];
  return null;
}

/** Applications the entity belongs to added or removed. */
export function applicationChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  return sortedMergeDiff(
    texts(base?.['applications']),
    texts(target?.['applications']),
    (urn) => urn,
    (urn, operation) => ({
      entityUrn,
      category: 'APPLICATION',
      operation,
      modifier: urn,
      semVerChange: 'MINOR',
      description:
        operation === 'ADD'
          ? `Application '${urnId(urn)}' added to entity '${entityUrn}'.`
          : `Application '${urnId(urn)}' removed from entity '${entityUrn}'.`,
      ...stamp(auditStamp),
    }),
  );
}

/** Assets of a data product added or removed (its properties' `assets`). */
export function assetMembershipChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
): ChangeEvent[] {
  const assets = (value: Json | undefined) =>
    records(value?.['assets'])
      .map((a) => text(a['destinationUrn']))
      .filter((u): u is string => u !== undefined);
  return sortedMergeDiff(
    assets(base),
    assets(target),
    (urn) => urn,
    (urn, operation) => ({
      entityUrn,
      category: 'ASSET_MEMBERSHIP',
      operation,
      modifier: urn,
      semVerChange: 'MINOR',
      description:
        operation === 'ADD'
          ? `Asset '${urn}' added to data product '${entityUrn}'.`
          : `Asset '${urn}' removed from data product '${entityUrn}'.`,
    }),
  );
}

/** The relationships of a glossary term and the words the ecosystem's events use for them. */
const TERM_RELATIONSHIPS: readonly (readonly [string, string])[] = [
  ['isRelatedTerms', 'Is A'],
  ['hasRelatedTerms', 'Has A'],
  ['values', 'Has Value'],
  ['relatedTerms', 'Is Related To'],
];

/** Terms related to a glossary term (is-a, has-a, values, related) added or removed. */
export function relatedTermChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
): ChangeEvent[] {
  return TERM_RELATIONSHIPS.flatMap(([field, relationship]) =>
    sortedMergeDiff(
      texts(base?.[field]),
      texts(target?.[field]),
      (urn) => urn,
      (urn, operation) => ({
        entityUrn,
        category: 'GLOSSARY_TERM',
        operation,
        modifier: urn,
        semVerChange: 'MINOR',
        description:
          operation === 'ADD'
            ? `'${relationship}' relationship '${urnId(urn)}' added to '${entityUrn}'.`
            : `'${relationship}' relationship '${urnId(urn)}' removed from '${entityUrn}'.`,
        parameters: { termUrn: urn, relationshipType: relationship },
      }),
    ),
  );
}

/** A version created within a version set (the first versionProperties), or its version tag changed. */
export function versionChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  if (target === undefined) return [];
  const tag = (value: Json | undefined) => text(record(value?.['version'])?.['versionTag']);
  const currentTag = tag(target);
  const comment = text(target['comment']);
  const versionSet = text(target['versionSet']);
  const parameters: Record<string, unknown> = {
    ...(currentTag === undefined ? {} : { versionTag: currentTag }),
    ...(comment !== undefined && comment.trim() !== '' ? { comment } : {}),
    ...(versionSet === undefined ? {} : { versionSetUrn: versionSet }),
    isLatest: String(target['isLatest'] === true),
  };
  if (base === undefined) {
    const created = `Version '${currentTag ?? 'unknown'}' created for '${entityUrn}'`;
    return [
      {
        entityUrn,
        category: 'VERSIONING',
        operation: 'ADD',
        semVerChange: 'MINOR',
        description: comment !== undefined && comment.trim() !== '' ? `${created} — ${comment}` : created,
        parameters,
        ...stamp(auditStamp),
      },
    ];
  }
  const previousTag = tag(base);
  if (currentTag === undefined || currentTag === previousTag) return [];
  return [
    {
      entityUrn,
      category: 'VERSIONING',
      operation: 'MODIFY',
      semVerChange: 'PATCH',
      description: `Version tag of '${entityUrn}' changed from '${previousTag ?? 'null'}' to '${currentTag}'`,
      parameters: {
        ...parameters,
        ...(previousTag === undefined ? {} : { previousVersionTag: previousTag }),
      },
      ...stamp(auditStamp),
    },
  ];
}
