import { describe, expect, it } from 'vitest';
import { isRetriable, retryRetriable } from './retry-retriable.js';

function protocolError(type: string, retriable: boolean): Error {
  return Object.assign(new Error(type), { type, retriable });
}

describe('retryRetriable', () => {
  it('retries a call that fails with a retriable error until it succeeds', async () => {
    let calls = 0;
    const result = await retryRetriable(async () => {
      calls += 1;
      if (calls < 3) throw protocolError('NOT_LEADER_OR_FOLLOWER', true);
      return 'offsets';
    });
    expect(result).toBe('offsets');
    expect(calls).toBe(3);
  });

  it('gives up at once on an error that is not retriable', async () => {
    let calls = 0;
    const failing = retryRetriable(async () => {
      calls += 1;
      throw protocolError('TOPIC_AUTHORIZATION_FAILED', false);
    });
    await expect(failing).rejects.toThrow('TOPIC_AUTHORIZATION_FAILED');
    expect(calls).toBe(1);
  });

  it('throws the last error after the given attempts', async () => {
    let calls = 0;
    const failing = retryRetriable(async () => {
      calls += 1;
      throw protocolError('UNKNOWN_TOPIC_OR_PARTITION', true);
    }, 2);
    await expect(failing).rejects.toThrow('UNKNOWN_TOPIC_OR_PARTITION');
    expect(calls).toBe(2);
  });
});

describe('isRetriable', () => {
  it('takes a protocol error kafkajs bailed on as retriable, but not the wrapper of its exhausted retries', () => {
    const cause = protocolError('LEADER_NOT_AVAILABLE', true);
    const exhausted = Object.assign(new Error('retries exceeded'), { retriable: false, cause });
    expect(isRetriable(cause)).toBe(true);
    expect(isRetriable(exhausted)).toBe(false);
    expect(isRetriable(new Error('plain'))).toBe(false);
  });
});
