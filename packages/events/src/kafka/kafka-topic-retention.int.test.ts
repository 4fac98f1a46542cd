import { randomUUID } from 'node:crypto';
import { isSkipped, kafkaForTests } from '@catalog/testkit';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { openKafkaEventLog } from './kafka-event-log.js';

const kafka = await kafkaForTests();
const skip = isSkipped(kafka) ? kafka.skip : undefined;
if (skip) console.warn(`[kafka-topic-retention.int] skipped: ${skip}`);

describe.skipIf(skip !== undefined)('Kafka topic retention', () => {
  if (isSkipped(kafka)) return;

  it('creates topics with the TopicSpec retention as retention.ms and retention.bytes (per partition)', async () => {
    const log = await openKafkaEventLog({
      brokers: kafka.brokers,
      clientId: `kafka-topic-retention-${randomUUID().slice(0, 8)}`,
      partitions: 2,
      replicationFactor: 1,
      kafkaLogLevel: 'nothing',
    });
    const admin = new Kafka({ brokers: [...kafka.brokers], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const topic = `retention-${randomUUID()}`;
      await log.ensureTopics([{ name: topic, retentionMs: 3_600_000, retentionBytes: 10_485_760 }]);
      const described = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [
          {
            type: ConfigResourceTypes.TOPIC,
            name: topic,
            configNames: ['retention.ms', 'retention.bytes'],
          },
        ],
      });
      const entries = described.resources[0]?.configEntries ?? [];
      expect(Object.fromEntries(entries.map((e) => [e.configName, e.configValue]))).toEqual({
        'retention.ms': '3600000',
        'retention.bytes': '10485760',
      });
      await admin.deleteTopics({ topics: [topic] });
    } finally {
      await admin.disconnect();
      await log.close();
    }
  });
});
