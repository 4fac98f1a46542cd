import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import { MAX_TEST_BATCH, type TestEvaluation } from '../application/test-evaluation.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';
import { WAIT_FOR_INDEX_HEADER } from './ingest-proposal.js';
import { sendJson } from './send-json.js';

/** `tests` (the code's name) or `testUrns` (the docs'); undefined when neither is given. */
function testUrnsOf(body: ActionBody): string[] | undefined {
  const raw = body.raw('tests') ?? body.raw('testUrns');
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((u) => typeof u !== 'string'))
    throw new ValidationError('tests (testUrns) must be an array of test urns');
  return raw as string[];
}

function pushOf(body: ActionBody): boolean {
  const raw = body.raw('push') ?? body.raw('shouldPush');
  if (raw === undefined || raw === null) return false;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new ValidationError(`push must be a boolean, got ${JSON.stringify(raw)}`);
}

function optionsOf(req: Request, body: ActionBody) {
  const testUrns = testUrnsOf(body);
  return {
    ...(testUrns === undefined ? {} : { testUrns }),
    push: pushOf(body),
    waitIndex: req.get(WAIT_FOR_INDEX_HEADER) === 'true',
  };
}

/** `POST /test?action=evaluate {urn, tests?|testUrns?, push?}` → `{value: {passing, failing}}`. */
export async function evaluateAction(req: Request, res: Response, tests: TestEvaluation): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.requiredString('urn');
  const results = await tests.evaluate(requestContextOf(res), { urns: [urn], ...optionsOf(req, body) });
  sendJson(res, { value: results.get(urn) });
}

/** `POST /test?action=batchEvaluate {urns, tests?|testUrns?, push?}` → `{value: {results: {<urn>: …}}}`. */
export async function batchEvaluateAction(req: Request, res: Response, tests: TestEvaluation): Promise<void> {
  const body = ActionBody.of(req);
  const urns = body.raw('urns');
  if (!Array.isArray(urns) || urns.some((u) => typeof u !== 'string' || u === ''))
    throw new ValidationError('urns is required (an array of entity urns)');
  if (urns.length > MAX_TEST_BATCH)
    throw new ValidationError(`urns has ${urns.length} items; the maximum is ${MAX_TEST_BATCH}`);
  const results = await tests.evaluate(requestContextOf(res), {
    urns: urns as string[],
    ...optionsOf(req, body),
  });
  sendJson(res, { value: { results: Object.fromEntries(results) } });
}
