import type Database from 'better-sqlite3';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The first byte of a compressed document: deflate with DICTIONARY_V1 as its preset dictionary. */
const DEFLATE_V1 = 1;

/**
 * Text most documents share, given to deflate as a preset dictionary so that even the first
 * occurrence of a field name or URN prefix in a 1-2 KB document is a back-reference: dataset documents
 * compress about 3 times instead of 2.3. Stored documents depend on it: never change it; a new one
 * goes with a new format byte.
 */
const DICTIONARY_V1 = Buffer.from(
  [
    'urn',
    'removed',
    '_entityType',
    'platform',
    'id',
    'origin',
    'name',
    'qualifiedName',
    'description',
    'editedDescription',
    'fieldPaths',
    'fieldDescriptions',
    'fieldLabels',
    'fieldTags',
    'fieldGlossaryTerms',
    'editedFieldDescriptions',
    'editedFieldTags',
    'editedFieldGlossaryTerms',
    'tags',
    'glossaryTerms',
    'owners',
    'ownerTypes',
    'domains',
    'container',
    'browsePaths',
    'browsePathV2',
    'customProperties',
    'hasDescription',
    'hasTags',
    'hasOwners',
    'hasGlossaryTerms',
    'typeNames',
    'subTypes',
    'platformInstance',
    'createdAt',
    'lastModifiedAt',
    'rowCount',
    'sizeInBytes',
  ]
    .map((key) => `"${key}":`)
    .join('') +
    '"urn:li:dataPlatform:","urn:li:corpuser:","urn:li:corpGroup:","urn:li:tag:","urn:li:glossaryTerm:",' +
    '"urn:li:container:","urn:li:domain:","urn:li:dataset:(urn:li:dataPlatform:",",PROD)",' +
    '"urn:li:ownershipType:__system__","DATAOWNER","TECHNICAL_OWNER",[],true,false,',
);

/**
 * A 4 KiB window and a small state: documents are 1-2 KiB, and zlib's default state (a 32 KiB window,
 * 256 KiB of hash tables) cost more to set up per document than compressing it did (about 67 µs a
 * document against 36, for 1% more bytes).
 */
const DEFLATE_OPTIONS = { dictionary: DICTIONARY_V1, windowBits: 12, memLevel: 5, level: 4 } as const;
const INFLATE_OPTIONS = { dictionary: DICTIONARY_V1, windowBits: 12 } as const;

/**
 * How a document's JSON is kept in `docs.doc`: deflated (with DICTIONARY_V1) behind a format byte,
 * as a BLOB. Rows written before compression hold the JSON as TEXT and read as they are.
 */
export function encodeDocument(json: string): Buffer {
  const packed = deflateRawSync(json, DEFLATE_OPTIONS);
  const out = Buffer.allocUnsafe(packed.length + 1);
  out[0] = DEFLATE_V1;
  packed.copy(out, 1);
  return out;
}

/** The JSON of a stored document (see encodeDocument). */
export function decodeDocument(stored: string | Uint8Array): string {
  if (typeof stored === 'string') return stored;
  if (stored[0] !== DEFLATE_V1) throw new Error(`Unknown stored document format ${stored[0]}`);
  return inflateRawSync(stored.subarray(1), INFLATE_OPTIONS).toString('utf8');
}

/** `doc_json(d.doc)`: a stored document's JSON, for SQL that reads it (json_each). */
export function registerDocumentFunction(db: Database.Database): void {
  db.function('doc_json', { deterministic: true }, (stored: unknown) =>
    stored === null ? null : decodeDocument(stored as string | Uint8Array),
  );
}
