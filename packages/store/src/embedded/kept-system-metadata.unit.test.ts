import { describe, expect, it } from 'vitest';
import type { SystemMetadata } from '../port.js';
import { keptSystemMetadata, restoredSystemMetadata } from './kept-system-metadata.js';
import type { RowContent } from './recorded-result.js';

const ROW: RowContent = {
  metadata: '{}',
  system_metadata: null,
  created_on: 1_700_000_000_000,
  created_by: 'urn:li:corpuser:writer',
  created_for: 'urn:li:corpuser:delegate',
  created_message: null,
};
const STAMP = {
  actor: 'urn:li:corpuser:writer',
  time: 1_700_000_000_000,
  impersonator: 'urn:li:corpuser:delegate',
};

const roundTrip = (systemMetadata: SystemMetadata | null) =>
  restoredSystemMetadata(JSON.parse(keptSystemMetadata(systemMetadata, ROW)), ROW);

describe('the system metadata a request record keeps', () => {
  it("names the members that repeat the row's audit stamp, and restores them", () => {
    const written: SystemMetadata = {
      lastObserved: STAMP.time,
      runId: 'run-1',
      version: '1',
      aspectCreated: STAMP,
      aspectModified: STAMP,
    };
    expect(JSON.parse(keptSystemMetadata(written, ROW))).toEqual([
      { runId: 'run-1', version: '1' },
      'lastObserved',
      'aspectCreated',
      'aspectModified',
    ]);
    expect(roundTrip(written)).toEqual(written);
  });

  it('keeps members that differ from the stamp, and metadata with none of them, as they are', () => {
    const later: SystemMetadata = {
      lastObserved: STAMP.time + 1,
      version: '2',
      aspectCreated: { ...STAMP, time: 1 },
      aspectModified: { actor: STAMP.actor, time: STAMP.time },
    };
    expect(JSON.parse(keptSystemMetadata(later, ROW))).toEqual(later);
    expect(roundTrip(later)).toEqual(later);
    expect(roundTrip({ runId: 'legacy' })).toEqual({ runId: 'legacy' });
    expect(roundTrip(null)).toBeNull();
  });
});
