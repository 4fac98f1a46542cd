import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_DICTIONARY_1, JSON_SUBSTITUTIONS_1 } from './json-dictionary.js';
import { decodeJson, encodeJson } from './stored-json.js';

const schema = JSON.stringify({
  fields: Array.from({ length: 20 }, (_, f) => ({ fieldPath: `c${f}`, nativeDataType: 'varchar' })),
});
const systemMetadata = JSON.stringify({
  lastObserved: 1_764_280_000_123,
  version: '1',
  aspectCreated: { actor: 'urn:li:corpuser:__datahub_system', time: 1_764_280_000_123 },
  aspectModified: { actor: 'urn:li:corpuser:__datahub_system', time: 1_764_280_000_123 },
});

describe('stored JSON', () => {
  it('deflates a long text to a blob and substitutes a short one, both reading back the same', () => {
    const deflated = encodeJson(schema);
    expect(Buffer.isBuffer(deflated)).toBe(true);
    expect(deflated.length).toBeLessThan(schema.length / 3);
    expect(decodeJson(deflated)).toBe(schema);
    const substituted = encodeJson(systemMetadata);
    expect(typeof substituted).toBe('string');
    expect(substituted.length).toBeLessThan(systemMetadata.length / 3);
    expect(decodeJson(substituted)).toBe(systemMetadata);
  });

  it('reads a plain JSON text, as files before schema 4 hold them, as itself', () => {
    expect(decodeJson(systemMetadata)).toBe(systemMetadata);
  });

  it('reads back any JSON text as written, whatever its content', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.json().map((json) => `{"tags":[{"tag":"urn:li:tag:${json}"}],"name":"${json}"}`),
      fc.string({ unit: 'binary' }).map((text) => JSON.stringify({ description: text.repeat(40) })),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(fc.property(texts, (text) => decodeJson(encodeJson(text)) === text));
  });

  it('substitutes a request record frame with two-character tokens, reading back the same', () => {
    const record = `{"status":"UPDATED","urn":"urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)","systemMetadata":[[${systemMetadata}]],"current":["ownership",2,"abc",0]}`;
    const stored = encodeJson(record) as string;
    expect(stored).toContain('\x1f');
    expect(decodeJson(stored)).toBe(record);
  });

  it('deflates a text holding a token character, which substitution would misread', () => {
    const text = 'a\u0001b';
    expect(Buffer.isBuffer(encodeJson(text))).toBe(true);
    expect(decodeJson(encodeJson(text))).toBe(text);
  });

  it('refuses a blob of a codec it does not know rather than misreading it', () => {
    const stored = encodeJson(schema) as Buffer;
    stored[0] = 9;
    expect(() => decodeJson(stored)).toThrow(/codec 9/);
  });

  it('has the dictionary and substitutions every stored value was written with, unchanged', () => {
    // Editing either makes stored values unreadable or misread: add a codec instead.
    const digest = createHash('sha256')
      .update(JSON_DICTIONARY_1)
      .update(JSON.stringify(JSON_SUBSTITUTIONS_1))
      .digest('hex');
    expect(digest).toBe('3a5547b8176ac211ad57bc36dc185fe340195537a35b978274abc041a86c6fc6');
  });
});
