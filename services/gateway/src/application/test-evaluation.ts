import {
  cachedReader,
  checkProposal,
  entityPassesTest,
  isDomainError,
  NotFoundError,
  parseTestDefinition,
  parseUrn,
  testAppliesTo,
  type AspectReader,
  type TestDefinition,
} from '@catalog/model';
import { SYSTEM_ACTOR, type ProposalOutcome } from '@catalog/runtime';
import type { RequestContext } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { AccessPolicy } from './access-policy.js';
import type { Proposals } from './proposals.js';

const TEST_INFO = 'testInfo';
const TEST_RESULTS = 'testResults';
const SCAN_PAGE = 500;
/** At most this many entities in one batchEvaluate. */
export const MAX_TEST_BATCH = 100;

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

/** What an evaluation is asked to do (spec 4.11). */
export interface EvaluationRequest {
  readonly urns: readonly string[];
  /** Only these tests (unknown ones skipped); all stored tests when absent. */
  readonly testUrns?: readonly string[];
  /** Store the results as each entity's `testResults`. */
  readonly push: boolean;
  /** Answer only once pushed results are indexed. */
  readonly waitIndex: boolean;
}

/**
 * Running metadata tests against entities (the test-evaluation endpoint): MANAGE_TESTS or VIEW_TESTS,
 * MANAGE_TESTS to store the results (written as the system actor, through the log). Every entity must
 * exist (404 otherwise). Results name tests and entities only, never aspect values.
 */
export class TestEvaluation {
  constructor(
    private readonly store: AspectStore,
    private readonly proposals: Proposals,
    private readonly policy: AccessPolicy,
    private readonly waitForIndex: (outcomes: readonly ProposalOutcome[]) => Promise<void>,
  ) {}

  async evaluate(ctx: RequestContext, request: EvaluationRequest): Promise<ReadonlyMap<string, TestResults>> {
    await this.policy.requireForEntity(ctx, {
      privileges: [request.push ? ['MANAGE_TESTS'] : ['MANAGE_TESTS', 'VIEW_TESTS']],
      message: request.push
        ? 'User is unauthorized to evaluate and push test results.'
        : 'User is unauthorized to evaluate tests.',
    });
    for (const urn of request.urns) await requireEntity(this.store, urn);
    const tests = await storedTests(this.store);
    const results = new Map<string, TestResults>();
    for (const urn of new Set(request.urns))
      results.set(urn, await evaluateEntity(this.store, urn, tests, request.testUrns));
    if (request.push) await this.pushResults(ctx, results, request);
    return results;
  }

  /** Stores the results of each entity as its `testResults`, as the system actor, through the log. */
  private async pushResults(
    ctx: RequestContext,
    results: ReadonlyMap<string, TestResults>,
    request: EvaluationRequest,
  ): Promise<void> {
    const { testUrns } = request;
    const stored =
      testUrns === undefined
        ? new Map()
        : await this.store.getLatestMany([...results.keys()], [TEST_RESULTS]);
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
    const system: RequestContext = {
      origin: ctx.origin,
      authentication: {
        actorUrn: SYSTEM_ACTOR,
        actorId: '__datahub_system',
        method: 'system-client',
        isSystem: true,
      },
    };
    const outcomes = await this.proposals.submitDecided(system, proposals, { sync: true });
    const failure = outcomes?.find((o) => !o.ok);
    if (failure) throw errorOfOutcome(failure);
    if (request.waitIndex && outcomes) await this.waitForIndex(outcomes);
  }
}

/** A urn to evaluate: parsed (400 when malformed), and an entity that exists (404 otherwise). */
async function requireEntity(store: AspectStore, urn: string): Promise<void> {
  parseUrn(urn);
  if ((await store.getLatest(urn)).length === 0) throw new NotFoundError(`Entity ${urn} does not exist`);
}
