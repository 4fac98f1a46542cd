import { describe, expect, it } from 'vitest';
import { checkProposal } from '../proposal.js';
import {
  applyOperator,
  entityPassesTest,
  parseTestDefinition,
  resolveProperty,
  testAppliesTo,
  TestDefinitionError,
  type AspectReader,
} from './index.js';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)';
const CONTAINER = 'urn:li:container:db1';

const ASPECTS: Record<string, Record<string, unknown>> = {
  [DATASET]: {
    datasetProperties: {
      name: 'orders',
      description: 'All orders of the shop',
      customProperties: { tier: '2' },
    },
    glossaryTerms: {
      terms: [{ urn: 'urn:li:glossaryTerm:Pii' }, { urn: 'urn:li:glossaryTerm:Finance' }],
      auditStamp: { time: 0, actor: 'urn:li:corpuser:x' },
    },
    globalTags: { tags: [{ tag: 'urn:li:tag:gold' }] },
    container: { container: CONTAINER },
    status: { removed: false },
    datasetProfile: { rowCount: 42 },
  },
  [CONTAINER]: { globalTags: { tags: [{ tag: 'urn:li:tag:warehouse' }] } },
};
const read: AspectReader = (urn, aspect) => Promise.resolve(ASPECTS[urn]?.[aspect]);

const on = { types: ['dataset'] };
const passes = (rules: unknown) => entityPassesTest(parseTestDefinition({ on, rules }), DATASET, read);
const leaf = (property: string, operator: string, values?: unknown) => ({
  property,
  operator,
  ...(values === undefined ? {} : { values }),
});

describe('metadata test definitions: parsing', () => {
  it('parses on, conditions, rules and actions, with operators in any case', () => {
    const definition = parseTestDefinition(
      JSON.stringify({
        on: { types: ['DATASET'], conditions: { property: 'status.removed', operator: 'is_false' } },
        rules: {
          or: [
            leaf('globalTags.tags.tag', 'EQUALS', ['urn:li:tag:gold']),
            { not: leaf('ownership.owners.owner', 'exists') },
          ],
        },
        actions: { passing: [{ type: 'ADD_TAGS', params: { values: 'urn:li:tag:ok' } }] },
      }),
    );
    expect(definition.types).toEqual(['dataset']);
    expect(definition.conditions).toEqual({
      kind: 'leaf',
      property: 'status.removed',
      operator: 'is_false',
      operands: [],
    });
    expect(definition.rules).toMatchObject({
      kind: 'or',
      predicates: [{ operator: 'equals' }, { kind: 'not' }],
    });
    expect(definition.actions?.passing).toEqual([{ type: 'ADD_TAGS', params: { values: 'urn:li:tag:ok' } }]);
  });

  it('takes operands from params, else from every other key, and scalars as one-element lists', () => {
    expect(
      parseTestDefinition({
        on,
        rules: { property: 'datasetProperties.name', operator: 'equals', params: { a: 'x', b: ['y', 2] } },
      }).rules,
    ).toMatchObject({ operands: ['x', 'y', '2'] });
    expect(
      parseTestDefinition({
        on,
        rules: { property: 'datasetProperties.name', operator: 'equals', value: 'x' },
      }).rules,
    ).toMatchObject({ operands: ['x'] });
  });

  it('reads the legacy keys query, operation, negate and match', () => {
    const definition = parseTestDefinition({
      on: { types: ['dataset'], match: { query: 'status.removed', operation: 'is_true', negate: true } },
      rules: [{ query: 'datasetProperties.name', operation: 'exists' }],
    });
    expect(definition.conditions).toEqual({
      kind: 'not',
      predicate: expect.objectContaining({ operator: 'is_true' }),
    });
    expect(definition.rules).toMatchObject({
      kind: 'and',
      predicates: [{ property: 'datasetProperties.name' }],
    });
  });

  it.each([
    ['{not json', 'not valid JSON'],
    ['[]', 'must be a JSON object'],
    [{ rules: leaf('datasetProperties.name', 'exists') }, 'on is required'],
    [{ on: {}, rules: leaf('datasetProperties.name', 'exists') }, 'on.types must be a non-empty array'],
    [
      { on: { types: ['nope'] }, rules: leaf('datasetProperties.name', 'exists') },
      'Unknown entity type "nope" in on.types[0]',
    ],
    [{ on }, 'rules is required'],
    [
      { on, rules: leaf('datasetProperties.name', 'sounds_like', ['x']) },
      'Unsupported operation sounds_like',
    ],
    [{ on, rules: leaf('notAnAspect.name', 'exists') }, 'Unknown aspect notAnAspect'],
    [{ on, rules: { operator: 'exists' } }, 'rules.property is required'],
    [{ on, rules: { property: 'datasetProperties.name' } }, 'rules.operator is required'],
    [{ on, rules: leaf('datasetProperties.name', 'equals') }, 'operator equals needs values'],
    [{ on, rules: leaf('datasetProperties.name', 'regex_match', ['(']) }, 'invalid regex'],
    [{ on, rules: { and: [] } }, 'rules.and must not be empty'],
    [{ on, rules: { or: leaf('datasetProperties.name', 'exists') } }, 'rules.or must be an array'],
    [
      { on, rules: { and: [leaf('datasetProperties.name', 'exists'), 'x'] } },
      'rules.and[1] must be an object',
    ],
    [
      { on, rules: { not: leaf('datasetProperties.name', 'exists'), or: [] } },
      'more than one of and, or, not',
    ],
    [{ on: { types: ['dataset'], conditions: 7 }, rules: [] }, 'on.conditions must be an object'],
    [{ on, rules: leaf('datasetProperties.name', 'equals', [{ a: 1 }]) }, 'rules.values[0] must be a string'],
    [
      { on, rules: leaf('datasetProperties.name', 'exists'), actions: { passing: [{}] } },
      'actions.passing[0]',
    ],
  ])('refuses %j, naming why (%s)', (definition, reason) => {
    let error: unknown;
    try {
      parseTestDefinition(definition);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TestDefinitionError);
    expect((error as TestDefinitionError).message).toContain('Invalid test definition: ');
    expect((error as TestDefinitionError).message).toContain(reason);
    expect((error as TestDefinitionError).code).toBe('VALIDATION');
  });
});

describe('metadata test definitions: evaluation', () => {
  it('resolves paths over aspects, flattening arrays and following urns', async () => {
    expect(await resolveProperty(DATASET, 'glossaryTerms.terms.urn', read)).toEqual([
      'urn:li:glossaryTerm:Pii',
      'urn:li:glossaryTerm:Finance',
    ]);
    expect(await resolveProperty(DATASET, 'container.container.globalTags.tags.tag', read)).toEqual([
      'urn:li:tag:warehouse',
    ]);
    expect(await resolveProperty(DATASET, 'datasetProfile.rowCount', read)).toEqual(['42']);
    expect(await resolveProperty(DATASET, 'ownership.owners.owner', read)).toEqual([]);
    expect(await resolveProperty(DATASET, 'datasetProperties.nope.deeper', read)).toEqual([]);
  });

  it.each([
    [leaf('datasetProperties.description', 'exists'), true],
    [leaf('editableDatasetProperties.description', 'exists'), false],
    [leaf('datasetProperties.name', 'equals', ['orders']), true],
    [leaf('datasetProperties.name', 'equals', ['Orders']), false],
    [leaf('glossaryTerms.terms.urn', 'equals', ['urn:li:glossaryTerm:Finance']), true],
    [
      leaf('glossaryTerms.terms.urn', 'contains_any', ['urn:li:glossaryTerm:X', 'urn:li:glossaryTerm:Pii']),
      true,
    ],
    [leaf('datasetProperties.description', 'contains_str', ['orders of']), true],
    [leaf('datasetProperties.description', 'contains_str', ['refunds']), false],
    [leaf('globalTags.tags.tag', 'starts_with', ['urn:li:tag:go']), true],
    [leaf('globalTags.tags.tag', 'starts_with', ['urn:li:tag:si']), false],
    [leaf('datasetProperties.name', 'regex_match', ['ord.*']), true],
    [leaf('datasetProperties.name', 'regex_match', ['rde']), false],
    [leaf('datasetProfile.rowCount', 'greater_than', ['41']), true],
    [leaf('datasetProfile.rowCount', 'greater_than', ['42']), false],
    [leaf('datasetProfile.rowCount', 'less_than', [100]), true],
    [leaf('datasetProperties.name', 'less_than', [100]), false],
    [leaf('status.removed', 'is_false'), true],
    [leaf('status.removed', 'is_true'), false],
  ])('%j → %s', async (rules, expected) => {
    expect(await passes(rules)).toBe(expected);
  });

  it('combines with and, or, not, arrays and negate', async () => {
    const yes = leaf('datasetProperties.name', 'exists');
    const no = leaf('ownership.owners.owner', 'exists');
    expect(await passes({ and: [yes, yes] })).toBe(true);
    expect(await passes({ and: [yes, no] })).toBe(false);
    expect(await passes({ or: [no, yes] })).toBe(true);
    expect(await passes({ or: [no, no] })).toBe(false);
    expect(await passes({ not: no })).toBe(true);
    expect(await passes([yes, { not: yes }])).toBe(false);
    expect(await passes({ ...no, negate: true })).toBe(true);
    expect(await passes({ and: [yes, { or: [no, { not: no }] }] })).toBe(true);
  });

  it('applies a test to the types in on.types whose conditions hold', async () => {
    const definition = parseTestDefinition({
      on: {
        types: ['dataset', 'chart'],
        conditions: leaf('globalTags.tags.tag', 'equals', ['urn:li:tag:gold']),
      },
      rules: leaf('datasetProperties.name', 'exists'),
    });
    expect(await testAppliesTo(definition, DATASET, read)).toBe(true);
    expect(await testAppliesTo(definition, 'urn:li:chart:(looker,a)', read)).toBe(false);
    expect(
      await testAppliesTo(
        parseTestDefinition({ on: { types: ['chart'] }, rules: leaf('chartInfo.title', 'exists') }),
        DATASET,
        read,
      ),
    ).toBe(false);
  });

  it('compares numbers as integers and treats unparsable numbers as false', () => {
    expect(applyOperator('greater_than', ['3.9'], ['3'])).toBe(false);
    expect(applyOperator('greater_than', ['abc'], ['3'])).toBe(false);
    expect(applyOperator('exists', [''], [])).toBe(false);
  });
});

describe('testInfo proposals', () => {
  const testInfo = (json: string) => ({
    entityType: 'test',
    entityUrn: 'urn:li:test:t1',
    changeType: 'UPSERT',
    aspectName: 'testInfo',
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({ name: 'n', category: 'c', definition: { type: 'JSON', json } }),
    },
  });

  it('accepts a definition that parses and refuses one that does not, with the reason', () => {
    expect(
      checkProposal(testInfo(JSON.stringify({ on, rules: leaf('datasetProperties.name', 'exists') }))).aspect
        .name,
    ).toBe('testInfo');
    expect(() =>
      checkProposal(testInfo(JSON.stringify({ on, rules: leaf('datasetProperties.name', 'bogus', 'x') }))),
    ).toThrow(/Invalid test definition: Unsupported operation bogus/);
  });
});
