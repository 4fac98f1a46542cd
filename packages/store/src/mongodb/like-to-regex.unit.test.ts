import { describe, expect, it } from 'vitest';
import { likeToRegex } from './like-to-regex.js';

const matches = (like: string, text: string) => new RegExp(likeToRegex(like).replace(/\\z$/, '$')).test(text);

describe('likeToRegex', () => {
  it('maps the LIKE wildcards and escapes, anchored', () => {
    expect(likeToRegex('urn:li:dataset:%')).toBe('^urn:li:dataset:[\\s\\S]*\\z');
    expect(likeToRegex('a_b')).toBe('^a[\\s\\S]b\\z');
    expect(likeToRegex('50\\%\\_x\\\\')).toBe('^50%_x\\\\\\z');
    expect(likeToRegex('trailing\\')).toBe('^trailing\\\\\\z');
  });

  it('keeps regular expression metacharacters literal', () => {
    const like = 'urn:li:dataset:(urn:li:dataPlatform:hive,a.b*c?[d]{e}+f|g^h$,PROD)';
    expect(matches(like, like)).toBe(true);
    expect(matches(like, like.replace('a.b', 'axb'))).toBe(false);
    expect(matches('a%', 'abc\nd')).toBe(true);
    expect(matches('a_c', 'a\nc')).toBe(true);
    expect(matches('abc', 'ABC')).toBe(false);
    expect(matches('ab', 'abc')).toBe(false);
  });
});
