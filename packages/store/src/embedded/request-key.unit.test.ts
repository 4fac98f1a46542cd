import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestKey } from './request-key.js';

const UUID = '61a0b7f0-6ebb-4cd3-a6ca-6935326fc9ce';

/** The id a key was made from: the inverse of requestKey, which the store itself never needs. */
function idOf(key: string | Buffer): string {
  if (typeof key === 'string') return key;
  const prefixBytes = key[0]!;
  const hex = key.subarray(1 + prefixBytes, 17 + prefixBytes).toString('hex');
  const uuid = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join(
    '-',
  );
  return (
    key.subarray(1, 1 + prefixBytes).toString('utf8') + uuid + key.subarray(17 + prefixBytes).toString('utf8')
  );
}

describe('requestKey', () => {
  it('stores a UUID in 17 bytes, with what surrounds it', () => {
    expect(requestKey(UUID)).toHaveLength(17);
    expect(requestKey(`bootstrap-${UUID}`)).toHaveLength(27);
    expect(requestKey(`${UUID}-3`)).toHaveLength(19);
  });

  it('keeps ids without a canonical UUID as text', () => {
    expect(requestKey('topic-0-42')).toBe('topic-0-42');
    expect(requestKey(UUID.toUpperCase())).toBe(UUID.toUpperCase());
    expect(requestKey(`${'p'.repeat(256)}${UUID}`)).toBe(`${'p'.repeat(256)}${UUID}`);
    expect(requestKey(`\uD800${UUID}`)).toBe(`\uD800${UUID}`);
  });

  it('gives every id a key of its own', () => {
    const uuid = fc.uuid().map((u) => u.toLowerCase());
    const id = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.tuple(fc.string({ unit: 'grapheme' }), uuid, fc.string({ unit: 'grapheme' })).map((p) => p.join('')),
      fc.tuple(fc.string(), uuid, uuid).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(id, (requestId) => {
        expect(idOf(requestKey(requestId))).toBe(requestId);
      }),
    );
  });
});
