import type { ChangeEvent, ChangeTransaction } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { documentHistory } from './document-change-history.js';

const ALICE = 'urn:li:corpuser:alice';
const URN = 'urn:li:document:d';

function transaction(time: number, events: Partial<ChangeEvent>[]): ChangeTransaction {
  return {
    timestamp: time,
    actor: ALICE,
    semVer: '0.0.0-computed',
    semVerChange: 'NONE',
    versionStamp: '',
    changeEvents: events.map((e) => ({
      entityUrn: URN,
      category: 'DOCUMENTATION',
      operation: 'MODIFY',
      semVerChange: 'NONE',
      description: '',
      auditStamp: { time, actor: ALICE },
      ...e,
    })),
  };
}

describe('document history from the timeline', () => {
  it('names each document event as the ecosystem does, newest first, with its stamp and details', () => {
    const history = documentHistory(
      [
        transaction(10, [
          { category: 'LIFECYCLE', operation: 'CREATE', description: "Document 'A' was created" },
        ]),
        transaction(20, [
          {
            description: "Document title changed from 'A' to 'B'",
            parameters: { oldTitle: 'A', newTitle: 'B' },
          },
          {
            description: 'Document text content was modified',
            parameters: { oldContent: 'x', newContent: 'y' },
          },
          { category: 'LIFECYCLE', description: 'Document state changed from UNPUBLISHED to PUBLISHED' },
          { category: 'PARENT', description: 'Document moved to parent urn:li:document:p' },
        ]),
        transaction(30, [
          {
            category: 'RELATED_ENTITIES',
            operation: 'ADD',
            modifier: 'urn:li:document:r',
            description: 'Related document urn:li:document:r was added',
          },
          {
            category: 'RELATED_ENTITIES',
            operation: 'REMOVE',
            modifier: 'urn:li:dataset:x',
            description: 'Related asset urn:li:dataset:x was removed',
          },
          { category: 'TAG', operation: 'ADD', description: 'Tag added' },
        ]),
      ],
      50,
      0,
    );
    expect(history.map((c) => [c.changeType, c.timestamp])).toEqual([
      ['RELATED_DOCUMENTS_CHANGED', 30],
      ['RELATED_ASSETS_CHANGED', 30],
      ['TITLE_CHANGED', 20],
      ['TEXT_CHANGED', 20],
      ['STATE_CHANGED', 20],
      ['PARENT_CHANGED', 20],
      ['CREATED', 10],
    ]);
    expect(history[0]).toEqual({
      changeType: 'RELATED_DOCUMENTS_CHANGED',
      description: 'Related document urn:li:document:r was added',
      actor: ALICE,
      timestamp: 30,
      details: [
        { key: 'entityUrn', value: 'urn:li:document:r' },
        { key: 'operation', value: 'ADD' },
      ],
    });
    expect(history[2]!.details).toEqual([
      { key: 'oldTitle', value: 'A' },
      { key: 'newTitle', value: 'B' },
    ]);
  });

  it('lists the same change at the same time once, and keeps at most the limit', () => {
    const twice = { category: 'PARENT' as const, description: 'Document moved to root level (no parent)' };
    expect(documentHistory([transaction(5, [twice, twice])], 50, 0)).toHaveLength(1);
    expect(
      documentHistory(
        [transaction(5, [{ description: 'Document text content was modified' }]), transaction(6, [twice])],
        1,
        0,
      ),
    ).toEqual([expect.objectContaining({ changeType: 'PARENT_CHANGED' })]);
  });
});
