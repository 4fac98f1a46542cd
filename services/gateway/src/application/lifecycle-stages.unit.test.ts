import { describe, expect, it } from 'vitest';
import { HiddenLifecycleStages, lifecycleStageOf } from './lifecycle-stages.js';
import type { StoredEntities } from './stored-entities.js';

const stage = (name: string, hideInSearch: boolean, entityTypes: string[] | null) => ({
  urn: `urn:li:lifecycleStageType:${name}`,
  info: { name, entityTypes, settings: { hideInSearch } },
});

/** A store of stage types whose content the test changes, counting its reads. */
function storeOf(stages: ReturnType<typeof stage>[]) {
  const store = { reads: 0, stages };
  const stored = {
    all: async () => {
      store.reads += 1;
      return store.stages;
    },
  } as unknown as StoredEntities;
  return { store, stored };
}

describe('lifecycle stages', () => {
  it('reads a stage type as GraphQL shows it', () => {
    expect(
      lifecycleStageOf('urn:li:lifecycleStageType:x', {
        name: 'X',
        settings: { hideInSearch: true },
        transitionPolicy: { allowedPreviousStages: ['urn:li:lifecycleStageType:__NONE__'] },
      }),
    ).toEqual({
      urn: 'urn:li:lifecycleStageType:x',
      name: 'X',
      description: null,
      entityTypes: null,
      hideInSearch: true,
      allowedPreviousStages: ['urn:li:lifecycleStageType:__NONE__'],
    });
  });

  it('hides the stages that hide entities of the searched types, and those for every type', async () => {
    const { stored } = storeOf([
      stage('all', true, null),
      stage('datasets', true, ['dataset']),
      stage('charts', true, ['chart']),
      stage('shown', false, null),
    ]);
    const hidden = new HiddenLifecycleStages(stored);
    expect(await hidden.hiddenFor(['dataset'])).toEqual([
      'urn:li:lifecycleStageType:all',
      'urn:li:lifecycleStageType:datasets',
    ]);
    expect(await hidden.hiddenFor(['document'])).toEqual(['urn:li:lifecycleStageType:all']);
  });

  it('reads the stage types again only once its copy is older than its time to live', async () => {
    const { store, stored } = storeOf([stage('a', true, null)]);
    let now = 0;
    const hidden = new HiddenLifecycleStages(stored, 1000, () => now);
    await hidden.hiddenFor(['dataset']);
    store.stages = [stage('a', true, null), stage('b', true, null)];
    now = 999;
    expect(await hidden.hiddenFor(['dataset'])).toHaveLength(1);
    now = 1000;
    expect(await hidden.hiddenFor(['dataset'])).toHaveLength(2);
    expect(store.reads).toBe(2);
  });
});
