import { createHash } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { writeIndexed, type WaitForIndex } from './indexed-writes.js';
import { requireUrnOfType } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const DOCUMENT = 'document';
const MAX_ID_LENGTH = 200;
const MAX_TEXT_CHARS = 1_000_000;
/** Hex characters of the SHA-256 of the source id appended to a document id. */
const HASH_SUFFIX_LENGTH = 16;

/** One file to import: its name and the text the caller extracted from it. */
export interface DocumentFile {
  readonly fileName: string;
  readonly content: string;
}

/** What an import is for: a context document (no sub-type) or a skill (sub-type SKILL). */
export type ImportUseCase = 'CONTEXT_DOCUMENT' | 'SKILL';

export interface ImportRequest {
  readonly documents: readonly DocumentFile[];
  readonly showInGlobalContext?: boolean | null;
  readonly useCase?: ImportUseCase | null;
  readonly parentDocumentUrn?: string | null;
}

/** The outcome of an import, as the ecosystem's ImportDocumentsResult. */
export interface ImportResult {
  readonly createdCount: number;
  readonly updatedCount: number;
  readonly failedCount: number;
  readonly errors: readonly string[];
  readonly documentUrns: readonly string[];
}

/** A file's source id: `upload.` and its base name without extension. */
export function fileSourceId(fileName: string): string {
  let base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot > 0) base = base.slice(0, dot);
  return `upload.${base}`;
}

/** A title from a file name: its base name without extension, dashes and underscores as spaces, each word capitalized. */
export function titleFromFileName(fileName: string): string {
  let base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot > 0) base = base.slice(0, dot);
  return base
    .replace(/[-_]/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(' ');
}

/**
 * The document id of a source id, the same on every import of it (so a re-import updates the document):
 * its safe characters, lower-cased and cut to fit, then a dash and 16 hex of its SHA-256.
 */
export function documentIdOf(sourceId: string): string {
  const suffix = createHash('sha256').update(sourceId, 'utf8').digest('hex').slice(0, HASH_SUFFIX_LENGTH);
  const safe = sourceId
    .replace(/[^a-zA-Z0-9_.-]/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  const room = MAX_ID_LENGTH - suffix.length - 1;
  return `${safe.slice(0, room)}-${suffix}`;
}

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot >= 0 ? fileName.slice(dot).toLowerCase() : '';
}

/**
 * Importing documents from files whose text the caller extracted (the ecosystem's
 * importDocumentsFromFiles): MANAGE_DOCUMENTS only. Each file becomes a PUBLISHED native document whose
 * id comes from its name, created or replaced whole; an empty file is skipped, one that fails is
 * counted with its error and the others go on.
 */
export class DocumentImport {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    private readonly waitForIndex: WaitForIndex,
  ) {}

  async importFiles(ctx: RequestContext, request: ImportRequest): Promise<ImportResult> {
    await this.policy.require(ctx, {
      privileges: [['MANAGE_DOCUMENTS']],
      message: 'Unauthorized to import documents. Requires MANAGE_DOCUMENTS privilege.',
    });
    const parent = request.parentDocumentUrn ?? null;
    if (parent !== null) {
      requireUrnOfType(parent, DOCUMENT);
      if (!(await this.stored.exists(parent)))
        throw new ValidationError(`Parent document does not exist: ${parent}`);
    }
    const result = {
      createdCount: 0,
      updatedCount: 0,
      failedCount: 0,
      errors: [] as string[],
      documentUrns: [] as string[],
    };
    for (const file of request.documents) {
      if (file.content.trim() === '') continue;
      const sourceId = fileSourceId(file.fileName);
      try {
        const urn = `urn:li:${DOCUMENT}:${documentIdOf(sourceId)}`;
        const existed = await this.stored.exists(urn);
        await this.write(ctx, urn, file, sourceId, request, parent);
        if (existed) result.updatedCount += 1;
        else result.createdCount += 1;
        result.documentUrns.push(urn);
      } catch (error) {
        result.failedCount += 1;
        result.errors.push(`${sourceId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return result;
  }

  private write(
    ctx: RequestContext,
    urn: string,
    file: DocumentFile,
    sourceId: string,
    request: ImportRequest,
    parent: string | null,
  ): Promise<void> {
    const stamp = { time: Date.now(), actor: ctx.authentication.actorUrn };
    const text =
      file.content.length > MAX_TEXT_CHARS
        ? `${file.content.slice(0, MAX_TEXT_CHARS)}\n\n... (truncated)`
        : file.content;
    const title = titleFromFileName(file.fileName);
    const info = {
      ...(title === '' ? {} : { title }),
      source: { sourceType: 'NATIVE' },
      status: { state: 'PUBLISHED' },
      contents: { text },
      created: stamp,
      lastModified: stamp,
      ...(parent === null ? {} : { parentDocument: { document: parent } }),
      customProperties: {
        import_source_id: sourceId,
        import_source: 'file_upload',
        original_filename: file.fileName,
        file_extension: extensionOf(file.fileName),
      },
    };
    const change = (aspect: string, value: unknown) => ({ urn, entityType: DOCUMENT, aspect, value });
    return writeIndexed(this.proposals, this.waitForIndex, ctx, [
      change('documentInfo', info),
      ...(request.useCase === 'SKILL' ? [change('subTypes', { typeNames: ['SKILL'] })] : []),
      change('documentSettings', {
        showInGlobalContext: request.showInGlobalContext ?? true,
        lastModified: stamp,
      }),
    ]);
  }
}
