import { describe, expect, it } from 'vitest';
import { aspectChangeEvents } from './aspect-diff.js';

const info = (title: string) => ({
  title,
  status: { state: 'UNPUBLISHED' },
  contents: { text: 'x' },
  created: { time: 1, actor: 'urn:li:corpuser:a' },
  lastModified: { time: 1, actor: 'urn:li:corpuser:a' },
});

describe('document timeline events', () => {
  it('carry the stamp of the write that made the new value, the creation too', () => {
    const auditStamp = { time: 7, actor: 'urn:li:corpuser:b' };
    const change = (previous: Record<string, unknown> | undefined) =>
      aspectChangeEvents({
        entityUrn: 'urn:li:document:d',
        aspect: 'documentInfo',
        previous,
        current: info('B'),
        auditStamp,
      });
    expect(change(undefined)).toEqual([expect.objectContaining({ operation: 'CREATE', auditStamp })]);
    expect(change(info('A'))).toEqual([
      expect.objectContaining({
        category: 'DOCUMENTATION',
        parameters: { oldTitle: 'A', newTitle: 'B' },
        auditStamp,
      }),
    ]);
  });
});
