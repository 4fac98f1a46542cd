import { buildSchema, introspectionFromSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compareSignatures, schemaSignatures } from './schema-signatures.js';

const signaturesOf = (sdl: string) => schemaSignatures(introspectionFromSchema(buildSchema(sdl)));

const reference = signaturesOf(`
  type Query { thing(urn: String!, version: Long): Thing things: [Thing!]! }
  type Mutation { touch(input: TouchInput!): Boolean }
  scalar Long
  type Thing { urn: String! platform: Platform! name: String }
  type Platform { urn: String! }
  input TouchInput { urns: [String]! note: String }
  enum Kind { A B }
`);

describe('schema signatures', () => {
  it('reads type strings with list and non-null wrappers, arguments and enum values', () => {
    expect(reference['Query']).toEqual({
      kind: 'OBJECT',
      fields: { thing: 'Thing', things: '[Thing!]!' },
      args: { thing: { urn: 'String!', version: 'Long' } },
    });
    expect(reference['TouchInput']).toEqual({
      kind: 'INPUT_OBJECT',
      fields: { note: 'String', urns: '[String]!' },
    });
    expect(reference['Kind']).toEqual({ kind: 'ENUM', values: ['A', 'B'] });
    expect(reference['String']).toBeUndefined();
  });

  it('counts what both have and reports every field, input field and argument typed otherwise', () => {
    const ours = signaturesOf(`
      type Query { thing(urn: String!, version: Int): Thing extra: Int }
      type Thing { urn: String! platform: Platform name: String mine: Int }
      type Platform { urn: String! }
      input TouchInput { urns: [String!]! }
    `);
    const comparison = compareSignatures(ours, reference);
    expect(comparison.types).toEqual({ have: 4, of: 7 });
    expect(comparison.fields).toEqual({ have: 6, of: 9 });
    expect(comparison.queries).toEqual({ have: 1, of: 2 });
    expect(comparison.mutations).toEqual({ have: 0, of: 1 });
    expect(comparison.conflicts).toEqual([
      { at: 'Query.thing(version)', ours: 'Int', theirs: 'Long' },
      { at: 'Thing.platform', ours: 'Platform', theirs: 'Platform!' },
      { at: 'TouchInput.urns', ours: '[String!]!', theirs: '[String]!' },
    ]);
  });
});
