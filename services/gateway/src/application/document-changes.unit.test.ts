import { describe, expect, it } from 'vitest';
import { documentInfoChanges } from './document-changes.js';

const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';
const info = (extra: Record<string, unknown> = {}) => ({
  title: 'Runbook',
  status: { state: 'UNPUBLISHED' },
  contents: { text: 'one' },
  lastModified: { time: 0, actor: ALICE },
  ...extra,
});

describe('document change history', () => {
  it('starts with the creation, named by its title, stamped by the write', () => {
    const changes = documentInfoChanges([{ value: info(), created: { time: 10, actor: ALICE } }]);
    expect(changes).toEqual([
      {
        changeType: 'CREATED',
        description: "Document 'Runbook' was created",
        details: [],
        actor: ALICE,
        timestamp: 10,
      },
    ]);
  });

  it('describes each later change of title, text, parent, related entities and state, with the later write’s stamp', () => {
    const changes = documentInfoChanges([
      { value: info(), created: { time: 10, actor: ALICE } },
      {
        value: info({
          title: 'Runbook 2',
          contents: { text: 'two' },
          status: { state: 'PUBLISHED' },
          parentDocument: { document: 'urn:li:document:p' },
          relatedDocuments: [{ document: 'urn:li:document:r' }],
        }),
        created: { time: 20, actor: BOB },
      },
      {
        value: info({
          title: 'Runbook 2',
          contents: { text: 'two' },
          status: { state: 'PUBLISHED' },
          relatedAssets: [{ asset: 'urn:li:corpuser:x' }],
        }),
        created: { time: 30, actor: ALICE },
      },
    ]);
    expect(changes.map((c) => [c.changeType, c.timestamp, c.actor])).toEqual([
      ['CREATED', 10, ALICE],
      ['TITLE_CHANGED', 20, BOB],
      ['TEXT_CHANGED', 20, BOB],
      ['PARENT_CHANGED', 20, BOB],
      ['RELATED_DOCUMENTS_CHANGED', 20, BOB],
      ['STATE_CHANGED', 20, BOB],
      ['PARENT_CHANGED', 30, ALICE],
      ['RELATED_ASSETS_CHANGED', 30, ALICE],
      ['RELATED_DOCUMENTS_CHANGED', 30, ALICE],
    ]);
    expect(changes[1]!.description).toBe("Document title changed from 'Runbook' to 'Runbook 2'");
    expect(changes[3]!.description).toBe('Document moved to parent urn:li:document:p');
    expect(changes[5]!.description).toBe('Document state changed from UNPUBLISHED to PUBLISHED');
    expect(changes[6]!.description).toBe('Document moved to root level (no parent)');
    expect(changes[8]!.details).toEqual([
      { key: 'entityUrn', value: 'urn:li:document:r' },
      { key: 'operation', value: 'REMOVE' },
    ]);
  });

  it('records nothing for a write that changed only lastModified or settings', () => {
    const changes = documentInfoChanges([
      { value: info(), created: { time: 10, actor: ALICE } },
      { value: info({ lastModified: { time: 20, actor: BOB } }), created: { time: 20, actor: BOB } },
    ]);
    expect(changes.map((c) => c.changeType)).toEqual(['CREATED']);
  });
});
