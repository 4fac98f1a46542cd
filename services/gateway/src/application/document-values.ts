type Json = Readonly<Record<string, unknown>>;

/** The states a document's `documentInfo.status` takes. */
export type DocumentState = 'PUBLISHED' | 'UNPUBLISHED';

/** Who made a change and when: the ecosystem's AuditStamp. */
export interface Stamp {
  readonly time: number;
  readonly actor: string;
}

/** A new document's `documentInfo`, as the ecosystem's DocumentService builds it. */
export interface NewDocumentInfo {
  readonly title?: string | null;
  readonly text: string;
  readonly state?: DocumentState | null;
  readonly parentDocument?: string | null;
  readonly relatedAssets?: readonly string[] | null;
  readonly relatedDocuments?: readonly string[] | null;
}

/**
 * The `documentInfo` of a document created through the API: source NATIVE (only ingestion from another
 * system sets EXTERNAL), UNPUBLISHED unless a state is given, created and lastModified the same stamp,
 * relationships only when given and not empty.
 */
export function newDocumentInfo(draft: NewDocumentInfo, stamp: Stamp): Json {
  return {
    customProperties: {},
    ...(draft.title === undefined || draft.title === null ? {} : { title: draft.title }),
    source: { sourceType: 'NATIVE' },
    status: { state: draft.state ?? 'UNPUBLISHED' },
    contents: { text: draft.text },
    created: stamp,
    lastModified: stamp,
    ...relatedFields(draft.relatedAssets, draft.relatedDocuments),
    ...(draft.parentDocument === undefined || draft.parentDocument === null
      ? {}
      : { parentDocument: { document: draft.parentDocument } }),
  };
}

/** `relatedAssets` / `relatedDocuments` of the urns given; a list that is empty or absent is left out. */
function relatedFields(
  assets: readonly string[] | null | undefined,
  documents: readonly string[] | null | undefined,
): Json {
  return {
    ...(assets === undefined || assets === null || assets.length === 0
      ? {}
      : { relatedAssets: assets.map((asset) => ({ asset })) }),
    ...(documents === undefined || documents === null || documents.length === 0
      ? {}
      : { relatedDocuments: documents.map((document) => ({ document })) }),
  };
}

/**
 * The info with its related entities replaced: a list given replaces the stored one (empty removes
 * it), a list not given keeps it.
 */
export function withRelated(
  info: Json,
  assets: readonly string[] | null | undefined,
  documents: readonly string[] | null | undefined,
): Json {
  const next: Record<string, unknown> = { ...info };
  if (assets !== undefined && assets !== null) {
    delete next['relatedAssets'];
    Object.assign(next, relatedFields(assets, undefined));
  }
  if (documents !== undefined && documents !== null) {
    delete next['relatedDocuments'];
    Object.assign(next, relatedFields(undefined, documents));
  }
  return next;
}

/** The info under another parent document, or at the root when `parent` is null. */
export function withParent(info: Json, parent: string | null): Json {
  const next: Record<string, unknown> = { ...info };
  delete next['parentDocument'];
  return parent === null ? next : { ...next, parentDocument: { document: parent } };
}

/** The parent document urn a stored info names, if any. */
export function parentOf(info: Json | undefined): string | undefined {
  const parent = info?.['parentDocument'] as { document?: unknown } | null | undefined;
  return typeof parent?.document === 'string' ? parent.document : undefined;
}

/** One owner a client names, as the ecosystem's OwnerInput. */
export interface OwnerDraft {
  readonly ownerUrn: string;
  readonly type?: string | null;
  readonly ownershipTypeUrn?: string | null;
}

/**
 * A new document's ownership: the owners given (a custom ownership type by its urn, else the standard
 * type, else NONE), or the creator as TECHNICAL_OWNER when none are.
 */
export function newOwnership(owners: readonly OwnerDraft[] | null | undefined, stamp: Stamp): Json {
  const list =
    owners === undefined || owners === null || owners.length === 0
      ? [{ owner: stamp.actor, type: 'TECHNICAL_OWNER' }]
      : owners.map((o) =>
          o.ownershipTypeUrn !== undefined && o.ownershipTypeUrn !== null
            ? { owner: o.ownerUrn, type: 'CUSTOM', typeUrn: o.ownershipTypeUrn }
            : { owner: o.ownerUrn, type: o.type ?? 'NONE' },
        );
  return { owners: list, lastModified: stamp };
}
