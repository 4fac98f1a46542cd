import { ValidationError } from '@catalog/model';
import type { DocumentContentsEdit, DocumentDraft, HistoryRange } from '../../application/documents.js';
import type { ImportRequest } from '../../application/document-import.js';
import type { DocumentPage, DocumentSearchInput } from '../../application/document-search.js';
import type { DocumentCriteriaInput } from '../../application/document-visibility.js';
import type { DocumentState, OwnerDraft } from '../../application/document-values.js';
import type { GraphQLContext } from '../context.js';
import { customProperties, num, str } from '../entities/aspect-views.js';
import { refOf, requireRef, type EntityRef } from '../entities/entity-ref.js';
import { typeNameOfEntity } from '../entities/entity-types.js';
import { facetsOf } from '../search/search-resolvers.js';
import { TYPES_WITH_RELATED_DOCUMENTS } from './documents-schema.js';

type Json = Readonly<Record<string, unknown>>;
type Args = Record<string, unknown>;
type FieldResolver = (ref: EntityRef, args: Args, ctx: GraphQLContext) => unknown;

/** The platform of documents authored in the catalog (no dataPlatformInstance), as the ecosystem names it. */
const NATIVE_PLATFORM = 'urn:li:dataPlatform:datahub';
/** The run id of writes made outside an ingestion run. */
const NO_RUN = 'no-run-id-provided';
/** How many parents `parentDocuments` follows at most (a stored chain could loop). */
const MAX_PARENTS = 100;

const aspect = (ctx: GraphQLContext, ref: EntityRef, name: string): Promise<Json | undefined> =>
  ctx.entities.aspect<Json>(ref.urn, name);

function resolvedStamp(value: unknown) {
  const stamp = (value ?? {}) as Json;
  return { time: num(stamp['time']) ?? 0, actor: refOf(stamp['actor']) ?? null };
}

const documentRef = (urn: unknown): EntityRef | undefined => {
  const ref = refOf(urn);
  return ref?.entity === 'document' ? ref : undefined;
};

function urnsIn(list: unknown, field: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    const urn = (item as Json | null)?.[field];
    return typeof urn === 'string' ? [urn] : [];
  });
}

/** `DocumentInfo` of a stored `documentInfo` (and the `semanticText` that supersedes its text for search). */
function documentInfo(info: Json, semantic: Json | undefined, ref: EntityRef) {
  const source = info['source'] as Json | null | undefined;
  const status = info['status'] as Json | null | undefined;
  const parent = documentRef((info['parentDocument'] as Json | null | undefined)?.['document']);
  return {
    title: str(info['title']),
    source:
      source === null || source === undefined
        ? null
        : {
            sourceType: source['sourceType'],
            externalUrl: str(source['externalUrl']),
            externalId: str(source['externalId']),
          },
    status: status === null || status === undefined ? null : { state: status['state'] },
    contents: {
      text: str((info['contents'] as Json | undefined)?.['text']) ?? '',
      semanticText: str(semantic?.['text']),
    },
    created: resolvedStamp(info['created']),
    lastModified: resolvedStamp(info['lastModified']),
    relatedAssets: Array.isArray(info['relatedAssets'])
      ? urnsIn(info['relatedAssets'], 'asset').flatMap((urn) => {
          const asset = refOf(urn);
          // An asset of a type the schema has no object type for cannot be an Entity!: left out.
          return asset !== undefined && typeNameOfEntity(asset.entity) !== undefined ? [{ asset }] : [];
        })
      : null,
    relatedDocuments: Array.isArray(info['relatedDocuments'])
      ? urnsIn(info['relatedDocuments'], 'document').flatMap((urn) => {
          const document = documentRef(urn);
          return document === undefined ? [] : [{ document }];
        })
      : null,
    parentDocument: parent === undefined ? null : { document: parent },
    customProperties: customProperties(info['customProperties'], ref),
  };
}

/** The Document fields beyond the common entity ones. */
const DOCUMENT_FIELDS: Record<string, FieldResolver> = {
  // The latest ingestion run's time over the document's aspects (writes without a run do not count);
  // for a document ingested from another system, else when its info was last seen.
  lastIngested: async (ref, _a, ctx) => {
    const aspects = [...(await ctx.entities.load(ref.urn)).values()];
    const runs = aspects.flatMap((a) => {
      const meta = a.systemMetadata;
      const run = [meta?.lastRunId, meta?.runId].find((r) => typeof r === 'string' && r !== NO_RUN);
      return run !== undefined && typeof meta?.lastObserved === 'number' ? [meta.lastObserved] : [];
    });
    if (runs.length > 0) return Math.max(...runs);
    const info = aspects.find((a) => a.aspect === 'documentInfo');
    const external = (info?.value['source'] as Json | null | undefined)?.['sourceType'] === 'EXTERNAL';
    return external ? (info?.systemMetadata?.lastObserved ?? null) : null;
  },
  // As the ecosystem's document mapper: from the status aspect (a deleted document is there, not existing).
  exists: async (ref, _a, ctx) => {
    const status = await aspect(ctx, ref, 'status');
    return status === undefined ? null : status['removed'] !== true;
  },
  info: async (ref, _a, ctx) => {
    const [info, semantic] = await Promise.all([
      aspect(ctx, ref, 'documentInfo'),
      aspect(ctx, ref, 'semanticText'),
    ]);
    return info === undefined ? null : documentInfo(info, semantic, ref);
  },
  settings: async (ref, _a, ctx) => {
    const settings = await aspect(ctx, ref, 'documentSettings');
    return settings === undefined ? null : { showInGlobalContext: settings['showInGlobalContext'] !== false };
  },
  subType: async (ref, _a, ctx) => {
    const names = (await aspect(ctx, ref, 'subTypes'))?.['typeNames'];
    return Array.isArray(names) && typeof names[0] === 'string' ? names[0] : null;
  },
  platform: async (ref, _a, ctx) =>
    refOf((await aspect(ctx, ref, 'dataPlatformInstance'))?.['platform']) ?? refOf(NATIVE_PLATFORM),
  changeHistory: async (ref, args, ctx) => {
    const changes = await ctx.services.app.documents.changeHistory(ctx.auth, ref.urn, args as HistoryRange);
    return changes.map((c) => ({
      changeType: c.changeType,
      description: c.description,
      actor: c.actor === null ? null : (refOf(c.actor) ?? null),
      timestamp: c.timestamp,
      details: c.details.length === 0 ? null : c.details,
    }));
  },
  // The chain as the actor sees it: it ends at a parent the actor may not read.
  parentDocuments: async (ref, _a, ctx) => {
    const parents: EntityRef[] = [];
    const seen = new Set([ref.urn]);
    let info = await aspect(ctx, ref, 'documentInfo');
    while (parents.length < MAX_PARENTS) {
      const parent = documentRef((info?.['parentDocument'] as Json | null | undefined)?.['document']);
      if (parent === undefined || seen.has(parent.urn)) break;
      seen.add(parent.urn);
      parents.push(parent);
      info = await aspect(ctx, parent, 'documentInfo');
    }
    return { count: parents.length, documents: parents };
  },
};

function pageOf(page: DocumentPage) {
  return {
    start: page.start,
    count: page.count,
    total: page.total,
    documents: page.urns.flatMap((urn) => refOf(urn) ?? []),
    facets: facetsOf(page),
  };
}

interface SearchDocumentsArgs extends DocumentSearchInput {
  readonly viewUrn?: string | null;
  readonly sortInput?: {
    readonly sortCriterion?: { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' } | null;
    readonly sortCriteria?: readonly { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' }[] | null;
  } | null;
}

interface CreateArgs {
  readonly input: {
    readonly id?: string | null;
    readonly subType?: string | null;
    readonly title?: string | null;
    readonly state?: DocumentState | null;
    readonly contents: { readonly text: string };
    readonly owners?: readonly (OwnerDraft & { readonly ownerEntityType: string })[] | null;
    readonly parentDocument?: string | null;
    readonly relatedAssets?: readonly string[] | null;
    readonly relatedDocuments?: readonly string[] | null;
    readonly settings?: { readonly showInGlobalContext?: boolean | null } | null;
  };
}

type Mutation<T> = (root: unknown, args: T, ctx: GraphQLContext) => Promise<unknown>;

/** A mutation answering true once its change is made. */
function done<T>(run: (args: T, ctx: GraphQLContext) => Promise<void>): Mutation<T> {
  return async (_root, args, ctx) => {
    await run(args, ctx);
    return true;
  };
}

type Input<T> = { readonly input: T };

/** The resolvers of the documents part of the schema; each calls one operation of the application. */
export function documentsResolvers(): Record<string, Record<string, unknown>> {
  const docs = (ctx: GraphQLContext) => ctx.services.app.documents;
  const related: FieldResolver = async (ref, args, ctx) =>
    pageOf(
      await ctx.services.app.documentSearch.relatedDocuments(
        ctx.auth,
        ref.urn,
        (args['input'] ?? {}) as DocumentCriteriaInput & { start?: number | null; count?: number | null },
      ),
    );
  const resolvers: Record<string, Record<string, unknown>> = {
    Document: DOCUMENT_FIELDS,
    Query: {
      document: async (_root: unknown, args: { urn: string }, ctx: GraphQLContext) => {
        const ref = requireRef(args.urn);
        if (ref.entity !== 'document')
          throw new ValidationError(`document takes a document urn, got ${JSON.stringify(ref.urn)}`);
        return (await ctx.entities.exists(ref.urn)) ? ref : null;
      },
      searchDocuments: async (_root: unknown, { input }: Input<SearchDocumentsArgs>, ctx: GraphQLContext) => {
        const sort =
          input.sortInput?.sortCriteria ??
          (input.sortInput?.sortCriterion ? [input.sortInput.sortCriterion] : []);
        return pageOf(
          await ctx.services.app.documentSearch.searchDocuments(ctx.auth, {
            ...input,
            sort: sort.map((c) => ({ field: c.field, order: c.sortOrder })),
          }),
        );
      },
    },
    Mutation: {
      createDocument: async (_root: unknown, { input }: CreateArgs, ctx: GraphQLContext) => {
        const draft: DocumentDraft = {
          id: input.id ?? null,
          subType: input.subType ?? null,
          title: input.title ?? null,
          state: input.state ?? null,
          text: input.contents.text,
          owners: input.owners ?? null,
          parentDocument: input.parentDocument ?? null,
          relatedAssets: input.relatedAssets ?? null,
          relatedDocuments: input.relatedDocuments ?? null,
          showInGlobalContext: input.settings?.showInGlobalContext ?? null,
        };
        return docs(ctx).create(ctx.auth, draft);
      },
      updateDocumentContents: done<
        Input<{
          urn: string;
          title?: string | null;
          contents?: { text: string } | null;
          subType?: string | null;
        }>
      >(({ input }, ctx) => {
        const edit: DocumentContentsEdit = {
          urn: input.urn,
          title: input.title ?? null,
          text: input.contents?.text ?? null,
          subType: input.subType ?? null,
        };
        return docs(ctx).updateContents(ctx.auth, edit);
      }),
      updateDocumentRelatedEntities: done<
        Input<{
          urn: string;
          relatedAssets?: readonly string[] | null;
          relatedDocuments?: readonly string[] | null;
        }>
      >(({ input }, ctx) =>
        docs(ctx).updateRelated(ctx.auth, input.urn, {
          assets: input.relatedAssets ?? null,
          documents: input.relatedDocuments ?? null,
        }),
      ),
      moveDocument: done<Input<{ urn: string; parentDocument?: string | null }>>(({ input }, ctx) =>
        docs(ctx).move(ctx.auth, input.urn, input.parentDocument ?? null),
      ),
      deleteDocument: done<{ urn: string }>(({ urn }, ctx) => docs(ctx).delete(ctx.auth, urn)),
      updateDocumentStatus: done<Input<{ urn: string; state: DocumentState }>>(({ input }, ctx) =>
        docs(ctx).updateStatus(ctx.auth, input.urn, input.state),
      ),
      updateDocumentSubType: done<Input<{ urn: string; subType?: string | null }>>(({ input }, ctx) =>
        docs(ctx).updateSubType(ctx.auth, input.urn, input.subType ?? null),
      ),
      importDocumentsFromFiles: (_root: unknown, { input }: Input<ImportRequest>, ctx: GraphQLContext) =>
        ctx.services.app.documentImport.importFiles(ctx.auth, input),
      updateDocumentSettings: done<Input<{ urn: string; showInGlobalContext: boolean }>>(({ input }, ctx) =>
        docs(ctx).updateSettings(ctx.auth, input.urn, input.showInGlobalContext),
      ),
    },
  };
  for (const typeName of TYPES_WITH_RELATED_DOCUMENTS) resolvers[typeName] = { relatedDocuments: related };
  return resolvers;
}
