import { PassThrough, Writable } from 'node:stream';
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

/** The lines a logger writes, parsed. */
function capture(): { logger: ReturnType<typeof createLogger>; lines: () => Record<string, unknown>[] } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const logger = createLogger({ name: 'test', level: 'info', destination: stream });
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('log redaction', () => {
  it('never writes a restricted aspect field of an object logged beside its urn', () => {
    const { logger, lines } = capture();
    logger.warn(
      {
        urn: 'urn:li:corpuser:jdoe',
        value: { salt: 'MARK-salt', hashedPassword: 'MARK-hash', passwordResetToken: 'MARK-reset' },
        request: { resetToken: 'MARK-token', inviteToken: 'MARK-invite', password: 'MARK-password' },
        connection: { encryptedBlob: 'MARK-blob' },
      },
      'proposal rejected',
    );
    const [line] = lines();
    expect(line?.['urn']).toBe('urn:li:corpuser:jdoe');
    expect(line?.['value']).toEqual({
      salt: '[redacted]',
      hashedPassword: '[redacted]',
      passwordResetToken: '[redacted]',
    });
    expect(JSON.stringify(line)).not.toMatch(/MARK-(salt|hash|reset|token|invite|password|blob)/);
  });
});
