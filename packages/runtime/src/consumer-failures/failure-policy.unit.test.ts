import type { LogRecord, RecordBatch } from '@catalog/events';
import { ValidationError } from '@catalog/model';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS, type DeadLetterReason, type DeadLetterSink } from './dead-letters.js';
import { assertNotRetrying, FailurePolicy } from './failure-policy.js';

const logger = pino({ level: 'silent' });

function record(offset: number, headers: Record<string, string> = {}): LogRecord {
  return {
    topic: 't',
    partition: 0,
    offset: String(offset),
    key: `k${offset}`,
    value: Buffer.from(`v${offset}`),
    headers,
    timestamp: 0,
  };
}

/** A batch over the records from `from`, recording the offsets committed through it. */
function batchOf(records: LogRecord[], commits: string[]): RecordBatch {
  return {
    topic: 't',
    partition: 0,
    records,
    commit: async (next) => {
      commits.push(next);
    },
  };
}

function sink(): DeadLetterSink & { letters: [string, DeadLetterReason][] } {
  const letters: [string, DeadLetterReason][] = [];
  return {
    topic: 'DeadLetter_g_v1',
    letters,
    write: async (r, why) => {
      letters.push([r.offset, why]);
    },
  };
}

const transient = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('FailurePolicy', () => {
  it('dead-letters a record that can never be applied and applies the others once, in order', async () => {
    const letters = sink();
    const applied: string[] = [];
    const policy = new FailurePolicy({ groupId: 'g', logger, deadLetters: letters });
    const handler = policy.wrap(async (batch) => {
      if (batch.records.some((r) => r.offset === '2')) throw new ValidationError('bad value');
      applied.push(...batch.records.map((r) => r.offset));
    });
    await handler(batchOf([record(1), record(2), record(3)], []));
    expect(applied).toEqual(['1', '3']);
    expect(letters.letters.map(([offset, why]) => [offset, why.failureClass, why.attempts])).toEqual([
      ['2', 'deterministic', 1],
    ]);
    expect(letters.letters[0]![1].reason).toBe('ValidationError: bad value');
    expect(policy.state.deadLettered).toBe(1);
  });

  it('retries a transient failure from the failing record, never dead-letters it, and reports it meanwhile', async () => {
    const letters = sink();
    const commits: string[] = [];
    let down = true;
    const applied: string[] = [];
    const policy = new FailurePolicy({ groupId: 'g', logger, deadLetters: letters, maxAttempts: 1 });
    const handler = policy.wrap(async (batch) => {
      for (const r of batch.records) {
        if (r.offset === '2' && down) throw transient();
        applied.push(r.offset);
      }
    });
    for (let delivery = 0; delivery < 10; delivery++) {
      await expect(handler(batchOf([record(2), record(3)], commits))).rejects.toThrow('ECONNREFUSED');
    }
    expect(policy.state.retrying?.reason).toMatch(/ECONNREFUSED/);
    expect(() => assertNotRetrying(policy.state)).toThrow(/^retrying since .*ECONNREFUSED/);
    down = false;
    await handler(batchOf([record(2), record(3)], commits));
    expect(letters.letters).toEqual([]);
    expect(policy.state.retrying).toBeUndefined();
    expect(() => assertNotRetrying(policy.state)).not.toThrow();
    expect(applied.filter((o) => o === '2')).toHaveLength(1);
  });

  it('commits what precedes a transient failure found while isolating a record', async () => {
    const commits: string[] = [];
    let calls = 0;
    const policy = new FailurePolicy({ groupId: 'g', logger, deadLetters: sink() });
    const handler = policy.wrap(async (batch) => {
      calls += 1;
      if (calls === 1) throw new Error('something odd');
      if (batch.records[0]!.offset === '2') throw transient();
    });
    await expect(handler(batchOf([record(1), record(2), record(3)], commits))).rejects.toThrow(
      'ECONNREFUSED',
    );
    expect(commits).toEqual(['2']);
  });

  it('redelivers a record failing for an unknown reason, then dead-letters it after the configured attempts', async () => {
    const letters = sink();
    const commits: string[] = [];
    const policy = new FailurePolicy({ groupId: 'g', logger, deadLetters: letters, maxAttempts: 3 });
    const handler = policy.wrap(async (batch) => {
      if (batch.records.some((r) => r.offset === '1')) throw new Error('odd');
    });
    await expect(handler(batchOf([record(1), record(2)], commits))).rejects.toThrow('odd');
    await expect(handler(batchOf([record(1), record(2)], commits))).rejects.toThrow('odd');
    expect(letters.letters).toEqual([]);
    await handler(batchOf([record(1), record(2)], commits));
    expect(letters.letters.map(([offset, why]) => [offset, why.failureClass, why.attempts])).toEqual([
      ['1', 'unknown', 3],
    ]);
    expect(commits).toEqual(['1', '1']);
  });

  it('skips a replayed record meant for another group, and applies one meant for its own', async () => {
    const applied: string[] = [];
    const policy = new FailurePolicy({ groupId: 'mine', logger, deadLetters: sink() });
    const handler = policy.wrap(async (batch) => {
      applied.push(...batch.records.map((r) => r.offset));
    });
    await handler(
      batchOf(
        [
          record(1, { [DEAD_LETTER_HEADERS.replayFor]: 'other' }),
          record(2, { [DEAD_LETTER_HEADERS.replayFor]: 'mine' }),
          record(3),
        ],
        [],
      ),
    );
    expect(applied).toEqual(['2', '3']);
  });
});
