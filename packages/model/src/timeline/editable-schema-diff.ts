import type { ChangeAuditStamp, ChangeCategory, ChangeEvent } from './change-event.js';
import { compareJava, record, records, text, type Json } from './aspect-values.js';
import {
  asFieldDocumentationEvent,
  asFieldLabelEvent,
  glossaryTermChanges,
  tagChanges,
} from './label-diffs.js';
import { fieldPathOf, schemaFieldUrn, sortByFieldPath } from './schema-fields.js';

/**
 * Changes of the user-edited field information (editableSchemaMetadata), field infos aligned by path:
 * a field's documentation (added/removed MINOR, changed PATCH), tags and terms. Only DOCUMENTATION,
 * TAG and GLOSSARY_TERM events, and of those only the `categories` asked for, in category order.
 */
export function editableSchemaMetadataChanges(
  base: Json | undefined,
  target: Json | undefined,
  datasetUrn: string,
  categories: ReadonlySet<ChangeCategory>,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  const pairs = alignByPath(
    sortByFieldPath(records(base?.['editableSchemaFieldInfo'])),
    sortByFieldPath(records(target?.['editableSchemaFieldInfo'])),
  );
  for (const category of ['DOCUMENTATION', 'TAG', 'GLOSSARY_TERM'] as const) {
    if (!categories.has(category)) continue;
    for (const [from, to] of pairs) {
      // Both sides share the path: they were aligned by it.
      const path = fieldPathOf((to ?? from) as Json);
      const fieldUrn = schemaFieldUrn(datasetUrn, path);
      if (category === 'DOCUMENTATION') {
        const event = documentationChange(from, to, fieldUrn, auditStamp);
        if (event !== undefined) events.push(asFieldDocumentationEvent(event, path, datasetUrn));
      } else {
        const diff = category === 'TAG' ? tagChanges : glossaryTermChanges;
        const field = category === 'TAG' ? 'globalTags' : 'glossaryTerms';
        for (const event of diff(record(from?.[field]), record(to?.[field]), fieldUrn, auditStamp))
          events.push(asFieldLabelEvent(event, path, datasetUrn));
      }
    }
  }
  return events;
}

/** Both sorted lists walked together: pairs of the same path, or one side alone. */
function alignByPath(base: readonly Json[], target: readonly Json[]): [Json | undefined, Json | undefined][] {
  const pairs: [Json | undefined, Json | undefined][] = [];
  let b = 0;
  let t = 0;
  while (b < base.length && t < target.length) {
    const cmp = compareJava(fieldPathOf(base[b] as Json), fieldPathOf(target[t] as Json));
    if (cmp === 0) pairs.push([base[b++], target[t++]]);
    else if (cmp < 0) pairs.push([base[b++], undefined]);
    else pairs.push([undefined, target[t++]]);
  }
  while (b < base.length) pairs.push([base[b++], undefined]);
  while (t < target.length) pairs.push([undefined, target[t++]]);
  return pairs;
}

function documentationChange(
  from: Json | undefined,
  to: Json | undefined,
  fieldUrn: string,
  auditStamp: ChangeAuditStamp | undefined,
): ChangeEvent | undefined {
  const before = text(from?.['description']);
  const after = text(to?.['description']);
  const common = {
    entityUrn: fieldUrn,
    category: 'DOCUMENTATION' as const,
    ...(auditStamp ? { auditStamp } : {}),
  };
  if (before === undefined && after !== undefined)
    return {
      ...common,
      operation: 'ADD',
      modifier: fieldPathOf(to as Json),
      semVerChange: 'MINOR',
      description: `Documentation for the field '${fieldPathOf(to as Json)}' of '${fieldUrn}' has been added: '${after}'`,
      parameters: { description: after },
    };
  if (before !== undefined && after === undefined)
    return {
      ...common,
      operation: 'REMOVE',
      modifier: fieldPathOf(from as Json),
      semVerChange: 'MINOR',
      description: `Documentation for the field '${fieldPathOf(from as Json)}' of '${fieldUrn}' has been removed: '${before}'`,
      parameters: { description: before },
    };
  if (before !== undefined && after !== undefined && before !== after)
    return {
      ...common,
      operation: 'MODIFY',
      modifier: fieldPathOf(to as Json),
      semVerChange: 'PATCH',
      description: `Documentation for the field '${fieldPathOf(to as Json)}' of '${fieldUrn}' has been updated from '${before}' to '${after}'.`,
      parameters: { description: after, previousDescription: before },
    };
  return undefined;
}
