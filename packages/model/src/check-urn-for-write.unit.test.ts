import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { checkProposal } from './proposal.js';
import { checkUrnForWrite } from './urn.js';

const WHITESPACE = 'Error: cannot provide an URN with leading or trailing whitespace';
const TOO_LONG = 'Error: cannot provide an URN longer than 512 bytes (when URL encoded)';
const DELIMITER = 'Error: URN cannot contain \u241F character';

function refusal(urn: string): string | undefined {
  try {
    checkUrnForWrite(urn);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
}

describe('checkUrnForWrite', () => {
  it('accepts an ordinary urn', () => {
    expect(refusal('urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)')).toBeUndefined();
  });

  it('refuses leading or trailing whitespace, tabs and newlines included', () => {
    expect(refusal(' urn:li:corpuser:a')).toBe(WHITESPACE);
    expect(refusal('urn:li:corpuser:a ')).toBe(WHITESPACE);
    expect(refusal('urn:li:corpuser:a\n')).toBe(WHITESPACE);
    expect(refusal('\turn:li:corpuser:a')).toBe(WHITESPACE);
  });

  it('counts the form-URL-encoded length: 512 bytes pass, 513 do not', () => {
    const prefix = 'urn:li:corpuser:';
    const encodedPrefix = prefix.length + 3 * 2; // each of the three ':' becomes %3A
    expect(refusal(prefix + 'a'.repeat(512 - encodedPrefix))).toBeUndefined();
    expect(refusal(prefix + 'a'.repeat(513 - encodedPrefix))).toBe(TOO_LONG);
  });

  it('counts escaped characters three times, as the ecosystem does', () => {
    // 200 '>' are 600 bytes encoded; 200 'a' are 200.
    expect(refusal(`urn:li:corpuser:${'a'.repeat(200)}`)).toBeUndefined();
    expect(refusal(`urn:li:corpuser:${'>'.repeat(200)}`)).toBe(TOO_LONG);
    // A space is one byte ('+'); a multi-byte character is three per UTF-8 byte.
    expect(refusal(`urn:li:corpuser:a${' '.repeat(480)}a`)).toBeUndefined();
    expect(refusal(`urn:li:corpuser:${'é'.repeat(90)}`)).toBe(TOO_LONG);
  });

  it('refuses a megabyte urn without encoding it', () => {
    expect(refusal(`urn:li:corpuser:${'x'.repeat(1 << 20)}`)).toBe(TOO_LONG);
  });

  it('exempts schemaField urns from the length limit', () => {
    const dataset = `urn:li:dataset:(urn:li:dataPlatform:hive,${'t'.repeat(600)},PROD)`;
    expect(refusal(`urn:li:schemaField:(${dataset},col)`)).toBeUndefined();
    expect(refusal(dataset)).toBe(TOO_LONG);
  });

  it('refuses the browse-path delimiter anywhere', () => {
    expect(refusal('urn:li:corpuser:a\u241Fb')).toBe(DELIMITER);
  });
});

describe('checkProposal applies the urn checks', () => {
  const proposal = (entityUrn: string) => ({
    entityType: 'corpuser',
    entityUrn,
    changeType: 'UPSERT',
    aspectName: 'corpUserKey',
    aspect: { value: JSON.stringify({ username: entityUrn.slice('urn:li:corpuser:'.length) }) },
  });

  it('refuses a long urn, whitespace and the delimiter with the ecosystem messages', () => {
    expect(() => checkProposal(proposal(`urn:li:corpuser:${'x'.repeat(600)}`))).toThrow(TOO_LONG);
    expect(() => checkProposal(proposal('urn:li:corpuser:a '))).toThrow(WHITESPACE);
    expect(() => checkProposal(proposal('urn:li:corpuser:a\u241Fb'))).toThrow(DELIMITER);
  });

  it('checks an urn built from entityKeyAspect too', () => {
    expect(() =>
      checkProposal({
        entityType: 'corpuser',
        entityKeyAspect: { value: JSON.stringify({ username: 'x'.repeat(600) }) },
        changeType: 'UPSERT',
        aspectName: 'corpUserKey',
        aspect: { value: JSON.stringify({ username: 'x'.repeat(600) }) },
      }),
    ).toThrow(TOO_LONG);
  });
});

describe('checkUrnForWrite refuses control characters', () => {
  it('a urn with a newline inside gets a ValidationError naming the character', () => {
    expect(() => checkUrnForWrite('urn:li:corpuser:a\nb')).toThrow(/control character U\+000A at offset 17/);
  });
});
