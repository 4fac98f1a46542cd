import { describe, expect, it } from 'vitest';
import type { ApplyResult, StoredAspect } from '../port.js';
import {
  RecordedResultWriter,
  PACKED_REFERENCES,
  REMOVED,
  rowHash,
  WHOLE_RESULT,
  type References,
  type RowContent,
} from './recorded-result.js';

const URN = 'urn:li:corpuser:recorded';
const SYSTEM = { lastObserved: 1, runId: 'run-1', version: '1' };

function stored(aspect: string, value: Record<string, unknown>): StoredAspect {
  return {
    urn: URN,
    aspect,
    version: 0,
    value,
    systemMetadata: SYSTEM,
    created: { time: 1, actor: 'urn:li:corpuser:writer' },
  };
}

function contentOf(aspect: StoredAspect, systemText = JSON.stringify(aspect.systemMetadata)): RowContent {
  return {
    metadata: JSON.stringify(aspect.value),
    system_metadata: systemText,
    created_on: aspect.created.time,
    created_by: aspect.created.actor,
    created_for: null,
    created_message: null,
  };
}

describe('RecordedResultWriter', () => {
  it('names each aspect by row and digest, and keeps each system metadata text once', () => {
    const writer = new RecordedResultWriter();
    const current = stored('corpUserInfo', { name: 'a'.repeat(500) });
    const key = stored('corpUserKey', { username: 'recorded' });
    for (const aspect of [current, key])
      writer.knowRow(aspect, { row: 1, content: contentOf(aspect), systemMetadataMayChange: true });
    const result: ApplyResult = {
      requestId: 'r',
      status: 'CREATED',
      current,
      keyCreated: key,
      replayed: false,
    };
    const recorded = writer.toRecord(result, URN);
    expect(recorded).toEqual({
      format: PACKED_REFERENCES,
      references: {
        status: 'CREATED',
        // Its lastObserved is the rows' audit stamp time: named, not repeated (see keptSystemMetadata).
        systemTexts: [JSON.stringify([{ runId: 'run-1', version: '1' }, 'lastObserved'])],
        current: ['corpUserInfo', 1, rowHash(contentOf(current), false), 0],
        keyCreated: ['corpUserKey', 1, rowHash(contentOf(key), false), 0],
      } satisfies References,
    });
    expect(JSON.stringify(recorded)).not.toContain('aaaa');
  });

  it('leaves out the system metadata of a row that keeps it, and covers it by the digest instead', () => {
    const writer = new RecordedResultWriter();
    const previous = stored('corpUserInfo', { name: 'old' });
    writer.knowRow(previous, { row: REMOVED, content: contentOf(previous), systemMetadataMayChange: false });
    const recorded = writer.toRecord({ requestId: 'r', status: 'DELETED', previous, replayed: false }, URN);
    expect(recorded).toEqual({
      format: PACKED_REFERENCES,
      references: {
        status: 'DELETED',
        systemTexts: [],
        previous: ['corpUserInfo', REMOVED, rowHash(contentOf(previous), true)],
      },
    });
    expect(rowHash(contentOf(previous), true)).not.toBe(
      rowHash(contentOf(previous, JSON.stringify({ ...SYSTEM, runId: 'run-2' })), true),
    );
  });

  it('records a result whole when one of its aspects is not a row the write path named', () => {
    const writer = new RecordedResultWriter();
    const named = stored('corpUserInfo', { name: 'named' });
    writer.knowRow(named, { row: 1, content: contentOf(named), systemMetadataMayChange: true });
    const result: ApplyResult = {
      requestId: 'r',
      status: 'CREATED',
      current: named,
      keyCreated: stored('corpUserKey', { username: 'unnamed' }),
      replayed: false,
    };
    expect(writer.toRecord(result, URN)).toEqual({ text: JSON.stringify(result), format: WHOLE_RESULT });
  });
});
