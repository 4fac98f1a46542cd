import { buildSchema, execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { booleanStringVariables } from './boolean-string-variables.js';

const schema = buildSchema(`
  input FacetFilterInput { field: String! values: [String!] negated: Boolean }
  input AndFilterInput { and: [FacetFilterInput!] }
  input SearchInput { query: String! orFilters: [AndFilterInput!] flag: Boolean! tags: [Boolean] }
  type Query { search(input: SearchInput!): String echo(flag: Boolean, text: String): String }
`);
const SEARCH = parse('query Search($input: SearchInput!) { search(input: $input) }');

const filters = (negated: unknown) => ({
  query: '*',
  flag: true,
  orFilters: [{ and: [{ field: 'platform', values: ['false'], negated }] }],
});

describe('booleanStringVariables', () => {
  it('turns "true"/"false" into booleans where the schema says Boolean, deep in lists and input objects', () => {
    const variables = {
      input: { ...filters('false'), flag: 'TRUE', tags: ['true', false, null] },
    };
    expect(booleanStringVariables(schema, SEARCH, 'Search', variables)).toEqual({
      input: { ...filters(false), flag: true, tags: [true, false, null] },
    });
    // The caller's variables are left as they were.
    expect(variables.input.orFilters[0]!.and[0]!.negated).toBe('false');
  });

  it('leaves strings in String positions, and variables with nothing to change, as they are', () => {
    const variables = { input: filters(true) };
    expect(booleanStringVariables(schema, SEARCH, undefined, variables)).toBe(variables);
    const echo = parse('query($flag: Boolean, $text: String) { echo(flag: $flag, text: $text) }');
    expect(booleanStringVariables(schema, echo, undefined, { flag: 'false', text: 'true' })).toEqual({
      flag: false,
      text: 'true',
    });
  });

  it('takes a single value where a list of booleans is expected', () => {
    const variables = { input: { ...filters(null), tags: 'false' } };
    expect(booleanStringVariables(schema, SEARCH, 'Search', variables)).toEqual({
      input: { ...filters(null), tags: false },
    });
  });

  it('keeps a non-boolean string in a Boolean position, which execution still refuses', async () => {
    const variables = { input: filters('maybe') };
    const coerced = booleanStringVariables(schema, SEARCH, 'Search', variables);
    expect(coerced).toBe(variables);
    const result = await execute({ schema, document: SEARCH, variableValues: coerced });
    expect(result.errors?.[0]?.message).toContain('Boolean cannot represent a non boolean value: "maybe"');
  });

  it('coerces the variables of the operation named, among several', () => {
    const document = parse(`
      query A($flag: Boolean) { echo(flag: $flag) }
      query B($flag: String) { echo(text: $flag) }
    `);
    expect(booleanStringVariables(schema, document, 'A', { flag: 'true' })).toEqual({ flag: true });
    expect(booleanStringVariables(schema, document, 'B', { flag: 'true' })).toEqual({ flag: 'true' });
  });
});
