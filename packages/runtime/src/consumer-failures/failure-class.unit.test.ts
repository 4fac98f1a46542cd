import { RecordTooLargeError, SerdeError } from '@catalog/events';
import { SchemaValidationError, UnavailableError, ValidationError } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { classifyFailure, UnprocessableRecordError } from './failure-class.js';

const classOf = (error: unknown) => classifyFailure(error).failureClass;

describe('classifyFailure', () => {
  it('calls a dependency that is down or slow transient', () => {
    expect(classOf(new UnavailableError('aspect store unavailable'))).toBe('transient');
    expect(classOf(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe('transient');
    expect(classOf(Object.assign(new Error('x'), { name: 'MongoServerSelectionError' }))).toBe('transient');
    expect(classOf(Object.assign(new Error('x'), { name: 'ConnectionError' }))).toBe('transient');
    expect(classOf(Object.assign(new Error('x'), { retriable: true }))).toBe('transient');
    expect(classOf(Object.assign(new Error('x'), { meta: { statusCode: 503 } }))).toBe('transient');
    expect(classOf(Object.assign(new Error('x'), { statusCode: 429 }))).toBe('transient');
    expect(classOf(new Error('wrapped', { cause: new UnavailableError('down') }))).toBe('transient');
  });

  it('calls a record that can never be applied deterministic', () => {
    expect(classOf(new ValidationError('bad'))).toBe('deterministic');
    expect(classOf(new SchemaValidationError('bad', []))).toBe('deterministic');
    expect(classOf(new SerdeError('truncated', 'short'))).toBe('deterministic');
    expect(classOf(new RecordTooLargeError('t', 10, 5))).toBe('deterministic');
    expect(classOf(new UnprocessableRecordError('not an event'))).toBe('deterministic');
    expect(classOf(Object.assign(new Error('x'), { type: 'MESSAGE_TOO_LARGE' }))).toBe('deterministic');
    // A bulk write whose failed items the engine refused as malformed (mapping conflict, keyword too long).
    expect(classOf(Object.assign(new Error('bulk'), { failures: [{ status: 400 }, { status: 400 }] }))).toBe(
      'deterministic',
    );
  });

  it('calls a bulk write with any item refused for load transient, and anything else unknown', () => {
    expect(classOf(Object.assign(new Error('bulk'), { failures: [{ status: 400 }, { status: 429 }] }))).toBe(
      'transient',
    );
    expect(classOf(new Error('something odd'))).toBe('unknown');
    expect(classOf(new TypeError('cannot read properties of undefined'))).toBe('unknown');
    expect(classOf('a string')).toBe('unknown');
    expect(classifyFailure(new ValidationError('bad')).reason).toBe('ValidationError: bad');
  });
});
