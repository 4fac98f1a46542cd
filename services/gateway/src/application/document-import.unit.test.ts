import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { documentIdOf, fileSourceId, titleFromFileName } from './document-import.js';

const hex16 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

describe('document import names', () => {
  it('takes the source id and the title from the file name', () => {
    expect(fileSourceId('docs/on-call_RUNBOOK.v2.md')).toBe('upload.on-call_RUNBOOK.v2');
    expect(fileSourceId('.env')).toBe('upload..env');
    expect(titleFromFileName('docs/on-call_RUNBOOK.v2.md')).toBe('On Call Runbook.v2');
    expect(titleFromFileName('  ')).toBe('');
  });

  it('makes the same safe id for the same source, the name lower-cased and its hash appended', () => {
    expect(documentIdOf('upload.My Notes (draft)')).toBe(
      `upload.my-notes-draft-${hex16('upload.My Notes (draft)')}`,
    );
    expect(documentIdOf('upload.a')).toBe(documentIdOf('upload.a'));
    expect(documentIdOf('upload.a')).not.toBe(documentIdOf('upload.A'));
    const long = documentIdOf(`upload.${'x'.repeat(500)}`);
    expect(long).toHaveLength(200);
    expect(long.endsWith(`-${hex16(`upload.${'x'.repeat(500)}`)}`)).toBe(true);
  });
});
