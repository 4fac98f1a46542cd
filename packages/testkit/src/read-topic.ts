import { randomUUID } from 'node:crypto';
import type { EventLog, LogRecord } from '@catalog/events';

/**
 * Reads a topic from its start, in a throwaway group, until `count` records have arrived (then a short
 * settle, so that more than `count` shows) or `timeoutMs` passed; returns what arrived.
 */
export async function readTopic(
  log: EventLog,
  topic: string,
  count: number,
  timeoutMs = 20_000,
): Promise<LogRecord[]> {
  await log.ensureTopics([{ name: topic }]);
  const records: LogRecord[] = [];
  const consumer = await log.consume({
    groupId: `read-topic-${randomUUID()}`,
    topics: [topic],
    fromBeginning: true,
    handler: async (batch) => {
      records.push(...batch.records);
    },
  });
  try {
    await consumer.ready;
    const deadline = Date.now() + timeoutMs;
    while (records.length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await consumer.stop();
  }
  return records;
}
