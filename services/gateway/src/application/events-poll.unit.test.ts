import { describe, expect, it } from 'vitest';
import { decodeOffsetId, encodeOffsetId } from './events-poll.js';

describe('the events poll offset token', () => {
  it('is base64 of {"<topic>-<partition>": nextOffset}, as the ecosystem encodes it', () => {
    const token = encodeOffsetId(
      'PlatformEvent_v1',
      new Map([
        [1, '7'],
        [0, '12'],
      ]),
    );
    expect(JSON.parse(Buffer.from(token, 'base64').toString('utf8'))).toEqual({
      'PlatformEvent_v1-0': 12,
      'PlatformEvent_v1-1': 7,
    });
    expect(decodeOffsetId(token, 'PlatformEvent_v1')).toEqual(
      new Map([
        [0, '12'],
        [1, '7'],
      ]),
    );
  });

  it('splits a key at its last dash, so topic names with dashes work', () => {
    const token = encodeOffsetId('prefix-PlatformEvent_v1', new Map([[3, '0']]));
    expect(decodeOffsetId(token, 'prefix-PlatformEvent_v1')).toEqual(new Map([[3, '0']]));
  });

  it.each([
    ['not base64', '%%%'],
    ['not JSON', Buffer.from('{oops').toString('base64')],
    ['an array', Buffer.from('[1]').toString('base64')],
    ['a key without partition', Buffer.from('{"PlatformEvent_v1":1}').toString('base64')],
    ['another topic', Buffer.from('{"Other_v1-0":1}').toString('base64')],
    ['a negative offset', Buffer.from('{"PlatformEvent_v1-0":-1}').toString('base64')],
  ])('refuses %s with a message naming the offsetId', (_, token) => {
    expect(() => decodeOffsetId(token, 'PlatformEvent_v1')).toThrow(/offsetId/);
  });
});
