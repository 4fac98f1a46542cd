import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, sdkPython } from './kafka-emitter-python.js';

/**
 * The OpenLineage Python client (openlineage-python, pinned in infra/local/python-sdk.sh) emitting a
 * small pipeline's events to the receiver, then the lineage read back through GraphQL and the SDK.
 */
const run = promisify(execFile);

async function pythonWithOpenLineage(): Promise<{ python: string } | { skip: string }> {
  const found = sdkPython();
  if (found.skip !== undefined) return { skip: found.skip };
  try {
    await run(found.python, ['-c', 'import openlineage.client.transport.http'], { timeout: 60_000 });
    return { python: found.python };
  } catch {
    return { skip: `${found.python} lacks openlineage-python: run infra/local/python-sdk.sh` };
  }
}

const found = await pythonWithOpenLineage();
const skip = skipUnlessCi('skip' in found ? found.skip : undefined);
if (skip) console.warn(`skipping the OpenLineage client suite: ${skip}`);

type Pair = [string, number | string];
interface Report {
  expected: { source: string; target: string; job: string };
  refused: number | string | null;
  downstream: Pair[];
  upstream: [string, string][];
  inputEdges: string[] | null;
  outputEdges: string[] | null;
  fineGrained: [string[], string[]][] | null;
  targetUpstreamLineage: boolean;
  sourceFields: string[] | null;
  runStates: [string, string | null][];
}

describe.skipIf(skip !== undefined)('the OpenLineage Python client against the receiver', () => {
  let catalog: TestCatalog;
  let report: Report;

  beforeAll(async () => {
    if ('skip' in found) return;
    catalog = await startTestCatalog();
    report = await pythonReport(found.python, 'openlineage_client.py', [
      catalog.baseUrl,
      Math.random().toString(36).slice(2, 8),
    ]);
  }, 300_000);
  afterAll(async () => catalog?.dispose());

  it('sends START and COMPLETE that become the job lineage GraphQL walks: the job, then the target', () => {
    const { job, target } = report.expected;
    expect(report.downstream).toEqual([
      [job, 1],
      [target, 2],
    ]);
    expect(report.upstream).toEqual([['Produces', job]]);
  });

  it('gives the SDK the job inputs, outputs and column lineage in dataJobInputOutput, none on the dataset', () => {
    const { source, target } = report.expected;
    expect(report.inputEdges).toEqual([source]);
    expect(report.outputEdges).toEqual([target]);
    const field = (dataset: string, name: string) => `urn:li:schemaField:(${dataset},${name})`;
    expect(report.fineGrained).toEqual([
      [[field(source, 'customer')], [field(target, 'customer')]],
      [[field(source, 'id')], [field(target, 'orders')]],
    ]);
    expect(report.targetUpstreamLineage).toBe(false);
  });

  it('records the schema facet as the dataset schema and each run state as a run event', () => {
    expect(report.sourceFields).toEqual(['id', 'customer']);
    expect(report.runStates).toEqual([
      ['COMPLETE', 'SUCCESS'],
      ['STARTED', null],
    ]);
  });

  it('refuses the client with a bad token with 401', () => {
    expect(report.refused).toBe(401);
  });
});
