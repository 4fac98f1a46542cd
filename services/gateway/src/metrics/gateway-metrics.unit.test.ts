import { describe, expect, it } from 'vitest';
import { ActiveIdentities } from './active-identities.js';
import { GatewayMetrics } from './gateway-metrics.js';
import { timedPort } from './timed-port.js';

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('the gateway metrics', () => {
  it('counts usage and bytes by label, and the distinct active identities per actor class', async () => {
    const metrics = new GatewayMetrics({ messagingSystem: 'embedded', lag: async () => [] });
    const base = {
      api: 'graphql' as const,
      operation: 'metadata_query' as const,
      actorClass: 'regular' as const,
      agentClass: 'sdk',
      authChannel: 'pat',
    };
    metrics.recordUsage({ ...base, actorUrn: 'urn:li:corpuser:a', inputBytes: 10, outputBytes: 100 });
    metrics.recordUsage({ ...base, actorUrn: 'urn:li:corpuser:a', inputBytes: 5, outputBytes: 50 });
    metrics.recordUsage({ ...base, actorUrn: 'urn:li:corpuser:b' });
    const { body, contentType } = await metrics.scrape();
    expect(contentType).toContain('text/plain');
    const labels = {
      usage_operation: 'metadata_query',
      actor_class: 'regular',
      request_api: 'graphql',
      auth_channel: 'pat',
      agent_class: 'sdk',
    };
    expect(sample(body, 'datahub_request_count_total', labels)).toBe(3);
    expect(sample(body, 'datahub_usage_input_bytes_total', labels)).toBe(15);
    expect(sample(body, 'datahub_usage_output_bytes_total', labels)).toBe(150);
    expect(
      sample(body, 'datahub_usage_active_identities', {
        identity_metric: 'active_users',
        actor_class: 'regular',
      }),
    ).toBe(2);
    expect(
      sample(body, 'datahub_usage_active_identities', {
        identity_metric: 'active_readers',
        actor_class: 'regular',
      }),
    ).toBe(2);
    expect(
      sample(body, 'datahub_usage_active_identities', {
        identity_metric: 'active_writers',
        actor_class: 'regular',
      }),
    ).toBeUndefined();
    expect(sample(body, 'process_resident_memory_bytes', {})).toBeGreaterThan(0);
  });

  it('reports request latency by route and the consumer lag read at scrape time', async () => {
    let lag = 4;
    const metrics = new GatewayMetrics({
      messagingSystem: 'kafka',
      lag: async () => [
        {
          consumerGroup: 'generic-mce-consumer-job-client',
          groupId: 'persistence',
          topic: 'MetadataChangeProposal_v1',
          lag,
        },
      ],
      threads: async () => [{ thread: 'indexer', heapUsed: 1234 }],
    });
    metrics.observeRequest('GET', '/openapi/v3/entity/{type}', 200, 0.02);
    metrics.observeRequest('GET', '/openapi/v3/entity/{type}', 200, 0.04);
    metrics.observeRequest('POST', 'NOT_FOUND', 404, 0.001);
    let { body } = await metrics.scrape();
    expect(
      sample(body, 'http_server_requests_seconds_count', {
        uri: '/openapi/v3/entity/{type}',
        status: '200',
        outcome: 'SUCCESS',
      }),
    ).toBe(2);
    expect(
      sample(body, 'http_server_requests_seconds_sum', { uri: '/openapi/v3/entity/{type}' }),
    ).toBeCloseTo(0.06);
    expect(
      sample(body, 'http_server_requests_seconds_count', { uri: 'NOT_FOUND', outcome: 'CLIENT_ERROR' }),
    ).toBe(1);
    const lagLabels = {
      messaging_system: 'kafka',
      consumer_group: 'generic-mce-consumer-job-client',
      group_id: 'persistence',
      topic: 'MetadataChangeProposal_v1',
    };
    expect(sample(body, 'messaging_consumer_lag_records', lagLabels)).toBe(4);
    expect(sample(body, 'nodejs_thread_heap_used_bytes', { thread: 'indexer' })).toBe(1234);
    lag = 0;
    ({ body } = await metrics.scrape());
    expect(sample(body, 'messaging_consumer_lag_records', lagLabels)).toBe(0);
  });

  it('times the calls of a port by operation and outcome, leaving results and errors as they were', async () => {
    const seen: string[] = [];
    class Port {
      #secret = 2;
      get doubled(): number {
        return this.#secret * 2;
      }
      async read(x: number): Promise<number> {
        return x * this.#secret;
      }
      async fail(): Promise<void> {
        throw new Error('boom');
      }
      name(): string {
        return 'port';
      }
    }
    const port = timedPort(new Port(), (operation) => ({
      success: () => seen.push(`${operation}:success`),
      error: () => seen.push(`${operation}:error`),
    }));
    expect(await port.read(3)).toBe(6);
    await expect(port.fail()).rejects.toThrow('boom');
    expect(port.name()).toBe('port');
    expect(port.doubled).toBe(4);
    expect(seen).toEqual(['read:success', 'fail:error']);
  });

  it('times the methods of a plain object port too, each call with the port as this', async () => {
    const seen: string[] = [];
    const port = {
      factor: 3,
      async times(x: number): Promise<number> {
        return x * this.factor;
      },
    };
    const timed = timedPort(port, (operation) => ({
      success: (seconds) => seen.push(`${operation}:${seconds >= 0 ? 'timed' : 'negative'}`),
      error: () => seen.push(`${operation}:error`),
    }));
    expect(await timed.times(2)).toBe(6);
    port.factor = 4;
    expect(timed.factor).toBe(4);
    expect(seen).toEqual(['times:timed']);
  });

  it('forgets an identity once its window has passed', () => {
    let now = 0;
    const identities = new ActiveIdentities(1000, () => now);
    identities.record('a', 'regular', ['active_users']);
    now = 500;
    identities.record('b', 'regular', ['active_users']);
    expect(identities.counts()).toEqual([{ metric: 'active_users', actorClass: 'regular', count: 2 }]);
    now = 1200;
    expect(identities.counts()).toEqual([{ metric: 'active_users', actorClass: 'regular', count: 1 }]);
    now = 5000;
    expect(identities.counts()).toEqual([{ metric: 'active_users', actorClass: 'regular', count: 0 }]);
  });
});
