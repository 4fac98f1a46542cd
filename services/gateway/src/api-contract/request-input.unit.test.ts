import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { entityRegistry, ValidationError } from '@catalog/model';
import { CROSS_ENTITY_OPERATIONS, entityOperations } from '../openapi/entity-api/entity-operations.js';
import { requestValidator } from './catalog-validator.js';

const dataset = entityRegistry.requireEntity('dataset');
const ops = entityOperations(dataset);
const request = (query: Record<string, unknown>, body?: unknown) => ({ query, body }) as unknown as Request;
const problemOf = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a problem');
};

describe('RequestValidator', () => {
  it('coerces query values to their schema types and fills in the defaults', () => {
    const { query } = requestValidator.input(ops.scroll, request({ count: '25', includeSoftDelete: 'True' }));
    expect(query).toMatchObject({ count: 25, includeSoftDelete: true, systemMetadata: false, query: '*' });
    expect(query['sortOrder']).toBe('ASCENDING');
  });

  it('takes array parameters repeated or comma-separated, and ignores unknown parameters', () => {
    const { query } = requestValidator.input(
      ops.scroll,
      request({ aspects: ['status,globalTags', 'ownership'], createEntityIfNotExists: 'true' }),
    );
    expect(query['aspects']).toEqual(['status', 'globalTags', 'ownership']);
    expect(query).not.toHaveProperty('createEntityIfNotExists');
  });

  it('reads a scalar parameter given twice as the first value (booleans, integers) or the joined values (strings)', () => {
    const { query } = requestValidator.input(
      ops.scroll,
      request({ systemMetadata: ['true', 'false'], count: ['3', '9'], query: ['a', 'b'] }),
    );
    expect(query).toMatchObject({ systemMetadata: true, count: 3, query: 'a,b' });
  });

  it('names the parameter and the value it refuses', () => {
    const error = problemOf(() => requestValidator.input(ops.scroll, request({ systemMetadata: 'yes' })));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('Query parameter systemMetadata must be a boolean (true or false), got "yes"');
    expect(problemOf(() => requestValidator.input(ops.scroll, request({ count: '1.5' }))).message).toBe(
      'Query parameter count must be an integer, got "1.5"',
    );
    expect(problemOf(() => requestValidator.input(ops.scroll, request({ sortOrder: 'UP' }))).message).toMatch(
      /sortOrder must be one of ASCENDING, DESCENDING/,
    );
  });

  it('words body problems as the ecosystem does: missing urn, missing patch', () => {
    expect(
      problemOf(() => requestValidator.input(ops.batchUpsert, request({}, [{ status: { value: {} } }])))
        .message,
    ).toBe('Missing `urn` field');
    expect(
      problemOf(() =>
        requestValidator.input(ops.batchPatch, request({}, [{ urn: 'urn:li:x', status: { value: {} } }])),
      ).message,
    ).toBe('Missing `patch` field.');
  });

  it('accepts aspect keys in their lower-case spelling and any JSON object as a value', () => {
    expect(() =>
      requestValidator.input(
        ops.batchUpsert,
        request({}, [
          { urn: 'urn:li:x', globaltags: { value: { tags: [] } }, status: { value: { removed: 1 } } },
        ]),
      ),
    ).not.toThrow();
  });

  it('refuses a generic body whose value for an entity is not a list', () => {
    const error = problemOf(() =>
      requestValidator.input(CROSS_ENTITY_OPERATIONS.genericUpsert, request({}, { dataset: {} })),
    );
    expect(error.message).toBe("Value of property 'dataset' must be an array");
  });

  it('requires a body where the operation does', () => {
    expect(problemOf(() => requestValidator.input(ops.batchUpsert, request({}))).message).toBe(
      'The request needs a JSON body',
    );
    expect(requestValidator.input(CROSS_ENTITY_OPERATIONS.scroll, request({})).body).toBeUndefined();
  });
});
