type Json = Readonly<Record<string, unknown>>;

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

/** One change of a document: what changed, in the ecosystem's words, who made it and when. */
export interface DocumentChange {
  readonly changeType: DocumentChangeType;
  readonly description: string;
  readonly actor: string | null;
  readonly timestamp: number;
  /** Context of the change (old and new title, parent, state; the related entity and the operation). */
  readonly details: readonly { readonly key: string; readonly value: string }[];
}

/** One stored value of `documentInfo` and the stamp of the write that made it. */
export interface DocumentInfoVersion {
  readonly value: Json;
  readonly created: { readonly time: number; readonly actor: string };
}

/**
 * The changes between successive values of a document's `documentInfo` (oldest first), as the
 * ecosystem's DocumentInfoChangeEventGenerator describes them: the first value is the creation, then per
 * later value its title, text, parent, related assets and documents, and state changes. Each change has
 * the stamp of the write that made the value.
 */
export function documentInfoChanges(versions: readonly DocumentInfoVersion[]): DocumentChange[] {
  const changes: DocumentChange[] = [];
  versions.forEach((version, i) => {
    const stamp = { actor: version.created.actor, timestamp: version.created.time };
    if (i === 0) {
      const title = text(version.value['title']) ?? 'Untitled';
      changes.push({
        changeType: 'CREATED',
        description: `Document '${title}' was created`,
        details: [],
        ...stamp,
      });
      return;
    }
    for (const change of diff(versions[i - 1]!.value, version.value)) changes.push({ ...change, ...stamp });
  });
  return changes;
}

type Unstamped = Omit<DocumentChange, 'actor' | 'timestamp'>;

function diff(before: Json, after: Json): Unstamped[] {
  const changes: Unstamped[] = [];
  const oldTitle = text(before['title']);
  const newTitle = text(after['title']);
  if (oldTitle !== newTitle)
    changes.push({
      changeType: 'TITLE_CHANGED',
      description: `Document title changed from '${String(oldTitle)}' to '${String(newTitle)}'`,
      details: [
        { key: 'oldTitle', value: oldTitle ?? '' },
        { key: 'newTitle', value: newTitle ?? '' },
      ],
    });
  const oldText = contentsOf(before);
  const newText = contentsOf(after);
  if (oldText !== newText)
    changes.push({
      changeType: 'TEXT_CHANGED',
      description: 'Document text content was modified',
      details: [
        { key: 'oldContent', value: oldText ?? '' },
        { key: 'newContent', value: newText ?? '' },
      ],
    });
  const parentChange = parentChangeOf(parentUrn(before), parentUrn(after));
  if (parentChange !== undefined) changes.push(parentChange);
  changes.push(
    ...relatedChanges(urns(before['relatedAssets'], 'asset'), urns(after['relatedAssets'], 'asset'), 'asset'),
    ...relatedChanges(
      urns(before['relatedDocuments'], 'document'),
      urns(after['relatedDocuments'], 'document'),
      'document',
    ),
  );
  const oldState = stateOf(before);
  const newState = stateOf(after);
  if (oldState !== newState)
    changes.push({
      changeType: 'STATE_CHANGED',
      description: `Document state changed from ${String(oldState)} to ${String(newState)}`,
      details: [
        { key: 'oldState', value: oldState ?? '' },
        { key: 'newState', value: newState ?? '' },
      ],
    });
  return changes;
}

function parentChangeOf(before: string | undefined, after: string | undefined): Unstamped | undefined {
  if (before === after) return undefined;
  if (before === undefined)
    return {
      changeType: 'PARENT_CHANGED',
      description: `Document moved to parent ${String(after)}`,
      details: [{ key: 'newParent', value: after ?? '' }],
    };
  if (after === undefined)
    return {
      changeType: 'PARENT_CHANGED',
      description: 'Document moved to root level (no parent)',
      details: [{ key: 'oldParent', value: before }],
    };
  return {
    changeType: 'PARENT_CHANGED',
    description: `Document moved from ${before} to ${after}`,
    details: [
      { key: 'oldParent', value: before },
      { key: 'newParent', value: after },
    ],
  };
}

function relatedChanges(
  before: readonly string[],
  after: readonly string[],
  singular: 'asset' | 'document',
): Unstamped[] {
  const changeType = singular === 'asset' ? 'RELATED_ASSETS_CHANGED' : 'RELATED_DOCUMENTS_CHANGED';
  const entry = (urn: string, operation: 'ADD' | 'REMOVE', verb: string): Unstamped => ({
    changeType,
    description: `Related ${singular} ${urn} was ${verb}`,
    details: [
      { key: 'entityUrn', value: urn },
      { key: 'operation', value: operation },
    ],
  });
  return [
    ...after.filter((urn) => !before.includes(urn)).map((urn) => entry(urn, 'ADD', 'added')),
    ...before.filter((urn) => !after.includes(urn)).map((urn) => entry(urn, 'REMOVE', 'removed')),
  ];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function contentsOf(info: Json): string | undefined {
  return text((info['contents'] as Json | null | undefined)?.['text']);
}

function stateOf(info: Json): string | undefined {
  return text((info['status'] as Json | null | undefined)?.['state']);
}

function parentUrn(info: Json): string | undefined {
  return text((info['parentDocument'] as Json | null | undefined)?.['document']);
}

function urns(list: unknown, field: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    const urn = (item as Json | null)?.[field];
    return typeof urn === 'string' ? [urn] : [];
  });
}
