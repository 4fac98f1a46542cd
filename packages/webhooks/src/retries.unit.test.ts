import { describe, expect, it } from 'vitest';
import { retryAfterOf } from './deliver.js';
import { backoffMs, DEFAULT_DELIVERY_SETTINGS } from './settings.js';
import { matchesFilter } from './subscription.js';

describe('retry pacing', () => {
  const settings = { ...DEFAULT_DELIVERY_SETTINGS, backoffBaseMs: 100, backoffMaxMs: 1_000 };

  it('doubles the pause per attempt up to the ceiling, jittered over its upper half', () => {
    expect(backoffMs(settings, 1, () => 0)).toBe(50);
    expect(backoffMs(settings, 1, () => 1)).toBe(100);
    expect(backoffMs(settings, 3, () => 1)).toBe(400);
    expect(backoffMs(settings, 10, () => 1)).toBe(1_000);
    expect(backoffMs(settings, 10, () => 0)).toBe(500);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterOf('7', now)).toBe(7_000);
    expect(retryAfterOf('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterOf('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterOf(null, now)).toBeUndefined();
    expect(retryAfterOf('soon', now)).toBeUndefined();
  });
});

describe('subscription filters', () => {
  const event = { entityUrn: 'urn:li:dataset:x', entityType: 'dataset', category: 'TAG', operation: 'ADD' };
  const none = { urns: [], entityTypes: [], categories: [], operations: [] };

  it('keeps everything when empty, and otherwise what every non-empty list names', () => {
    expect(matchesFilter(none, event)).toBe(true);
    expect(matchesFilter({ ...none, categories: ['TAG', 'OWNERSHIP'] }, event)).toBe(true);
    expect(matchesFilter({ ...none, categories: ['OWNERSHIP'] }, event)).toBe(false);
    expect(matchesFilter({ ...none, entityTypes: ['chart'] }, event)).toBe(false);
    expect(matchesFilter({ ...none, urns: ['urn:li:dataset:x'], operations: ['REMOVE'] }, event)).toBe(false);
    expect(matchesFilter({ ...none, urns: ['urn:li:dataset:x'], operations: ['ADD'] }, event)).toBe(true);
  });
});
