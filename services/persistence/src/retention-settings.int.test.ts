import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPersistenceConfig } from './config.js';
import { DEFAULT_RETENTION_POLICIES } from './retention-policies.js';

describe('persistence config: retention plugin files (RETENTION_PLUGIN_PATH)', () => {
  it('takes the policies of the YAML files in RETENTION_PLUGIN_PATH over the defaults, key by key', () => {
    const folder = mkdtempSync(join(tmpdir(), 'retention-plugins-'));
    try {
      writeFileSync(
        join(folder, 'retention.yaml'),
        [
          '- entity: "*"',
          '  aspect: "*"',
          '  config:',
          '    retention:',
          '      version:',
          '        maxVersions: 5',
          '- entity: dataset',
          '  aspect: datasetProperties',
          '  config:',
          '    retention:',
          '      version:',
          '        maxVersions: 20',
          '      time:',
          '        maxAgeInSeconds: 2592000',
        ].join('\n'),
      );
      const { defaults } = readPersistenceConfig({ RETENTION_PLUGIN_PATH: folder }).retention;
      expect(defaults.filter((p) => p.entity === '*')).toEqual([
        { entity: '*', aspect: '*', retention: { version: { maxVersions: 5 } } },
      ]);
      expect(defaults).toContainEqual({
        entity: 'dataset',
        aspect: 'datasetProperties',
        retention: { version: { maxVersions: 20 }, time: { maxAgeInSeconds: 2592000 } },
      });
      expect(defaults).toHaveLength(DEFAULT_RETENTION_POLICIES.length + 1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses a plugin file that does not fit, naming the variable and the entry', () => {
    const folder = mkdtempSync(join(tmpdir(), 'retention-plugins-'));
    try {
      writeFileSync(
        join(folder, 'bad.yml'),
        '- entity: dataset\n  aspect: "*"\n  config: {retention: {version: {maxVersions: 0}}}\n',
      );
      expect(() => readPersistenceConfig({ RETENTION_PLUGIN_PATH: folder })).toThrow(
        /RETENTION_PLUGIN_PATH.*bad\.yml, entry 1: maxVersions must be a positive integer/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
