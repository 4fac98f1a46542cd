import { UnavailableError } from '@catalog/model';
import { MongoBulkWriteError, MongoNetworkError, type BulkWriteResult, type WriteError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { classifyMongoError, duplicateKeyIndexes } from './mongo-errors.js';

const result = {} as BulkWriteResult;

/** What the driver throws when an unordered bulk write loses its connection (checked on FerretDB). */
function connectionClosedInBulk(): MongoBulkWriteError {
  const cause = new MongoNetworkError('connection 8 to 127.0.0.1:27017 closed', { beforeHandshake: false });
  cause.addErrorLabel('ResetPool');
  return new MongoBulkWriteError(cause, result);
}

function refusedByServer(codes: readonly number[]): MongoBulkWriteError {
  const writeErrors = codes.map(
    (code, index) => ({ code, index, errmsg: `code ${code}` }) as unknown as WriteError,
  );
  return new MongoBulkWriteError({ message: 'bulk refused', code: codes[0] ?? 0, writeErrors }, result);
}

describe('duplicateKeyIndexes', () => {
  it('gives the positions the server refused as duplicate keys', () => {
    const error = refusedByServer([11000, 11000]);
    (error.writeErrors as WriteError[])[1] = { code: 11000, index: 3 } as unknown as WriteError;
    expect([...duplicateKeyIndexes(error)]).toEqual([0, 3]);
  });

  it('rethrows a bulk write the driver failed (a closed connection) instead of reading it as no duplicates', () => {
    const error = connectionClosedInBulk();
    expect(error.writeErrors).toEqual([]);
    expect(() => duplicateKeyIndexes(error)).toThrow(error);
  });

  it('rethrows when any refusal is not a duplicate key', () => {
    expect(() => duplicateKeyIndexes(refusedByServer([11000, 2]))).toThrow('bulk refused');
  });

  it('rethrows what is not a bulk write error', () => {
    const error = new Error('boom');
    expect(() => duplicateKeyIndexes(error)).toThrow(error);
  });
});

describe('classifyMongoError', () => {
  it('makes a connection lost inside a bulk write an outage of the store', () => {
    const classified = classifyMongoError(connectionClosedInBulk(), 'applyBatch');
    expect(classified).toBeInstanceOf(UnavailableError);
    expect((classified as Error).message).toContain('connection 8');
  });

  it('leaves a refusal by the server as it is', () => {
    const error = refusedByServer([2]);
    expect(classifyMongoError(error, 'applyBatch')).toBe(error);
  });
});
