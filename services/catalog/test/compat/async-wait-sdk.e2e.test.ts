import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's OpenAPI emitter with EmitMode.ASYNC_WAIT, unchanged: it writes asynchronously, then
 * polls the write trace (`POST /openapi/v1/trace/write/{traceId}`) until nothing is pending, so a write
 * it returns from is stored and searchable, and one persistence refused raises TraceValidationError.
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface Report {
  openapi: boolean;
  supported: boolean;
  batchDescription: string | null;
  batchStatus: boolean;
  batchSearched: boolean;
  singleTags: string[];
  refused: { error: string; message: string } | null;
  refusedStored: boolean;
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK's ASYNC_WAIT on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK's OpenAPI emitter with ASYNC_WAIT on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;
    const run = Math.random().toString(36).slice(2, 8);

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport<Report>(found.python, 'async_wait_sdk.py', [catalog.baseUrl, run]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('the emitter finds ASYNC_WAIT supported by the server (OpenAPI mode, API tracing)', () => {
      expect(report.openapi).toBe(true);
      expect(report.supported).toBe(true);
    });

    it('a batch and a single aspect emitted with ASYNC_WAIT are stored and searchable when the call returns', () => {
      expect(report.batchDescription).toBe('written with ASYNC_WAIT');
      expect(report.batchStatus).toBe(true);
      expect(report.batchSearched).toBe(true);
      expect(report.singleTags).toEqual([`urn:li:tag:async_wait_${run}`]);
    });

    it('a write persistence refuses raises TraceValidationError with the reason, and nothing is stored', () => {
      expect(report.refused?.error).toBe('TraceValidationError');
      expect(report.refused?.message).toContain('Expected version -10000, actual version -1');
      expect(report.refusedStored).toBe(false);
    });
  });
}
