import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest, RequestContext } from '@catalog/auth';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import type { PipelineOperationsDeps } from './pipeline-operations.js';
import { flattenConfiguration, REDACTED, SystemInfo } from './system-info.js';

const ADMIN = 'urn:li:corpuser:admin';
const ctx = (actor: string): RequestContext => ({
  authentication: {
    actorUrn: actor,
    actorId: actor.split(':')[3]!,
    method: 'session-token',
    isSystem: false,
  },
  origin: { sourceIp: '127.0.0.1', userAgent: 'test', eventSource: 'OPENAPI', traceId: '0'.repeat(32) },
});

/** Only ADMIN holds MANAGE_SYSTEM_OPERATIONS; REST authorization is off, which must not matter here. */
const policy = new AccessPolicy({
  settings: { restApiAuthorization: false },
  authorizer: { isAllowed: async (r: AuthorizationRequest) => r.actorUrn === ADMIN },
} as unknown as GatewayAuth);

const operations = (lagFails = false): PipelineOperationsDeps =>
  ({
    log: {
      lag: async () => {
        if (lagFails) throw new Error('broker unreachable');
        return [{ partition: 0, offset: 5n, lag: 2 }];
      },
      consume: async () => [],
      endOffsets: async () => [],
    },
    topics: {
      metadataChangeProposal: 'MCP',
      metadataChangeLogVersioned: 'MCL',
      metadataChangeLogTimeseries: 'MCLT',
    },
    groups: { persistence: 'persistence-group', indexer: 'indexer-group', audit: 'audit-group' },
    transport: 'embedded',
  }) as unknown as PipelineOperationsDeps;

const configuration = flattenConfiguration({
  http: {
    maxBodyBytes: 1024,
    corsAllowedOrigins: ['https://a.example', 'https://b.example'],
    graphql: { maxDepth: 9 },
  },
  auth: { tokenSigningKey: 'shh', systemClientSecret: 'psst' },
});

describe('system information', () => {
  it('flattens the configuration to dotted names, lists joined', () => {
    expect(configuration).toEqual({
      'http.maxBodyBytes': 1024,
      'http.corsAllowedOrigins': 'https://a.example,https://b.example',
      'http.graphql.maxDepth': 9,
      'auth.tokenSigningKey': 'shh',
      'auth.systemClientSecret': 'psst',
    });
  });

  it('lists the components with their status, the consumers with their group and lag', async () => {
    const info = new SystemInfo({ operations: operations(), version: 'v1.0.1', configuration }, policy);
    const components = await info.components(ctx(ADMIN));
    expect(components.gms).toMatchObject({ name: 'GMS', status: 'AVAILABLE', version: 'v1.0.1' });
    expect(components.maeConsumer).toMatchObject({
      name: 'MAE Consumer',
      status: 'AVAILABLE',
      properties: { consumerGroup: 'indexer-group', topics: 'MCL,MCLT', totalLag: 4 },
    });
    expect(components.mceConsumer.properties).toMatchObject({ consumerGroup: 'persistence-group' });
    const broken = new SystemInfo({ operations: operations(true), version: 'v1.0.1', configuration }, policy);
    expect((await broken.components(ctx(ADMIN))).mceConsumer).toEqual({
      name: 'MCE Consumer',
      status: 'ERROR',
      errorMessage: 'broker unreachable',
    });
  });

  it('redacts the values of sensitive names and counts them', async () => {
    const info = new SystemInfo({ operations: operations(), version: 'v1', configuration }, policy);
    const simple = await info.simpleProperties(ctx(ADMIN));
    expect(simple['auth.tokenSigningKey']).toBe(REDACTED);
    expect(simple['auth.systemClientSecret']).toBe(REDACTED);
    expect(simple['http.maxBodyBytes']).toBe(1024);
    expect(JSON.stringify(await info.components(ctx(ADMIN)))).not.toContain('psst');
    const detailed = await info.properties(ctx(ADMIN));
    expect(detailed.totalProperties).toBe(5);
    expect(detailed.redactedProperties).toBe(2);
    expect(detailed.properties['http.graphql.maxDepth']).toMatchObject({
      key: 'http.graphql.maxDepth',
      value: 9,
    });
  });

  it('refuses anyone without MANAGE_SYSTEM_OPERATIONS, REST authorization on or off', async () => {
    const info = new SystemInfo({ operations: operations(), version: 'v1', configuration }, policy);
    const reader = ctx('urn:li:corpuser:reader');
    await expect(info.components(reader)).rejects.toThrow(/not authorized for system operations/);
    await expect(info.properties(reader)).rejects.toThrow(/not authorized/);
    await expect(info.simpleProperties(reader)).rejects.toThrow(/not authorized/);
  });
});
