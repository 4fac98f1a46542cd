import type Database from 'better-sqlite3';
import { unpackRecord } from './packed-record.js';
import { PACKED_REFERENCES, ROW_REFERENCES } from './recorded-result.js';
import { decodeJson, type StoredJson } from './stored-json.js';

/**
 * For tests that make a file as an older build left it from one this build wrote: a request record
 * as JSON text (as stored-json.ts decodes it), in a format that build wrote. A packed record (schema
 * 5) becomes the row references of format ROW_REFERENCES, its ids read from `db`'s dictionaries.
 */
export function olderRecord(
  db: Database.Database,
  record: { readonly result: StoredJson; readonly format: number },
): { readonly text: string; readonly format: number } {
  if (record.format !== PACKED_REFERENCES) return { text: decodeJson(record.result), format: record.format };
  const urn = db.prepare<[number, number], { urn: string }>(
    'SELECT urn FROM urns WHERE id = ? UNION ALL SELECT urn FROM removed_urns WHERE id = ?',
  );
  const name = db.prepare<[number], { name: string }>('SELECT name FROM aspect_names WHERE id = ?');
  const unpacked = unpackRecord(record.result as Buffer, {
    urn: (id) => urn.get(id, id)?.urn,
    aspect: (id) => name.get(id)?.name,
  });
  if (unpacked === undefined) throw new Error('a packed record names an id the file does not have');
  // Members in the order the writer of ROW_REFERENCES wrote them.
  const { status, urn: text, rejection, systemMetadata, ...references } = unpacked;
  return {
    text: JSON.stringify({ status, urn: text, rejection, systemMetadata, ...references }),
    format: ROW_REFERENCES,
  };
}
