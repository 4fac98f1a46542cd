import { entityOperationPrivileges, type RequestContext } from '@catalog/auth';
import { ConflictError, ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import type { AspectChange } from './aspect-changes.js';
import {
  DOCUMENT_HISTORY_CATEGORIES,
  documentHistory,
  type DocumentChange,
} from './document-change-history.js';
import {
  newDocumentInfo,
  newOwnership,
  parentOf,
  withParent,
  withRelated,
  type DocumentState,
  type OwnerDraft,
  type Stamp,
} from './document-values.js';
import { newIdOf, requireEntityUrn, requireUrnOfType } from './entity-urns.js';
import { writeIndexed, type WaitForIndex } from './indexed-writes.js';
import type { Proposals } from './proposals.js';
import type { EntityTimeline } from './entity-timeline.js';
import type { StoredEntities } from './stored-entities.js';

type Json = Readonly<Record<string, unknown>>;

const DOCUMENT = 'document';
const INFO = 'documentInfo';
/** How far up a parent chain the cycle check walks before it gives up on a broken chain. */
const MAX_DEPTH = 1_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A document to create, as the ecosystem's CreateDocumentInput has it. */
export interface DocumentDraft {
  readonly id?: string | null;
  readonly subType?: string | null;
  readonly title?: string | null;
  readonly state?: DocumentState | null;
  readonly text: string;
  readonly owners?: readonly OwnerDraft[] | null;
  readonly parentDocument?: string | null;
  readonly relatedAssets?: readonly string[] | null;
  readonly relatedDocuments?: readonly string[] | null;
  readonly showInGlobalContext?: boolean | null;
}

/** A change of a document's title, text or sub-type; what is not given stays. */
export interface DocumentContentsEdit {
  readonly urn: string;
  readonly title?: string | null;
  readonly text?: string | null;
  readonly subType?: string | null;
}

/** Which part of a document's history to show (the ecosystem's defaults: the last 30 days, 50 changes). */
export interface HistoryRange {
  readonly startTimeMillis?: number | null;
  readonly endTimeMillis?: number | null;
  readonly limit?: number | null;
}

/**
 * Documents (the knowledge base): creating, editing, moving, publishing and deleting them, and their
 * change history. Privileges are the ecosystem's document privilege map: CREATE_ENTITY, EDIT_ENTITY or
 * MANAGE_DOCUMENTS to create; EDIT_ENTITY or MANAGE_DOCUMENTS on the document to edit; DELETE_ENTITY or
 * MANAGE_DOCUMENTS to delete; its read privileges for the history. Each is asked before anything about
 * the document is read. Writes are answered once stored and indexed (the ecosystem writes documents in
 * its synchronous index mode), so a search right after a write finds it.
 */
export class Documents {
  constructor(
    private readonly stored: StoredEntities,
    private readonly timeline: EntityTimeline,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    private readonly waitForIndex: WaitForIndex,
  ) {}

  /** Creates the document and returns its urn; 400 when the id is taken or a reference is invalid. */
  async create(ctx: RequestContext, draft: DocumentDraft): Promise<string> {
    await this.policy.require(ctx, {
      privileges: [entityOperationPrivileges('CREATE', DOCUMENT)],
      resourceType: DOCUMENT,
      message: UNAUTHORIZED_MESSAGE,
    });
    const id = newIdOf(draft.id);
    const urn = requireEntityUrn(`urn:li:${DOCUMENT}:${id}`).urn;
    if (await this.stored.exists(urn)) throw new ConflictError(`Document with ID ${id} already exists`);
    const parent = draft.parentDocument ?? null;
    if (parent !== null) await this.requireDocument(parent, 'Parent Document');
    const relatedAssets = this.assetUrns(draft.relatedAssets);
    const relatedDocuments = this.documentUrns(draft.relatedDocuments);
    const owners = draft.owners?.map((o) => ({ ...o, ownerUrn: requireEntityUrn(o.ownerUrn).urn }));
    const stamp = stampOf(ctx);
    const change = (aspect: string, value: unknown): AspectChange => ({
      urn,
      entityType: DOCUMENT,
      aspect,
      value,
    });
    await this.write(ctx, [
      change(
        INFO,
        newDocumentInfo(
          {
            title: draft.title ?? null,
            text: draft.text,
            state: draft.state ?? null,
            parentDocument: parent,
            relatedAssets,
            relatedDocuments,
          },
          stamp,
        ),
      ),
      ...(draft.subType === undefined || draft.subType === null
        ? []
        : [change('subTypes', { typeNames: [draft.subType] })]),
      change('documentSettings', {
        showInGlobalContext: draft.showInGlobalContext ?? true,
        lastModified: stamp,
      }),
      change('ownership', newOwnership(owners, stamp)),
    ]);
    return urn;
  }

  async updateContents(ctx: RequestContext, edit: DocumentContentsEdit): Promise<void> {
    const info = await this.editableInfo(ctx, edit.urn);
    const next: Record<string, unknown> = { ...info, lastModified: stampOf(ctx) };
    if (edit.text !== undefined && edit.text !== null) next['contents'] = { text: edit.text };
    if (edit.title !== undefined && edit.title !== null) next['title'] = edit.title;
    const changes = [this.info(edit.urn, next)];
    if (edit.subType !== undefined && edit.subType !== null)
      changes.push(this.aspect(edit.urn, 'subTypes', { typeNames: [edit.subType] }));
    await this.write(ctx, changes);
  }

  /** Replaces the related assets and documents given (an empty list removes them all). */
  async updateRelated(
    ctx: RequestContext,
    urn: string,
    related: { readonly assets?: readonly string[] | null; readonly documents?: readonly string[] | null },
  ): Promise<void> {
    const info = await this.editableInfo(ctx, urn);
    const assets = this.assetUrns(related.assets);
    const documents = this.documentUrns(related.documents);
    await this.write(ctx, [
      this.info(urn, { ...withRelated(info, assets, documents), lastModified: stampOf(ctx) }),
    ]);
  }

  /** Moves the document under another document, or to the root when `parent` is null. */
  async move(ctx: RequestContext, urn: string, parent: string | null): Promise<void> {
    const info = await this.editableInfo(ctx, urn);
    if (parent !== null) {
      await this.requireDocument(parent, 'Parent Document');
      if (parent === urn) throw new ValidationError('Cannot move a Document to itself as parent');
      if (await this.isAncestor(urn, parent))
        throw new ValidationError('Cannot move document: would create a circular parent reference');
    }
    await this.write(ctx, [this.info(urn, { ...withParent(info, parent), lastModified: stampOf(ctx) })]);
  }

  async updateStatus(ctx: RequestContext, urn: string, state: DocumentState): Promise<void> {
    const info = await this.editableInfo(ctx, urn);
    await this.write(ctx, [this.info(urn, { ...info, status: { state }, lastModified: stampOf(ctx) })]);
  }

  /** Sets the document's one sub-type, or none when `subType` is null. */
  async updateSubType(ctx: RequestContext, urn: string, subType: string | null): Promise<void> {
    const info = await this.editableInfo(ctx, urn);
    await this.write(ctx, [
      this.aspect(urn, 'subTypes', { typeNames: subType === null ? [] : [subType] }),
      this.info(urn, { ...info, lastModified: stampOf(ctx) }),
    ]);
  }

  async updateSettings(ctx: RequestContext, urn: string, showInGlobalContext: boolean): Promise<void> {
    const info = await this.editableInfo(ctx, urn);
    const stamp = stampOf(ctx);
    await this.write(ctx, [
      this.aspect(urn, 'documentSettings', { showInGlobalContext, lastModified: stamp }),
      this.info(urn, { ...info, lastModified: stamp }),
    ]);
  }

  /** Soft-deletes the document (its status removed), as the ecosystem does. */
  async delete(ctx: RequestContext, urn: string): Promise<void> {
    requireUrnOfType(urn, DOCUMENT);
    await this.policy.require(ctx, {
      privileges: [entityOperationPrivileges('DELETE', DOCUMENT)],
      resourceUrn: urn,
      message: UNAUTHORIZED_MESSAGE,
    });
    if (!(await this.stored.exists(urn)))
      throw new ValidationError(`Document with URN ${urn} does not exist`);
    const status = (await this.stored.aspect(urn, 'status')) ?? {};
    await this.write(ctx, [this.aspect(urn, 'status', { ...status, removed: true })]);
  }

  /**
   * The document's changes in the time range (the last 30 days by default), newest first, at most
   * `limit` (50 by default): its timeline's documentation, lifecycle, parent and related-entity events
   * as document changes. Refused unless the actor may read the document.
   */
  async changeHistory(ctx: RequestContext, urn: string, range: HistoryRange): Promise<DocumentChange[]> {
    requireUrnOfType(urn, DOCUMENT);
    const limit = range.limit ?? 50;
    if (limit < 0) throw new ValidationError('limit must be 0 or more');
    const now = Date.now();
    const endTime = range.endTimeMillis ?? now;
    const startTime = range.startTimeMillis ?? endTime - 30 * DAY_MS;
    const { transactions } = await this.timeline.timeline(ctx, {
      urn,
      categories: DOCUMENT_HISTORY_CATEGORIES,
      startTime,
      endTime,
    });
    return documentHistory(transactions, limit, now);
  }

  /** The stored info of a document the actor may edit; 400 when there is none. */
  private async editableInfo(ctx: RequestContext, urn: string): Promise<Json> {
    requireUrnOfType(urn, DOCUMENT);
    await this.policy.require(ctx, {
      privileges: [entityOperationPrivileges('UPDATE', DOCUMENT)],
      resourceUrn: urn,
      message: UNAUTHORIZED_MESSAGE,
    });
    const info = await this.stored.aspect(urn, INFO);
    if (info === undefined) throw new ValidationError(`Document with URN ${urn} does not exist`);
    return info;
  }

  private async requireDocument(urn: string, what: string): Promise<void> {
    requireUrnOfType(urn, DOCUMENT);
    if (!(await this.stored.exists(urn))) throw new ValidationError(`${what} with URN ${urn} does not exist`);
  }

  /** Whether `urn` is `candidate` or one of its parents, up the stored chain. */
  private async isAncestor(urn: string, candidate: string): Promise<boolean> {
    const seen = new Set<string>();
    let current: string | undefined = candidate;
    while (current !== undefined && !seen.has(current) && seen.size < MAX_DEPTH) {
      if (current === urn) return true;
      seen.add(current);
      current = parentOf(await this.stored.aspect(current, INFO));
    }
    return false;
  }

  private assetUrns(urns: readonly string[] | null | undefined): readonly string[] | null {
    return urns === undefined || urns === null ? null : urns.map((u) => requireEntityUrn(u).urn);
  }

  private documentUrns(urns: readonly string[] | null | undefined): readonly string[] | null {
    return urns === undefined || urns === null ? null : urns.map((u) => requireUrnOfType(u, DOCUMENT));
  }

  private info(urn: string, value: Json): AspectChange {
    return this.aspect(urn, INFO, value);
  }

  private aspect(urn: string, aspect: string, value: unknown): AspectChange {
    return { urn, entityType: DOCUMENT, aspect, value };
  }

  private write(ctx: RequestContext, changes: readonly AspectChange[]): Promise<void> {
    return writeIndexed(this.proposals, this.waitForIndex, ctx, changes);
  }
}

function stampOf(ctx: RequestContext): Stamp {
  return { time: Date.now(), actor: ctx.authentication.actorUrn };
}
