import type { ChangeAuditStamp, ChangeCategory, ChangeEvent } from './change-event.js';
import { record, records, text, type Json } from './aspect-values.js';

/**
 * Changes of a document's documentInfo, as the ecosystem reports them (every one with semantic change
 * NONE: documents have no computed version bumps): its creation (LIFECYCLE CREATE, whatever category
 * was asked for), title and text (DOCUMENTATION), parent (PARENT), related assets and documents
 * (RELATED_ENTITIES) and state (LIFECYCLE); each with the stamp of the write that made `target`, as the
 * ecosystem's generator stamps them (the document change history shows who made each change, and when).
 */
export function documentChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  categories: ReadonlySet<ChangeCategory>,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  if (target === undefined) return [];
  const event = (
    category: ChangeCategory,
    description: string,
    extra: Partial<ChangeEvent> = {},
  ): ChangeEvent => ({
    entityUrn,
    category,
    operation: 'MODIFY',
    semVerChange: 'NONE',
    description,
    ...(auditStamp === undefined ? {} : { auditStamp }),
    ...extra,
  });
  if (base === undefined)
    return [
      event('LIFECYCLE', `Document '${text(target['title']) ?? 'Untitled'}' was created`, {
        operation: 'CREATE',
      }),
    ];
  const events: ChangeEvent[] = [];
  if (categories.has('DOCUMENTATION')) {
    const [oldTitle, newTitle] = [text(base['title']), text(target['title'])];
    if (oldTitle !== newTitle)
      events.push(
        event('DOCUMENTATION', `Document title changed from '${oldTitle ?? null}' to '${newTitle ?? null}'`, {
          parameters: { oldTitle: oldTitle ?? '', newTitle: newTitle ?? '' },
        }),
      );
    const content = (doc: Json) => text(record(doc['contents'])?.['text']);
    const [oldContent, newContent] = [content(base), content(target)];
    if (oldContent !== newContent)
      events.push(
        event('DOCUMENTATION', 'Document text content was modified', {
          parameters: { oldContent: oldContent ?? '', newContent: newContent ?? '' },
        }),
      );
  }
  if (categories.has('PARENT')) {
    const parent = (doc: Json) => text(record(doc['parentDocument'])?.['document']);
    const [oldParent, newParent] = [parent(base), parent(target)];
    if (oldParent !== newParent)
      events.push(
        oldParent === undefined
          ? event('PARENT', `Document moved to parent ${newParent}`, { parameters: { newParent } })
          : newParent === undefined
            ? event('PARENT', 'Document moved to root level (no parent)', { parameters: { oldParent } })
            : event('PARENT', `Document moved from ${oldParent} to ${newParent}`, {
                parameters: { oldParent, newParent },
              }),
      );
  }
  if (categories.has('RELATED_ENTITIES')) {
    const related = (doc: Json, field: string, key: string) =>
      records(doc[field])
        .map((r) => text(r[key]))
        .filter((u): u is string => u !== undefined);
    for (const [field, key, singular] of [
      ['relatedAssets', 'asset', 'asset'],
      ['relatedDocuments', 'document', 'document'],
    ] as const) {
      const before = related(base, field, key);
      const after = related(target, field, key);
      for (const urn of after.filter((u) => !before.includes(u)))
        events.push(
          event('RELATED_ENTITIES', `Related ${singular} ${urn} was added`, {
            operation: 'ADD',
            modifier: urn,
          }),
        );
      for (const urn of before.filter((u) => !after.includes(u)))
        events.push(
          event('RELATED_ENTITIES', `Related ${singular} ${urn} was removed`, {
            operation: 'REMOVE',
            modifier: urn,
          }),
        );
    }
  }
  if (categories.has('LIFECYCLE')) {
    const state = (doc: Json) => text(record(doc['status'])?.['state']);
    const [oldState, newState] = [state(base), state(target)];
    if (oldState !== newState)
      events.push(
        event('LIFECYCLE', `Document state changed from ${oldState ?? null} to ${newState ?? null}`, {
          parameters: { oldState: oldState ?? '', newState: newState ?? '' },
        }),
      );
  }
  return events;
}
