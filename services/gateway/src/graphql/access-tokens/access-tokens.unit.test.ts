import { ACCESS_TOKEN_DURATION_MS } from '@catalog/auth';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_DURATIONS } from './access-tokens.js';

describe('ACCESS_TOKEN_DURATIONS', () => {
  it('offers exactly the durations the token service maps', () => {
    expect([...ACCESS_TOKEN_DURATIONS].sort()).toEqual(Object.keys(ACCESS_TOKEN_DURATION_MS).sort());
  });
});
