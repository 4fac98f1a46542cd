import { describe, expect, it } from 'vitest';
import { defaultTopicNames, type EventLog, type PartitionLag } from '@catalog/events';
import { consumerLag } from './consumer-lag.js';

const groups = { persistence: 'persistence', indexer: 'indexer', audit: 'audit' };

/** A log whose every group is `lag` records behind on one partition. */
function logBehindBy(lag: number): EventLog {
  const partition: PartitionLag = { partition: 0, offset: '10', endOffset: String(10 + lag), lag };
  return {
    lag: async () => [partition],
    ensureTopics: async () => undefined,
  } as unknown as EventLog;
}

async function answer(kind: string, query: Record<string, string> = {}): Promise<Record<string, unknown>> {
  return consumerLag(kind, query['detailed'] === 'true', {
    log: logBehindBy(3),
    topics: defaultTopicNames,
    groups,
  });
}

describe('the consumer-lag operation', () => {
  it("keeps the ecosystem's shape: consumerGroups → topic → metrics", async () => {
    const body = await answer('mcl');
    expect(body['consumerGroups']).toEqual({
      'generic-mae-consumer-job-client': {
        [defaultTopicNames.metadataChangeLogVersioned]: { metrics: { totalLag: 3, maxLag: 3 } },
      },
    });
    expect(body['deadLetters']).toMatchObject({ topic: 'DeadLetter_indexer_v1' });
  });

  it('names each group as the ecosystem names its counterpart, with our group id beside it', async () => {
    const expected: Record<string, [string, string]> = {
      mcp: ['generic-mce-consumer-job-client', 'persistence'],
      mcl: ['generic-mae-consumer-job-client', 'indexer'],
      'mcl-timeseries': ['generic-mae-consumer-job-client', 'indexer'],
      'usage-events': ['datahub-usage-event-consumer-job-client', 'audit'],
    };
    for (const [kind, [name, groupId]] of Object.entries(expected)) {
      const body = await answer(kind);
      expect(Object.keys(body['consumerGroups'] as object), kind).toEqual([name]);
      expect(body['groupIds'], kind).toEqual({ [name]: groupId });
    }
  });

  it('reports the memory of the process answering, each figure a positive number of bytes', async () => {
    for (const kind of ['mcp', 'mcl', 'mcl-timeseries', 'usage-events']) {
      const memory = (await answer(kind))['memory'] as Record<string, unknown> | undefined;
      expect(memory, kind).toBeDefined();
      for (const field of ['rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers']) {
        const value = memory![field];
        expect(
          typeof value === 'number' && Number.isSafeInteger(value) && value > 0,
          `${kind} ${field}`,
        ).toBe(true);
      }
    }
  });
});
