import { randomUUID } from 'node:crypto';
import { eventLogContract, isSkipped, kafkaForTests } from '@catalog/testkit';
import { describe } from 'vitest';
import { openKafkaEventLog } from './kafka-event-log.js';

const kafka = await kafkaForTests();
const skip = isSkipped(kafka) ? kafka.skip : undefined;
if (skip) console.warn(`[kafka-event-log.int] skipped: ${skip}`);

describe.skipIf(skip !== undefined)(`Kafka event log${skip ? ` (skipped: ${skip})` : ''}`, () => {
  if (isSkipped(kafka)) return;
  // Topics and groups get random names inside the contract; the client id marks this file's connections.
  const clientId = `kafka-event-log-int-${randomUUID().slice(0, 8)}`;
  eventLogContract('kafka (kafkajs)', async () => {
    const log = await openKafkaEventLog({
      brokers: kafka.brokers,
      clientId,
      partitions: 1,
      replicationFactor: 1,
      retryInitialMs: 20,
      kafkaLogLevel: 'nothing',
    });
    return { log, cleanup: () => log.close() };
  });
});
