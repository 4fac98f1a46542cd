import { describe, expect, it } from 'vitest';
import { serverConfig } from '../../server-config.js';
import { appConfigOf } from './app-config.js';

describe('appConfig', () => {
  it('answers from the server configuration GET /config serves', () => {
    expect(appConfigOf(serverConfig('v1.2.3'))).toEqual({
      appVersion: 'v1.2.3',
      telemetryConfig: { enableThirdPartyLogging: false },
      lineageConfig: { supportsImpactAnalysis: false },
      managedIngestionConfig: { enabled: false },
    });
  });

  it('follows the configuration when it says otherwise', () => {
    const config = {
      ...serverConfig('v2'),
      supportsImpactAnalysis: true,
      telemetry: { enabledCli: true },
      managedIngestion: { enabled: true },
    };
    expect(appConfigOf(config)).toMatchObject({
      telemetryConfig: { enableThirdPartyLogging: true },
      lineageConfig: { supportsImpactAnalysis: true },
      managedIngestionConfig: { enabled: true },
    });
  });
});
