import { describe, expect, it } from 'vitest';
import { validateAspect } from '../validate.js';
import { dataPlatformEntities } from './data-platforms.js';
import { entityRegistry } from './entity-registry.js';

describe('the bootstrapped data platforms', () => {
  const platforms = dataPlatformEntities();
  const info = entityRegistry.requireEntity('dataPlatform').aspects.get('dataPlatformInfo')!;

  it('each has a dataPlatformInfo that fits its schema', () => {
    const invalid = platforms.filter((p) => !validateAspect(info, p.value).ok).map((p) => p.urn);
    expect(invalid).toEqual([]);
  });

  it('names each platform once, the last description standing, hive among them as the ecosystem describes it', () => {
    expect(new Set(platforms.map((p) => p.urn)).size).toBe(platforms.length);
    expect(platforms.find((p) => p.urn === 'urn:li:dataPlatform:presto')?.value['name']).toBe('presto');
    expect(platforms.find((p) => p.urn === 'urn:li:dataPlatform:hive')?.value).toEqual({
      name: 'hive',
      displayName: 'Hive',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/hivelogo.png',
    });
  });
});
