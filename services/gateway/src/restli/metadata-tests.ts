import type { Request, Response } from 'express';
import {
  cachedReader,
  checkProposal,
  entityPassesTest,
  isDomainError,
  NotFoundError,
  parseTestDefinition,
  parseUrn,
  testAppliesTo,
  ValidationError,
  type AspectReader,
  type TestDefinition,
} from '@catalog/model';
import { SYSTEM_ACTOR, type ProposalOutcome } from '@catalog/runtime';
import type { RequestOrigin } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { requireRest } from '../auth/rest-authorization.js';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import { ActionBody } from './action-body.js';
import { WAIT_FOR_INDEX_HEADER } from './ingest-proposal.js';
import { sendJson } from './send-json.js';

const TEST_INFO = 'testInfo';
const TEST_RESULTS = 'testResults';
const SCAN_PAGE = 500;
/** At most this many entities in one batchEvaluate. */
const MAX_BATCH = 100;

export interface TestResult {
  readonly test: string;
  readonly type: 'SUCCESS' | 'FAILURE';
}
export interface TestResults {
  readonly passing: readonly TestResult[];
  readonly failing: readonly TestResult[];
}

interface StoredTest {
  readonly urn: string;
  readonly definition: TestDefinition;
}

/** Every stored test whose definition parses (one that does not is skipped, as the ecosystem's cache does). */
export async function storedTests(store: AspectStore): Promise<StoredTest[]> {
  const tests: StoredTest[] = [];
  let after: string | undefined;
  do {
    const page = await store.scan({
      aspect: TEST_INFO,
      urnLike: 'urn:li:test:%',
      limit: SCAN_PAGE,
      ...(after === undefined ? {} : { after }),
    });
    for (const item of page.items) {
      const json = (item.value['definition'] as { json?: unknown } | undefined)?.json;
      try {
        tests.push({ urn: item.urn, definition: parseTestDefinition(json) });
      } catch (error) {
        if (!isDomainError(error)) throw error;
      }
    }
    after = page.next;
  } while (after !== undefined);
  return tests;
}

/** Reads aspects from the store (version 0), each once per evaluation. */
function storeReader(store: AspectStore): AspectReader {
  return cachedReader(async (urn, aspect) => (await store.get(urn, aspect))?.value);
}

/**
 * Runs the tests on an entity: the tests named (unknown ones skipped), else every stored test; each
 * only when it applies (the entity's type is in `on.types` and `on.conditions` hold).
 */
export async function evaluateEntity(
  store: AspectStore,
  urn: string,
  tests: readonly StoredTest[],
  testUrns: readonly string[] | undefined,
): Promise<TestResults> {
  const read = storeReader(store);
  const chosen = testUrns === undefined ? tests : tests.filter((t) => testUrns.includes(t.urn));
  const passing: TestResult[] = [];
  const failing: TestResult[] = [];
  for (const test of chosen) {
    if (!(await testAppliesTo(test.definition, urn, read))) continue;
    if (await entityPassesTest(test.definition, urn, read)) passing.push({ test: test.urn, type: 'SUCCESS' });
    else failing.push({ test: test.urn, type: 'FAILURE' });
  }
  return { passing, failing };
}

/**
 * The `testResults` to store: the new results alone when every test ran; with named tests, the stored
 * results of the other tests kept and those of the named ones replaced.
 */
export function mergedResults(
  stored: Readonly<Record<string, unknown>> | undefined,
  results: TestResults,
  testUrns: readonly string[] | undefined,
): TestResults {
  if (testUrns === undefined || stored === undefined) return results;
  const keep = (list: unknown) =>
    (Array.isArray(list) ? (list as TestResult[]) : []).filter((r) => !testUrns.includes(r.test));
  return {
    passing: [...keep(stored['passing']), ...results.passing],
    failing: [...keep(stored['failing']), ...results.failing],
  };
}

export interface MetadataTestDeps {
  readonly store: AspectStore;
  readonly submitter: ProposalSubmitter;
  readonly auth: GatewayAuth;
  readonly originOf: (res: Response) => RequestOrigin;
  readonly waitForIndex?: (outcomes: readonly ProposalOutcome[]) => Promise<void>;
}

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

function wantsIndexWait(req: Request): boolean {
  const value = req.get(WAIT_FOR_INDEX_HEADER);
  return value === 'true';
}

/** Who may run tests: MANAGE_TESTS or VIEW_TESTS; storing results needs MANAGE_TESTS. */
async function authorize(deps: MetadataTestDeps, res: Response, push: boolean): Promise<void> {
  await requireRest(deps.auth, res, {
    privileges: [push ? ['MANAGE_TESTS'] : ['MANAGE_TESTS', 'VIEW_TESTS']],
    message: push
      ? 'User is unauthorized to evaluate and push test results.'
      : 'User is unauthorized to evaluate tests.',
  });
}

/** A urn to evaluate: parsed (400 when malformed), and an entity that exists (404 otherwise). */
async function requireEntity(store: AspectStore, urn: string): Promise<void> {
  parseUrn(urn);
  if ((await store.getLatest(urn)).length === 0) throw new NotFoundError(`Entity ${urn} does not exist`);
}

/** Stores the results of each entity as its `testResults`, as the system actor, through the log. */
async function pushResults(
  deps: MetadataTestDeps,
  req: Request,
  res: Response,
  results: ReadonlyMap<string, TestResults>,
  testUrns: readonly string[] | undefined,
): Promise<void> {
  const stored =
    testUrns === undefined ? new Map() : await deps.store.getLatestMany([...results.keys()], [TEST_RESULTS]);
  const proposals = [...results].map(([urn, value]) => {
    const previous = stored.get(urn)?.find((a: { aspect: string }) => a.aspect === TEST_RESULTS)?.value;
    return checkProposal({
      entityType: parseUrn(urn).entityType,
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: TEST_RESULTS,
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify(mergedResults(previous, value, testUrns)),
      },
    });
  });
  if (proposals.length === 0) return;
  const outcomes = await deps.submitter.submit(proposals, {
    sync: true,
    actor: SYSTEM_ACTOR,
    origin: deps.originOf(res),
  });
  const failure = outcomes?.find((o) => !o.ok);
  if (failure) throw errorOfOutcome(failure);
  if (wantsIndexWait(req) && outcomes && deps.waitForIndex) await deps.waitForIndex(outcomes);
}

/** `POST /test?action=evaluate {urn, tests?|testUrns?, push?}` → `{value: {passing, failing}}`. */
export async function evaluateAction(req: Request, res: Response, deps: MetadataTestDeps): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.requiredString('urn');
  const testUrns = testUrnsOf(body);
  const push = pushOf(body);
  await authorize(deps, res, push);
  await requireEntity(deps.store, urn);
  const results = await evaluateEntity(deps.store, urn, await storedTests(deps.store), testUrns);
  if (push) await pushResults(deps, req, res, new Map([[urn, results]]), testUrns);
  sendJson(res, { value: results });
}

/** `POST /test?action=batchEvaluate {urns, tests?|testUrns?, push?}` → `{value: {results: {<urn>: …}}}`. */
export async function batchEvaluateAction(
  req: Request,
  res: Response,
  deps: MetadataTestDeps,
): Promise<void> {
  const body = ActionBody.of(req);
  const urns = body.raw('urns');
  if (!Array.isArray(urns) || urns.some((u) => typeof u !== 'string' || u === ''))
    throw new ValidationError('urns is required (an array of entity urns)');
  if (urns.length > MAX_BATCH)
    throw new ValidationError(`urns has ${urns.length} items; the maximum is ${MAX_BATCH}`);
  const testUrns = testUrnsOf(body);
  const push = pushOf(body);
  await authorize(deps, res, push);
  for (const urn of urns as string[]) await requireEntity(deps.store, urn);
  const tests = await storedTests(deps.store);
  const results = new Map<string, TestResults>();
  for (const urn of new Set(urns as string[]))
    results.set(urn, await evaluateEntity(deps.store, urn, tests, testUrns));
  if (push) await pushResults(deps, req, res, results, testUrns);
  sendJson(res, { value: { results: Object.fromEntries(results) } });
}
