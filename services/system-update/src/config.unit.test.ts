import { describe, expect, it } from 'vitest';
import { readSystemUpdateConfig } from './config.js';

describe('system-update configuration', () => {
  it('only sets up by default, and cleans up no structured property mappings', () => {
    const config = readSystemUpdateConfig({}, []);
    expect(config.steps).toEqual(['setup']);
    expect(config.clean).toBe(false);
    expect(config.structuredPropertyMappingCleanup).toBe(false);
  });

  it("rebuilds from scratch with the ecosystem's reindex switch, or its OpenSearch-named twin", () => {
    for (const name of [
      'ELASTICSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX',
      'OPENSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX',
    ]) {
      const config = readSystemUpdateConfig({ [name]: 'true' }, []);
      expect(config.steps).toEqual(['setup', 'restore-indices']);
      expect(config.clean).toBe(true);
    }
  });

  it("cleans up hard-deleted structured properties' mappings with ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE", () => {
    const alone = readSystemUpdateConfig({ ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: 'true' }, []);
    expect(alone).toMatchObject({ steps: ['setup'], clean: false, structuredPropertyMappingCleanup: true });
    const both = readSystemUpdateConfig(
      {
        ELASTICSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX: 'true',
        ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: 'true',
      },
      [],
    );
    expect(both).toMatchObject({ clean: true, structuredPropertyMappingCleanup: true });
  });

  it('system-update refuses the empty ROOT_USER_PASSWORD the Kubernetes secret shipped, naming it', () => {
    expect(() => readSystemUpdateConfig({ ROOT_USER_PASSWORD: '' }, [])).toThrow(
      /ROOT_USER_PASSWORD is set but empty/,
    );
    expect(readSystemUpdateConfig({}, []).rootPassword).toBe('datahub');
  });

  it('system-update in production refuses the default or a placeholder root password', () => {
    const production = { CATALOG_ENVIRONMENT: 'production' };
    expect(() => readSystemUpdateConfig(production, [])).toThrow(
      /ROOT_USER_PASSWORD is at its published default/,
    );
    expect(() => readSystemUpdateConfig({ ...production, ROOT_USER_PASSWORD: 'REPLACE_ME' }, [])).toThrow(
      /ROOT_USER_PASSWORD is still a placeholder/,
    );
    expect(
      readSystemUpdateConfig({ ...production, ROOT_USER_PASSWORD: 'a root password' }, []).rootPassword,
    ).toBe('a root password');
  });

  it('refuses a switch that is not a boolean, naming it', () => {
    expect(() => readSystemUpdateConfig({ ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: 'maybe' }, [])).toThrow(
      /ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE/,
    );
  });
});
