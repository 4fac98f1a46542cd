import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import {
  formatUrn,
  isDomainError,
  NotFoundError,
  parseTestDefinition,
  ValidationError,
} from '@catalog/model';
import type { GraphIndex } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import type { Proposals } from './proposals.js';
import { requireUrnOfType } from './entity-urns.js';
import type { StoredEntities } from './stored-entities.js';

const ENTITY = 'test';
const INFO = 'testInfo';
const KEY = 'testKey';
/** Reading tests (listings, validation); creating, changing and deleting them needs MANAGE_TESTS. */
const VIEW_TESTS = ['MANAGE_TESTS', 'VIEW_TESTS'] as const;
const MANAGE_TESTS = ['MANAGE_TESTS'] as const;

type Json = Readonly<Record<string, unknown>>;

/** A test as a client writes it. */
export interface TestInput {
  readonly id?: string | null;
  readonly name: string;
  readonly category: string;
  readonly description?: string | null;
  readonly definition: { readonly json?: string | null };
}

/** A stored test: its urn and `testInfo`. */
export interface StoredTest {
  readonly urn: string;
  readonly info: Json;
}

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

/** A test urn a client gave: a 400 unless it names a test. */
export function requireTestUrn(urn: string): string {
  return requireUrnOfType(urn, ENTITY);
}

const byName = (a: StoredTest, b: StoredTest): number => {
  const x = String(a.info['name'] ?? '').toLowerCase();
  const y = String(b.info['name'] ?? '').toLowerCase();
  return x !== y ? (x < y ? -1 : 1) : a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0;
};

/**
 * Metadata tests: listing and validating them (MANAGE_TESTS or VIEW_TESTS), creating, updating and
 * deleting them (MANAGE_TESTS), and how many assets pass or fail each.
 */
export class MetadataTests {
  constructor(
    private readonly graph: GraphIndex,
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** A page of the tests matching the query, by name. */
  async list(
    ctx: RequestContext,
    request: { readonly query?: string | null; readonly start: number; readonly count: number },
  ): Promise<{ readonly total: number; readonly tests: readonly StoredTest[] }> {
    await requireAnyOf(this.policy, ctx, VIEW_TESTS);
    // Tests are few (each is written by hand), so the listing reads them whole.
    const matching = (await this.stored.all(ENTITY, INFO))
      .filter((t) => testMatches(t.urn, t.info, request.query))
      .sort(byName);
    return { total: matching.length, tests: matching.slice(request.start, request.start + request.count) };
  }

  /** Whether a definition parses: valid, or the reason it does not. */
  async validate(
    ctx: RequestContext,
    json: string | null,
  ): Promise<{ readonly isValid: boolean; readonly messages: readonly string[] }> {
    await requireAnyOf(this.policy, ctx, VIEW_TESTS);
    try {
      parseTestDefinition(json);
      return { isValid: true, messages: [] };
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return { isValid: false, messages: [error.message] };
    }
  }

  /** Creates a test (400 when its id is taken); returns its urn. */
  async create(ctx: RequestContext, input: TestInput): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_TESTS);
    const id = input.id?.trim() || randomUUID();
    const urn = formatUrn(ENTITY, [id]);
    const info = testInfoOf(input);
    if (await this.stored.exists(urn)) throw new ValidationError('This Test already exists!');
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
    return urn;
  }

  /** Replaces an existing test (404 when absent). */
  async update(ctx: RequestContext, urn: string, input: TestInput): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_TESTS);
    requireTestUrn(urn);
    const info = testInfoOf(input);
    if ((await this.stored.aspect(urn, INFO)) === undefined)
      throw new NotFoundError(`Test ${urn} does not exist`);
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
    return urn;
  }

  async delete(ctx: RequestContext, urn: string): Promise<void> {
    await requireAnyOf(this.policy, ctx, MANAGE_TESTS);
    requireTestUrn(urn);
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
  }

  /** How many assets' stored results have the test passing and failing (their graph edges). */
  async resultCounts(
    _ctx: RequestContext,
    urn: string,
  ): Promise<{ readonly passingCount: number; readonly failingCount: number }> {
    const count = async (type: 'IsPassing' | 'IsFailing') =>
      (await this.graph.related({ urn, direction: 'INCOMING', types: [type], start: 0, count: 0 })).total;
    return { passingCount: await count('IsPassing'), failingCount: await count('IsFailing') };
  }
}
