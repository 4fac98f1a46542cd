import { requireTestUrn, type StoredTest, type TestInput } from '../../application/metadata-tests.js';
import type { GraphQLContext } from '../context.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';
import { pageOf } from '../list-page.js';

const ENTITY = 'test';
const INFO = 'testInfo';
const RESULTS = 'testResults';

/**
 * DataHub metadata tests (tests.graphql): the test entity's fields, its create/update/delete, listing
 * and validation of a definition, and the results stored on a dataset (`Dataset.testResults`).
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

/** A test in a result: its ref, with its stored info when the resolver already read it. */
type TestRef = EntityRef & { readonly known?: { readonly info?: Json } };

const testRef = (test: StoredTest): TestRef => ({
  urn: test.urn,
  entity: ENTITY,
  known: { info: test.info },
});

async function infoOf(ref: TestRef, ctx: GraphQLContext): Promise<Json | undefined> {
  return ref.known?.info ?? (await ctx.entities.aspect<Json>(ref.urn, INFO));
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
      results: (ref: TestRef, _a: unknown, ctx: GraphQLContext) =>
        ctx.services.app.metadataTests.resultCounts(ctx.auth, ref.urn),
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
        const { start, count } = pageOf(input);
        const page = await ctx.services.app.metadataTests.list(ctx.auth, {
          query: input.query ?? null,
          start,
          count,
        });
        const tests = page.tests.map(testRef);
        return { start, count: tests.length, total: page.total, tests };
      },
      validateTest: (_r: unknown, { input }: { input: { json?: string | null } }, ctx: GraphQLContext) =>
        ctx.services.app.metadataTests.validate(ctx.auth, input.json ?? null),
    },
    Mutation: {
      createTest: (_r: unknown, { input }: { input: TestInput }, ctx: GraphQLContext) =>
        ctx.services.app.metadataTests.create(ctx.auth, input),
      updateTest: (_r: unknown, { urn, input }: { urn: string; input: TestInput }, ctx: GraphQLContext) =>
        ctx.services.app.metadataTests.update(ctx.auth, urn, input),
      deleteTest: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await ctx.services.app.metadataTests.delete(ctx.auth, urn);
        return true;
      },
    },
  };
}
