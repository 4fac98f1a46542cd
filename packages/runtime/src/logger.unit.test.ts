import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { childLogger, createLogger } from './logger.js';

function captured(level = 'info') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ name: 'catalog', level, destination }), lines };
}

describe('childLogger', () => {
  it('binds a key the parent already binds once, with the new value (no duplicate key in the line)', () => {
    const { logger, lines } = captured();
    childLogger(childLogger(logger, { component: 'gateway' }), { component: 'auth' }).info('x');
    expect(lines[0]).toMatch(
      /^\{"level":30,"time":"[^"]+","service":"catalog","name":"catalog","component":"auth","msg":"x"\}$/,
    );
  });

  it("keeps the parent's other bindings, including those a plain pino child added", () => {
    const { logger, lines } = captured();
    const part = logger.child({ component: 'indexer' }).child({ worker: 'w', module: 'search' });
    childLogger(part, { module: 'event-log' }).info('x');
    expect(JSON.parse(lines[0]!)).toMatchObject({ component: 'indexer', worker: 'w', module: 'event-log' });
    expect(lines[0]!.match(/"module"/g)).toHaveLength(1);
  });

  it("keeps a parent's own level", () => {
    const { logger, lines } = captured('info');
    const quiet = childLogger(logger, { component: 'a' });
    quiet.level = 'warn';
    const child = childLogger(quiet, { component: 'b' });
    child.info('dropped');
    child.warn('kept');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['kept']);
  });
});
