import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { formatUrn, isUrn, parseUrn, urnFromPathSegment, urnToPathSegment, urnToQueryValue } from './urn.js';

describe('parseUrn', () => {
  it('splits a simple id into one part', () => {
    expect(parseUrn('urn:li:corpuser:jdoe')).toEqual({
      raw: 'urn:li:corpuser:jdoe',
      entityType: 'corpuser',
      id: 'jdoe',
      parts: ['jdoe'],
    });
  });

  it('keeps colons, dots and spaces inside a simple id', () => {
    expect(parseUrn('urn:li:glossaryTerm:Finance.Revenue: Net').parts).toEqual(['Finance.Revenue: Net']);
  });

  it('splits a dataset composite id with a nested platform urn', () => {
    const urn = parseUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)');
    expect(urn.entityType).toBe('dataset');
    expect(urn.id).toBe('(urn:li:dataPlatform:hive,db.table,PROD)');
    expect(urn.parts).toEqual(['urn:li:dataPlatform:hive', 'db.table', 'PROD']);
  });

  it('keeps a nested composite urn whole (dataJob inside dataFlow)', () => {
    expect(parseUrn('urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod),task)').parts).toEqual([
      'urn:li:dataFlow:(airflow,dag,prod)',
      'task',
    ]);
  });

  it('keeps a doubly nested urn whole (schemaField of a dataset)', () => {
    expect(
      parseUrn('urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),path.to.col)').parts,
    ).toEqual(['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', 'path.to.col']);
  });

  it('accepts a chart composite id', () => {
    expect(parseUrn('urn:li:chart:(looker,dashboard_elements.1)').parts).toEqual([
      'looker',
      'dashboard_elements.1',
    ]);
  });

  it.each([
    ['', 'must start with "urn:li:"'],
    ['x', 'must start with "urn:li:"'],
    ['urn:foo:dataset:x', 'must start with "urn:li:"'],
    ['urn:li:dataset', 'must have the form'],
    ['urn:li::x', 'entity type ""'],
    ['urn:li:1abc:x', 'entity type "1abc"'],
    ['urn:li:data-set:x', 'entity type "data-set"'],
    ['urn:li:tag:', 'the id is empty'],
    ['urn:li:tag:   ', 'whitespace only'],
    ['urn:li:dataset:(a,b', 'must end with ")"'],
    ['urn:li:dataset:(a,(b,c)', 'unbalanced "("'],
    ['urn:li:dataset:(a,b))', 'closes at offset'],
    ['urn:li:dataset:(a)(b)', 'closes at offset'],
    ['urn:li:dataset:(a,,c)', 'empty part'],
    ['urn:li:dataset:(,b)', 'empty part'],
    ['urn:li:dataset:(a,b,)', 'empty part'],
    ['urn:li:dataset:()', 'empty part'],
    ['urn:li:dataset:(a, ,c)', 'whitespace-only part'],
    ['urn:li:tag:a)b', 'unbalanced ")"'],
    ['urn:li:tag:a(b', 'unbalanced "("'],
  ])('rejects %j naming the problem', (raw, problem) => {
    expect(() => parseUrn(raw)).toThrow(ValidationError);
    expect(() => parseUrn(raw)).toThrow(problem);
  });

  it('names the offending urn in the message', () => {
    expect(() => parseUrn('x')).toThrow('Invalid urn "x": must start with "urn:li:"');
  });
});

describe('isUrn', () => {
  it('is true for valid urns and false for anything else', () => {
    expect(isUrn('urn:li:tag:pii')).toBe(true);
    expect(isUrn('urn:li:tag:')).toBe(false);
    expect(isUrn(42)).toBe(false);
    expect(isUrn(undefined)).toBe(false);
  });
});

describe('formatUrn', () => {
  it('writes one part as a simple id', () => {
    expect(formatUrn('corpuser', ['jdoe'])).toBe('urn:li:corpuser:jdoe');
  });

  it('writes several parts in parentheses', () => {
    expect(formatUrn('dataset', ['urn:li:dataPlatform:hive', 'db.t', 'PROD'])).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
    );
  });

  it('parenthesizes a single part that starts with "(" so it reads back as one part', () => {
    const raw = formatUrn('tag', ['(x)']);
    expect(parseUrn(raw).parts).toEqual(['(x)']);
  });

  it('rejects parts that would split differently', () => {
    expect(() => formatUrn('dataset', ['a,b', 'c'])).toThrow(ValidationError);
    expect(() => formatUrn('dataset', ['a', ''])).toThrow(ValidationError);
    expect(() => formatUrn('tag', [])).toThrow(ValidationError);
  });
});

describe('URL encoding', () => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';

  it('escapes every reserved character, parentheses included', () => {
    expect(urnToPathSegment(urn)).toBe(
      'urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.t%2CPROD%29',
    );
    expect(urnToQueryValue('urn:li:tag:a/b?c=d&e')).toBe('urn%3Ali%3Atag%3Aa%2Fb%3Fc%3Dd%26e');
  });

  it('decodes both strict and encodeURIComponent forms', () => {
    expect(urnFromPathSegment(urnToPathSegment(urn))).toBe(urn);
    expect(urnFromPathSegment(encodeURIComponent(urn))).toBe(urn);
  });

  it('rejects a malformed percent-encoding', () => {
    expect(() => urnFromPathSegment('urn%3')).toThrow(ValidationError);
  });
});

describe('control characters', () => {
  const CONTROLS = ['\n', '\r', '\t', '\u0000', '\u001b', '\u001f', '\u007f'];

  it('a urn with a newline, NUL or any C0/DEL character is refused, naming it and its offset', () => {
    for (const c of CONTROLS) {
      const raw = `urn:li:dataset:(urn:li:dataPlatform:hive,db.a${c}b,PROD)`;
      const code = c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      expect(() => parseUrn(raw), JSON.stringify(c)).toThrow(ValidationError);
      expect(() => parseUrn(raw), JSON.stringify(c)).toThrow(
        new RegExp(`control character U\\+${code} at offset ${raw.indexOf(c)}`),
      );
      expect(isUrn(raw)).toBe(false);
    }
  });

  it('the refusal names the urn on one line', () => {
    expect(() => parseUrn('urn:li:corpuser:a\nb')).toThrow(/^Invalid urn "urn:li:corpuser:a\\nb"/);
    expect(() => parseUrn('urn:li:corpuser:a\u007fb')).toThrow(/^Invalid urn "urn:li:corpuser:a\\u007fb"/);
  });

  it('a percent-encoded newline or NUL in a path segment is refused when decoded', () => {
    expect(() => urnFromPathSegment('urn%3Ali%3Acorpuser%3Aa%0Ab')).toThrow(/control character U\+000A/);
    expect(() => urnFromPathSegment('urn%3Ali%3Acorpuser%3Aa%00b')).toThrow(/control character U\+0000/);
  });

  it('other characters, space and non-ASCII included, stay allowed', () => {
    expect(parseUrn('urn:li:corpuser:jane doe é\u00a0\u2028').parts).toEqual(['jane doe é\u00a0\u2028']);
  });
});
