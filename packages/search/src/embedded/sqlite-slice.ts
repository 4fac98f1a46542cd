import type Database from 'better-sqlite3';
import type { SearchSlice } from '../port.js';
import { sliceOfUrn } from '../slice-of-urn.js';
import type { SqlPart } from './sqlite-filter-sql.js';

const SLICE_FUNCTION = 'catalog_slice_of';

/** Registers `catalog_slice_of(urn, max)` (sliceOfUrn) on the connection, for sliceSql. */
export function registerSliceFunction(db: Database.Database): void {
  db.function(SLICE_FUNCTION, { deterministic: true }, (urn: unknown, max: unknown) =>
    sliceOfUrn(String(urn), Number(max)),
  );
}

/** The documents (`d`) in the slice. */
export function sliceSql(slice: SearchSlice): SqlPart {
  return { sql: `${SLICE_FUNCTION}(d.urn, ?) = ?`, params: [slice.max, slice.id] };
}
