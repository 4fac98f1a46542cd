import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@catalog/runtime';

/** A pino logger at `level` whose lines the test can read back, parsed or (`raw`) as written. */
export function capturingLogger(
  level: string,
  name = 'test',
): { logger: Logger; lines: () => Record<string, unknown>[]; raw: () => readonly string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ name, level, destination });
  return {
    logger,
    lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    raw: () => [...lines],
  };
}
