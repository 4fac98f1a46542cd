import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

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
