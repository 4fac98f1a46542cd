import { describe, expect, it } from 'vitest';
import { canonicalJson, sameAspectValue } from './canonical-json.js';
import { decodeScanCursor, encodeScanCursor } from './scan-cursor.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}',
    );
  });

  it('drops undefined members as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('keeps a "__proto__" member as data', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });
});

describe('sameAspectValue', () => {
  it('ignores key order', () => {
    expect(sameAspectValue({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
  });

  it('sees array order, types and missing members', () => {
    expect(sameAspectValue({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameAspectValue({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameAspectValue({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameAspectValue({ a: {} }, { a: [] })).toBe(false);
    expect(sameAspectValue({ a: null }, { a: {} })).toBe(false);
  });

  it('ignores members set to undefined, as JSON does', () => {
    expect(sameAspectValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameAspectValue({ a: 1 }, { a: 1, b: undefined })).toBe(true);
  });

  it('agrees with comparing canonical texts', () => {
    const samples: unknown[] = [
      { a: [1, { b: 2, c: [3] }] },
      { a: [1, { c: [3], b: 2 }] },
      { a: [1, { c: [3], b: '2' }] },
      { a: [1, { c: [3, 4], b: 2 }] },
      { x: { y: { z: null } } },
      { x: { y: {} } },
    ];
    for (const a of samples) {
      for (const b of samples) expect(sameAspectValue(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
    }
  });
});

describe('scan cursor', () => {
  it('round-trips and rejects foreign text', () => {
    const position = { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,ü,PROD)', aspect: 'status' };
    expect(decodeScanCursor(encodeScanCursor(position))).toEqual(position);
    expect(() => decodeScanCursor('not-a-cursor')).toThrow(TypeError);
  });
});
