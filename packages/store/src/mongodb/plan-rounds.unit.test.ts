import { describe, expect, it } from 'vitest';
import type { AspectWrite } from '../port.js';
import { planRounds } from './plan-rounds.js';

const key = { name: 'datasetKey', value: {} };
function w(
  urn: string,
  aspect: string,
  requestId: string,
  mode: AspectWrite['mode'] = 'UPSERT',
  withKey = false,
): Pick<AspectWrite, 'requestId' | 'mode' | 'urn' | 'aspect' | 'keyAspect'> {
  return { urn, aspect, requestId, mode, ...(withKey ? { keyAspect: key } : {}) };
}

describe('planRounds', () => {
  it('runs writes to different aspects together and keeps writes to one aspect in order', () => {
    expect(planRounds([w('a', 'p', '1'), w('a', 'o', '2'), w('b', 'p', '3'), w('a', 'p', '4')])).toEqual([
      [0, 1, 2],
      [3],
    ]);
    expect(planRounds([])).toEqual([]);
  });

  it('lets several writes store the key aspect if absent in one round, but not with a write of the key', () => {
    expect(
      planRounds([
        w('a', 'p', '1', 'UPSERT', true),
        w('a', 'o', '2', 'UPSERT', true),
        w('a', 'datasetKey', '3'),
        w('a', 's', '4', 'UPSERT', true),
      ]),
    ).toEqual([[0, 1], [2], [3]]);
    expect(planRounds([w('a', 'datasetKey', '1'), w('a', 'p', '2', 'UPSERT', true)])).toEqual([[0], [1]]);
  });

  it('orders an entity delete after and before every write to the entity', () => {
    expect(
      planRounds([
        w('a', 'p', '1'),
        w('a', 'o', '2'),
        w('a', 'datasetKey', '3', 'DELETE_ENTITY'),
        w('a', 'o', '4'),
        w('b', 'p', '5'),
      ]),
    ).toEqual([[0, 1, 4], [2], [3]]);
  });

  it('puts a repeated request id after its first occurrence', () => {
    expect(planRounds([w('a', 'p', '1'), w('b', 'p', '1'), w('c', 'p', '2')])).toEqual([[0, 2], [1]]);
  });
});
