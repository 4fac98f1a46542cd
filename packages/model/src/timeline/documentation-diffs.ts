import type { ChangeAuditStamp, ChangeEvent, ChangeOperation } from './change-event.js';
import { compareJava, records, text, type Json } from './aspect-values.js';

const stamp = (auditStamp: ChangeAuditStamp | undefined) => (auditStamp ? { auditStamp } : {});

/**
 * The entity description of a properties aspect added, removed or changed (datasetProperties,
 * editableDatasetProperties, and glossaryTermInfo's definition): each a MINOR DOCUMENTATION change.
 */
export function descriptionChange(
  base: string | undefined,
  target: string | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const event = (operation: ChangeOperation, description: string, parameters: Json): ChangeEvent => ({
    entityUrn,
    category: 'DOCUMENTATION',
    operation,
    semVerChange: 'MINOR',
    description,
    parameters,
    ...stamp(auditStamp),
  });
  if (base === undefined && target !== undefined)
    return [
      event('ADD', `Documentation for '${entityUrn}' has been added: '${target}'.`, { description: target }),
    ];
  if (base !== undefined && target === undefined)
    return [
      event('REMOVE', `Documentation for '${entityUrn}' has been removed: '${base}'.`, { description: base }),
    ];
  if (base !== undefined && target !== undefined && base !== target)
    return [
      event('MODIFY', `Documentation of '${entityUrn}' has been changed from '${base}' to '${target}'.`, {
        description: target,
        previousDescription: base,
      }),
    ];
  return [];
}

/** How a name/description aspect words its events (data products, domains, glossary terms). */
interface NamedDocumentationStyle {
  /** Whether a removed name is reported (data products); domains and terms always have one. */
  readonly nameRemovable: boolean;
  /** The description's field: `description`, or `definition` for glossary terms. */
  readonly descriptionField: string;
  /** Glossary terms word their definition as documentation, the others as a description. */
  readonly descriptionWords: 'Documentation' | 'Description';
}

export const DATA_PRODUCT_DOCUMENTATION: NamedDocumentationStyle = {
  nameRemovable: true,
  descriptionField: 'description',
  descriptionWords: 'Description',
};
export const DOMAIN_DOCUMENTATION: NamedDocumentationStyle = {
  nameRemovable: false,
  descriptionField: 'description',
  descriptionWords: 'Description',
};
export const GLOSSARY_TERM_DOCUMENTATION: NamedDocumentationStyle = {
  nameRemovable: false,
  descriptionField: 'definition',
  descriptionWords: 'Documentation',
};

/** Name and description of a named entity's properties aspect set, removed or changed. */
export function namedDocumentationChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  style: NamedDocumentationStyle,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const event = (operation: ChangeOperation, description: string): ChangeEvent => ({
    entityUrn,
    category: 'DOCUMENTATION',
    operation,
    semVerChange: 'MINOR',
    description,
    ...stamp(auditStamp),
  });
  const events: ChangeEvent[] = [];
  const baseName = text(base?.['name']);
  const targetName = text(target?.['name']);
  if (baseName === undefined && targetName !== undefined)
    events.push(event('ADD', `Name for '${entityUrn}' has been set: '${targetName}'.`));
  else if (style.nameRemovable && baseName !== undefined && targetName === undefined)
    events.push(event('REMOVE', `Name for '${entityUrn}' has been removed: '${baseName}'.`));
  else if (baseName !== undefined && targetName !== undefined && baseName !== targetName)
    events.push(
      event('MODIFY', `Name of '${entityUrn}' has been changed from '${baseName}' to '${targetName}'.`),
    );
  if (style.descriptionWords === 'Documentation') {
    return [
      ...events,
      ...descriptionChange(
        text(base?.[style.descriptionField]),
        text(target?.[style.descriptionField]),
        entityUrn,
        auditStamp,
      ),
    ];
  }
  const baseDescription = text(base?.[style.descriptionField]);
  const targetDescription = text(target?.[style.descriptionField]);
  if (baseDescription === undefined && targetDescription !== undefined)
    events.push(event('ADD', `Description for '${entityUrn}' has been added: '${targetDescription}'.`));
  else if (baseDescription !== undefined && targetDescription === undefined)
    events.push(event('REMOVE', `Description for '${entityUrn}' has been removed: '${baseDescription}'.`));
  else if (
    baseDescription !== undefined &&
    targetDescription !== undefined &&
    baseDescription !== targetDescription
  )
    events.push(
      event(
        'MODIFY',
        `Description of '${entityUrn}' has been changed from '${baseDescription}' to '${targetDescription}'.`,
      ),
    );
  return events;
}

/**
 * Links of institutionalMemory added or removed (MINOR), or a link's description changed (PATCH):
 * both lists sorted by url and walked together, so a url listed twice counts twice, as the ecosystem
 * counts it.
 */
export function institutionalMemoryChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const url = (e: Json) => text(e['url']) ?? '';
  const description = (e: Json) => text(e['description']) ?? '';
  const sorted = (value: Json | undefined) =>
    records(value?.['elements'])
      .filter((e) => text(e['url']))
      .sort((a, b) => compareJava(url(a), url(b)));
  const event = (
    element: Json,
    operation: ChangeOperation,
    message: string,
    semVerChange: 'MINOR' | 'PATCH',
  ) =>
    ({
      entityUrn,
      category: 'DOCUMENTATION',
      operation,
      modifier: url(element),
      semVerChange,
      description: message,
      ...stamp(auditStamp),
    }) satisfies ChangeEvent;
  const added = (e: Json) =>
    event(
      e,
      'ADD',
      `Institutional Memory '${url(e)}' with documentation of '${entityUrn}' has been added: '${description(e)}'`,
      'MINOR',
    );
  const removed = (e: Json) =>
    event(
      e,
      'REMOVE',
      `Institutional Memory '${url(e)}' with documentation of '${entityUrn}' has been removed: '${description(e)}'`,
      'MINOR',
    );
  const before = sorted(base);
  const after = sorted(target);
  const events: ChangeEvent[] = [];
  let b = 0;
  let t = 0;
  while (b < before.length && t < after.length) {
    const old = before[b] as Json;
    const now = after[t] as Json;
    const cmp = compareJava(url(old), url(now));
    if (cmp === 0) {
      if (description(old) !== description(now))
        events.push(
          event(
            old,
            'MODIFY',
            `Documentation of Institutional Memory '${url(old)}' of  '${entityUrn}' has been changed from '${description(old)}' to '${description(now)}'.`,
            'PATCH',
          ),
        );
      b++;
      t++;
    } else if (cmp < 0) {
      events.push(removed(old));
      b++;
    } else {
      events.push(added(now));
      t++;
    }
  }
  for (; b < before.length; b++) events.push(removed(before[b] as Json));
  for (; t < after.length; t++) events.push(added(after[t] as Json));
  return events;
}
