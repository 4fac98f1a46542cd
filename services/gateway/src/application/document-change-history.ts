import type { ChangeEvent, ChangeTransaction } from '@catalog/model';

/** The kinds of change of a document, as the ecosystem's DocumentChangeType names them. */
export type DocumentChangeType =
  | 'CREATED'
  | 'TITLE_CHANGED'
  | 'TEXT_CHANGED'
  | 'PARENT_CHANGED'
  | 'RELATED_DOCUMENTS_CHANGED'
  | 'RELATED_ASSETS_CHANGED'
  | 'STATE_CHANGED'
  | 'DELETED';

/** One change of a document: what changed, in the timeline's words, who made it and when. */
export interface DocumentChange {
  readonly changeType: DocumentChangeType;
  readonly description: string;
  readonly actor: string | null;
  readonly timestamp: number;
  /** The event's parameters; for related entities also the entity (`entityUrn`) and the `operation`. */
  readonly details: readonly { readonly key: string; readonly value: string }[];
}

/** The timeline categories a document's history is made of. */
export const DOCUMENT_HISTORY_CATEGORIES = [
  'DOCUMENTATION',
  'LIFECYCLE',
  'PARENT',
  'RELATED_ENTITIES',
] as const;

/** The document change an event stands for (the ecosystem's DocumentChangeHistoryResolver), or none. */
function changeTypeOf(event: ChangeEvent): DocumentChangeType | undefined {
  if (event.operation === 'CREATE') return 'CREATED';
  const description = event.description.toLowerCase();
  switch (event.category) {
    case 'DOCUMENTATION': {
      const parameters = event.parameters ?? {};
      if ('oldTitle' in parameters || 'newTitle' in parameters) return 'TITLE_CHANGED';
      if ('oldContent' in parameters || 'newContent' in parameters) return 'TEXT_CHANGED';
      return description.includes('title') ? 'TITLE_CHANGED' : 'TEXT_CHANGED';
    }
    case 'LIFECYCLE':
      if (event.operation === 'REMOVE') return 'DELETED';
      return event.description.includes('state') ? 'STATE_CHANGED' : 'CREATED';
    case 'PARENT':
      return 'PARENT_CHANGED';
    case 'RELATED_ENTITIES':
      if (description.includes('asset')) return 'RELATED_ASSETS_CHANGED';
      return 'RELATED_DOCUMENTS_CHANGED';
    default:
      return undefined;
  }
}

function detailsOf(event: ChangeEvent): { key: string; value: string }[] {
  const details = Object.entries(event.parameters ?? {}).map(([key, value]) => ({
    key,
    value: value === null || value === undefined ? '' : String(value),
  }));
  if (event.category === 'RELATED_ENTITIES') {
    if (event.modifier !== undefined && event.modifier !== '')
      details.push({ key: 'entityUrn', value: event.modifier });
    details.push({ key: 'operation', value: event.operation });
  }
  return details;
}

/**
 * A document's history from its timeline: each event of a document category as a DocumentChange
 * (events of other kinds left out), the same change at the same time listed once, newest first, at most
 * `limit`.
 */
export function documentHistory(
  transactions: readonly ChangeTransaction[],
  limit: number,
  now: number,
): DocumentChange[] {
  const seen = new Set<string>();
  const changes: DocumentChange[] = [];
  for (const transaction of transactions)
    for (const event of transaction.changeEvents) {
      const changeType = changeTypeOf(event);
      if (changeType === undefined) continue;
      const change: DocumentChange = {
        changeType,
        description: event.description === '' ? 'Change occurred' : event.description,
        actor: event.auditStamp?.actor ?? null,
        timestamp: event.auditStamp?.time ?? now,
        details: detailsOf(event),
      };
      const key = `${change.timestamp}_${change.changeType}_${change.description}`;
      if (seen.has(key)) continue;
      seen.add(key);
      changes.push(change);
    }
  return changes.sort((a, b) => b.timestamp - a.timestamp).slice(0, limit);
}
