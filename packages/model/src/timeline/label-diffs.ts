import type { ChangeAuditStamp, ChangeEvent } from './change-event.js';
import { records, sourceDetails, text, urnId, type Json } from './aspect-values.js';
import { sortedMergeDiff } from './merge-diff.js';

const stamp = (auditStamp: ChangeAuditStamp | undefined) => (auditStamp ? { auditStamp } : {});

/** Tag associations added to or removed from an entity (a GlobalTags value each side, or none). */
export function tagChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const tags = (value: Json | undefined) => records(value?.['tags']).filter((t) => text(t['tag']));
  return sortedMergeDiff(
    tags(base),
    tags(target),
    (t) => text(t['tag']) ?? '',
    (association, operation) => {
      const tag = text(association['tag']) ?? '';
      return {
        entityUrn,
        category: 'TAG',
        operation,
        modifier: tag,
        parameters: {
          tagUrn: tag,
          context: text(association['context']) ?? '{}',
          sourceDetails: sourceDetails(association),
        },
        semVerChange: 'MINOR',
        description:
          operation === 'ADD'
            ? `Tag '${urnId(tag)}' added to entity '${entityUrn}'.`
            : `Tag '${urnId(tag)}' removed from entity '${entityUrn}'.`,
        ...stamp(auditStamp),
      };
    },
  );
}

/** Glossary term associations added or removed (a GlossaryTerms value each side, or none). */
export function glossaryTermChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const terms = (value: Json | undefined) => records(value?.['terms']).filter((t) => text(t['urn']));
  return sortedMergeDiff(
    terms(base),
    terms(target),
    (t) => text(t['urn']) ?? '',
    (association, operation) => {
      const term = text(association['urn']) ?? '';
      return {
        entityUrn,
        category: 'GLOSSARY_TERM',
        operation,
        modifier: term,
        parameters: {
          termUrn: term,
          context: text(association['context']) ?? '{}',
          sourceDetails: sourceDetails(association),
        },
        semVerChange: 'MINOR',
        description:
          operation === 'ADD'
            ? `Term '${urnId(term)}' added to entity '${entityUrn}'.`
            : `Term '${urnId(term)}' removed from entity '${entityUrn}'.`,
        ...stamp(auditStamp),
      };
    },
  );
}

/**
 * A field's label event, rebound to the field: its urn stays the field's, its parameters name the
 * field path and the dataset (the ecosystem's SchemaFieldTagChangeEvent / SchemaFieldGlossaryTermChangeEvent).
 */
export function asFieldLabelEvent(event: ChangeEvent, fieldPath: string, parentUrn: string): ChangeEvent {
  const labelKey = event.category === 'TAG' ? 'tagUrn' : 'termUrn';
  return {
    ...event,
    parameters: {
      fieldPath,
      parentUrn,
      [labelKey]: event.parameters?.[labelKey],
      context: event.parameters?.['context'],
    },
  };
}

/** A field's documentation event, its parameters naming the field path and the dataset. */
export function asFieldDocumentationEvent(
  event: ChangeEvent,
  fieldPath: string,
  parentUrn: string,
): ChangeEvent {
  return { ...event, parameters: { ...event.parameters, fieldPath, parentUrn } };
}
