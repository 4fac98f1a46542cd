import { describe, expect, it } from 'vitest';
import { likeToGlob } from './like-to-glob.js';

describe('likeToGlob', () => {
  it('maps the LIKE wildcards and escapes', () => {
    expect(likeToGlob('urn:li:dataset:%')).toBe('urn:li:dataset:*');
    expect(likeToGlob('a_b')).toBe('a?b');
    expect(likeToGlob('50\\%\\_x\\\\')).toBe('50%_x\\');
  });

  it('keeps GLOB metacharacters literal', () => {
    expect(likeToGlob('a*b?c[d]')).toBe('a[*]b[?]c[[]d]');
    expect(likeToGlob('trailing\\')).toBe('trailing\\');
  });
});
