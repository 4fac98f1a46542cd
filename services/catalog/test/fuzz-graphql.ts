import fc from 'fast-check';
import { urnOf } from './fuzz-openapi.js';
import { hostileJson, hostileString, type FuzzRequest } from './fuzz-values.js';
import { entityRegistry } from '@catalog/model';

/** What the generators read of the schema, from an introspection query. */
interface TypeRef {
  readonly kind: string;
  readonly name: string | null;
  readonly ofType: TypeRef | null;
}
interface InputValue {
  readonly name: string;
  readonly type: TypeRef;
}
interface Field {
  readonly name: string;
  readonly args: readonly InputValue[];
  readonly type: TypeRef;
}
interface FullType {
  readonly kind: string;
  readonly name: string;
  readonly fields: readonly Field[] | null;
  readonly inputFields: readonly InputValue[] | null;
  readonly enumValues: readonly { name: string }[] | null;
}
export interface Introspection {
  readonly __schema: {
    readonly queryType: { name: string } | null;
    readonly mutationType: { name: string } | null;
    readonly types: readonly FullType[];
  };
}

const TYPE_REF =
  'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
export const INTROSPECTION_QUERY = `{ __schema { queryType { name } mutationType { name } types { kind name
  fields(includeDeprecated: true) { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } }
  inputFields { name type { ${TYPE_REF} } } enumValues(includeDeprecated: true) { name } } } }`;

function named(ref: TypeRef): TypeRef {
  return ref.ofType === null ? ref : named(ref.ofType);
}

function typeText(ref: TypeRef): string {
  if (ref.kind === 'NON_NULL' && ref.ofType) return `${typeText(ref.ofType)}!`;
  if (ref.kind === 'LIST' && ref.ofType) return `[${typeText(ref.ofType)}]`;
  return ref.name ?? 'String';
}

const anyUrn = fc.oneof(
  ...[
    'dataset',
    'chart',
    'corpuser',
    'tag',
    'glossaryTerm',
    'domain',
    'structuredProperty',
    'dataHubPolicy',
  ].map((e) => urnOf(entityRegistry.getEntity(e))),
);

/**
 * GraphQL requests for every query and mutation field of the schema: valid ones (arguments built from
 * their input types, urns from the same pool as the other generators) and mutated ones (a variable
 * replaced by a hostile value, the document cut or nested deep).
 */
export function graphqlRequests(schema: Introspection): {
  readonly fields: number;
  readonly arbitrary: fc.Arbitrary<FuzzRequest>;
} {
  const types = new Map(schema.__schema.types.map((t) => [t.name, t]));

  const valueOf = (ref: TypeRef, name: string, depth: number): fc.Arbitrary<unknown> => {
    if (ref.kind === 'NON_NULL' && ref.ofType) return valueOf(ref.ofType, name, depth);
    if (ref.kind === 'LIST' && ref.ofType)
      return depth > 4 ? fc.constant([]) : fc.array(valueOf(ref.ofType, name, depth + 1), { maxLength: 2 });
    const type = ref.name === null ? undefined : types.get(ref.name);
    switch (type?.kind ?? ref.name) {
      case 'ENUM':
        return fc.constantFrom(...(type?.enumValues ?? [{ name: 'X' }]).map((v) => v.name));
      case 'INPUT_OBJECT': {
        if (depth > 4 || type?.inputFields == null) return fc.constant({});
        const fields = type.inputFields;
        return fc.record(
          Object.fromEntries(fields.map((f) => [f.name, valueOf(f.type, f.name, depth + 1)])),
          { requiredKeys: fields.filter((f) => f.type.kind === 'NON_NULL').map((f) => f.name) },
        );
      }
      default:
        return scalarOf(ref.name ?? 'String', name);
    }
  };

  const selectionOf = (ref: TypeRef, depth: number): string => {
    const type = types.get(named(ref).name ?? '');
    if (type === undefined || type.kind === 'SCALAR' || type.kind === 'ENUM') return '';
    if (type.kind !== 'OBJECT' || depth > 1 || type.fields === null) return '{ __typename }';
    const leaves = type.fields
      .filter((f) => f.args.every((a) => a.type.kind !== 'NON_NULL'))
      .slice(0, 8)
      .map((f) => `${f.name} ${selectionOf(f.type, depth + 1)}`);
    return `{ __typename ${leaves.join(' ')} }`;
  };

  const operations: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [kind, root] of [
    ['query', schema.__schema.queryType?.name],
    ['mutation', schema.__schema.mutationType?.name],
  ] as const) {
    const fields = root === undefined ? [] : (types.get(root)?.fields ?? []);
    for (const field of fields) {
      const args = field.args;
      const variables = fc.record(Object.fromEntries(args.map((a) => [a.name, valueOf(a.type, a.name, 0)])), {
        requiredKeys: args.filter((a) => a.type.kind === 'NON_NULL').map((a) => a.name),
      });
      const declared = args.map((a) => `$${a.name}: ${typeText(a.type)}`).join(', ');
      const passed = args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const document = `${kind} Fuzz${declared === '' ? '' : `(${declared})`} { ${field.name}${passed === '' ? '' : `(${passed})`} ${selectionOf(field.type, 0)} }`;
      const route = `POST /api/graphql ${kind} ${field.name}`;
      operations.push(
        fc
          .tuple(variables, fc.constantFrom('valid', 'valid', 'valid', 'variable', 'document'))
          .chain(([vars, mode]) => {
            if (mode === 'valid') return fc.constant({ query: document, variables: vars });
            if (mode === 'variable' && args.length > 0)
              return fc
                .tuple(fc.constantFrom(...args.map((a) => a.name)), hostileJson)
                .map(([name, v]) => ({ query: document, variables: { ...vars, [name]: v } }));
            return fc
              .constantFrom(
                document.slice(0, Math.floor(document.length / 2)),
                `${document} }`,
                document.replace('{', '{'.repeat(40)),
                `${kind} { ${Array.from({ length: 60 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
                `${kind} { ${field.name} ${'{ __typename '.repeat(30)}${'}'.repeat(30)} }`,
              )
              .map((q) => ({ query: q, variables: vars }));
          })
          .map((body) => ({ method: 'POST', path: '/api/graphql', route, body: JSON.stringify(body) })),
      );
    }
  }
  return { fields: operations.length, arbitrary: fc.oneof(...operations) };
}

function scalarOf(scalar: string, argName: string): fc.Arbitrary<unknown> {
  switch (scalar) {
    case 'Int':
      return fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer());
    case 'Float':
      return fc.double({ min: 0, max: 1_000, noNaN: true });
    case 'Long':
      return fc.oneof(fc.integer({ min: 0, max: 1_800_000_000_000 }), fc.constantFrom(2 ** 53, -1));
    case 'Boolean':
      return fc.boolean();
    default:
      return /urn/i.test(argName)
        ? fc.oneof({ weight: 5, arbitrary: anyUrn }, { weight: 1, arbitrary: hostileString })
        : fc.oneof(fc.constantFrom('*', 'fuzz', 'pii', 'urn:li:tag:pii'), fc.string({ maxLength: 10 }));
  }
}
