import { describe, expect, it } from 'vitest';
import { usageEventOf } from './usage-tracking.js';

const NOW = 1_764_000_000_123;

describe('a tracked usage event', () => {
  it('keeps every field as sent and makes the timestamp epoch milliseconds (as the ecosystem does)', () => {
    expect(
      usageEventOf({ type: 'PageViewEvent', url: '/', width: 10, actorUrn: 'urn:li:corpuser:a' }, NOW),
    ).toEqual({
      type: 'PageViewEvent',
      url: '/',
      width: 10,
      actorUrn: 'urn:li:corpuser:a',
      timestamp: NOW,
    });
    expect(usageEventOf({ type: 'A', timestamp: 1_764_000_000_456 }, NOW)['timestamp']).toBe(
      1_764_000_000_456,
    );
    expect(usageEventOf({ type: 'A', timestamp: 1_764_000_000 }, NOW)['timestamp']).toBe(1_764_000_000_000);
    expect(usageEventOf({ type: 'A', timestamp: '1764000000' }, NOW)['timestamp']).toBe(1_764_000_000_000);
    expect(usageEventOf({ type: 'A', timestamp: '2025-11-24T16:00:00.250Z' }, NOW)['timestamp']).toBe(
      Date.parse('2025-11-24T16:00:00.250Z'),
    );
  });

  it("sets a nested event's timestamp to the same milliseconds", () => {
    expect(
      usageEventOf({ type: 'A', timestamp: 1_764_000_000, event: { timestamp: 5, x: 1 } }, NOW)['event'],
    ).toEqual({
      timestamp: 1_764_000_000_000,
      x: 1,
    });
  });

  it('refuses what is not an event, naming the problem', () => {
    expect(() => usageEventOf('text', NOW)).toThrow(/JSON object/);
    expect(() => usageEventOf({ entityType: 'dataset' }, NOW)).toThrow(/"type"/);
    expect(() => usageEventOf({ type: '  ' }, NOW)).toThrow(/"type"/);
    expect(() => usageEventOf({ type: 'A', actorUrn: 1 }, NOW)).toThrow(/actorUrn/);
    expect(() => usageEventOf({ type: 'A', timestamp: 'soon' }, NOW)).toThrow(/timestamp/);
    expect(() => usageEventOf({ type: 'A', timestamp: true }, NOW)).toThrow(/timestamp/);
  });
});
