import { logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { EventLogLogger } from '../event-log-logger.js';
import { kafkaLogCreator } from './kafka-logger.js';

function recordingLogger(): { logger: EventLogLogger; lines: Array<[string, unknown, string]> } {
  const lines: Array<[string, unknown, string]> = [];
  const at =
    (level: string) =>
    (context: object, message: string): void => {
      lines.push([level, context, message]);
    };
  return {
    lines,
    logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') },
  };
}

describe('kafkaLogCreator', () => {
  it('passes kafkajs lines on at their level with the namespace and fields as context', () => {
    const { logger, lines } = recordingLogger();
    const log = kafkaLogCreator(logger)(logLevel.INFO);
    log({
      namespace: 'Consumer',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: { message: 'Crash: boom', timestamp: 'now', groupId: 'indexer' },
    });
    expect(lines).toEqual([['error', { kafkajs: 'Consumer', groupId: 'indexer' }, 'Crash: boom']]);
  });

  it('logs a broker error response at debug, since the caller gets the same error and handles it', () => {
    const { logger, lines } = recordingLogger();
    const log = kafkaLogCreator(logger)(logLevel.INFO);
    log({
      namespace: 'Connection',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: {
        message: 'Response CreateTopics(key: 19, version: 3)',
        timestamp: 'now',
        error: 'Topic creation errors',
      },
    });
    expect(lines.map(([level]) => level)).toEqual(['debug']);
  });
});
