import { randomUUID } from 'node:crypto';
import {
  formatUrn,
  isDomainError,
  NotFoundError,
  parseTestDefinition,
  ValidationError,
} from '@catalog/model';
import { requirePrivilege } from '../authorization.js';
import type { GraphQLContext } from '../context.js';
import { refOf, requireRef, type EntityRef } from '../entities/entity-ref.js';
import { pageOf } from '../list-page.js';
import { writeAspects } from '../mutations/write-proposals.js';

const ENTITY = 'test';
const INFO = 'testInfo';
const KEY = 'testKey';
const RESULTS = 'testResults';
/** Reading tests (listings, validation); creating, changing and deleting them needs MANAGE_TESTS. */
const VIEW_TESTS = ['MANAGE_TESTS', 'VIEW_TESTS'] as const;
const MANAGE_TESTS = ['MANAGE_TESTS'] as const;

/**
 * DataHub metadata tests (tests.graphql): the test entity's fields, its create/update/delete, listing
 * and validation of a definition, and the results stored on a dataset (`Dataset.testResults`). The
 * mutations' privilege (MANAGE_TESTS) is checked by mutation-privileges.ts.
 */
export const testSchema = `
type TestDefinition { json: String }
enum TestResultType { SUCCESS FAILURE }
type TestResult { test: Test type: TestResultType! }
type TestResults { passing: [TestResult!]! failing: [TestResult!]! }
type TestResultsSummary { passingCount: Long! failingCount: Long! }
type TestValidationResult { isValid: Boolean messages: [String!] }

extend type Test {
  name: String!
  category: String!
  description: String
  definition: TestDefinition!
  results: TestResultsSummary!
}

extend type Dataset {
  testResults: TestResults
}

input ListTestsInput { start: Int count: Int query: String }
type ListTestsResult { start: Int! count: Int! total: Int! tests: [Test!]! }
input TestDefinitionInput { json: String }
input CreateTestInput {
  id: String
  name: String!
  category: String!
  description: String
  definition: TestDefinitionInput!
}
input UpdateTestInput {
  name: String!
  category: String!
  description: String
  definition: TestDefinitionInput!
}

extend type Query {
  test(urn: String!): Test
  listTests(input: ListTestsInput!): ListTestsResult
  validateTest(input: TestDefinitionInput!): TestValidationResult
}

extend type Mutation {
  createTest(input: CreateTestInput!): String
  updateTest(urn: String!, input: UpdateTestInput!): String
  deleteTest(urn: String!): Boolean
}
`;

type Json = Readonly<Record<string, unknown>>;

interface TestInput {
  readonly id?: string | null;
  readonly name: string;
  readonly category: string;
  readonly description?: string | null;
  readonly definition: { readonly json?: string | null };
}

/** A test in a result: its ref, with its stored info when the resolver already read it. */
type TestRef = EntityRef & { readonly known?: { readonly info?: Json } };

/** The stored `testInfo` of an input; its definition must parse (a 400 naming why otherwise). */
export function testInfoOf(input: TestInput): Json {
  if (input.name.trim() === '') throw new ValidationError('name must not be empty');
  if (input.category.trim() === '') throw new ValidationError('category must not be empty');
  const json = input.definition.json ?? null;
  if (json === null) throw new ValidationError('definition.json is required');
  parseTestDefinition(json);
  return {
    name: input.name,
    category: input.category,
    ...(input.description === undefined || input.description === null
      ? {}
      : { description: input.description }),
    definition: { type: 'JSON', json },
  };
}

/** A test urn a client gave: a 400 unless it names a test. */
function requireTestUrn(urn: string): string {
  if (requireRef(urn).entity !== ENTITY)
    throw new ValidationError(`Expected a test urn, got ${JSON.stringify(urn)}`);
  return urn;
}

/** Every stored test (tests are few: each is written by hand). */
async function storedTests(ctx: GraphQLContext): Promise<{ urn: string; info: Json }[]> {
  const tests: { urn: string; info: Json }[] = [];
  let after: string | undefined;
  do {
    const page = await ctx.services.store.scan({
      aspect: INFO,
      urnLike: 'urn:li:test:%',
      limit: 500,
      ...(after === undefined ? {} : { after }),
    });
    for (const item of page.items) tests.push({ urn: item.urn, info: item.value });
    after = page.next;
  } while (after !== undefined);
  return tests;
}

/** Whether a test is in a listing: every query word is in its name, category, description or urn. */
export function testMatches(urn: string, info: Json, query: string | null | undefined): boolean {
  const text = query?.trim() ?? '';
  if (text === '' || text === '*') return true;
  const haystack = [info['name'], info['category'], info['description'], urn]
    .filter((v) => typeof v === 'string')
    .join(' ')
    .toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word.replace(/\*$/, '')));
}

async function infoOf(ref: TestRef, ctx: GraphQLContext): Promise<Json | undefined> {
  return ref.known?.info ?? (await ctx.entities.aspect<Json>(ref.urn, INFO));
}

/** The number of assets whose stored results have the test passing or failing (their graph edges). */
async function resultCount(
  ctx: GraphQLContext,
  urn: string,
  type: 'IsPassing' | 'IsFailing',
): Promise<number> {
  const related = await ctx.services.graph.related({
    urn,
    direction: 'INCOMING',
    types: [type],
    start: 0,
    count: 0,
  });
  return related.total;
}

/** A stored result list as GraphQL results: the test as a ref, or null once the test is deleted. */
async function resultsOf(list: unknown, ctx: GraphQLContext) {
  const items = Array.isArray(list) ? (list as { test?: unknown; type?: unknown }[]) : [];
  return Promise.all(
    items.map(async (item) => {
      const ref = refOf(item.test);
      const exists = ref !== undefined && (await ctx.entities.aspect(ref.urn, INFO)) !== undefined;
      return { test: exists ? ref : null, type: item.type };
    }),
  );
}

export function testResolvers(): Record<string, Record<string, unknown>> {
  return {
    Test: {
      name: async (ref: TestRef, _a: unknown, ctx: GraphQLContext) =>
        (await infoOf(ref, ctx))?.['name'] ?? '',
      category: async (ref: TestRef, _a: unknown, ctx: GraphQLContext) =>
        (await infoOf(ref, ctx))?.['category'] ?? '',
      description: async (ref: TestRef, _a: unknown, ctx: GraphQLContext) =>
        (await infoOf(ref, ctx))?.['description'] ?? null,
      definition: async (ref: TestRef, _a: unknown, ctx: GraphQLContext) => ({
        json: ((await infoOf(ref, ctx))?.['definition'] as { json?: string } | undefined)?.json ?? null,
      }),
      results: async (ref: TestRef, _a: unknown, ctx: GraphQLContext) => ({
        passingCount: await resultCount(ctx, ref.urn, 'IsPassing'),
        failingCount: await resultCount(ctx, ref.urn, 'IsFailing'),
      }),
    },
    Dataset: {
      testResults: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const stored = await ctx.entities.aspect<Json>(ref.urn, RESULTS);
        if (stored === undefined) return null;
        return {
          passing: await resultsOf(stored['passing'], ctx),
          failing: await resultsOf(stored['failing'], ctx),
        };
      },
    },
    Query: {
      test: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        requireTestUrn(urn);
        const info = await ctx.entities.aspect<Json>(urn, INFO);
        return info === undefined ? null : { urn, entity: ENTITY, known: { info } };
      },
      listTests: async (
        _r: unknown,
        { input }: { input: { start?: number | null; count?: number | null; query?: string | null } },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, VIEW_TESTS);
        const { start, count } = pageOf(input);
        const matching = (await storedTests(ctx))
          .filter((t) => testMatches(t.urn, t.info, input.query))
          .sort((a, b) => {
            const x = String(a.info['name'] ?? '').toLowerCase();
            const y = String(b.info['name'] ?? '').toLowerCase();
            return x !== y ? (x < y ? -1 : 1) : a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0;
          });
        const tests: TestRef[] = matching
          .slice(start, start + count)
          .map((t) => ({ urn: t.urn, entity: ENTITY, known: { info: t.info } }));
        return { start, count: tests.length, total: matching.length, tests };
      },
      validateTest: async (
        _r: unknown,
        { input }: { input: { json?: string | null } },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, VIEW_TESTS);
        try {
          parseTestDefinition(input.json ?? null);
          return { isValid: true, messages: [] };
        } catch (error) {
          if (!isDomainError(error)) throw error;
          return { isValid: false, messages: [error.message] };
        }
      },
    },
    Mutation: {
      createTest: async (_r: unknown, { input }: { input: TestInput }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_TESTS);
        const id = input.id?.trim() || randomUUID();
        const urn = formatUrn(ENTITY, [id]);
        const info = testInfoOf(input);
        if ((await ctx.entities.load(urn)).size > 0) throw new ValidationError('This Test already exists!');
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
        return urn;
      },
      updateTest: async (
        _r: unknown,
        { urn, input }: { urn: string; input: TestInput },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_TESTS);
        requireTestUrn(urn);
        const info = testInfoOf(input);
        if ((await ctx.entities.aspect(urn, INFO)) === undefined)
          throw new NotFoundError(`Test ${urn} does not exist`);
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
        return urn;
      },
      deleteTest: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_TESTS);
        requireTestUrn(urn);
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
        return true;
      },
    },
  };
}
