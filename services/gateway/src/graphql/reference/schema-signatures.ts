import type {
  IntrospectionField,
  IntrospectionInputValue,
  IntrospectionQuery,
  IntrospectionTypeRef,
} from 'graphql';

/**
 * The signatures of a GraphQL schema: every named type with its kind, its fields' (and input fields')
 * type strings, its fields' arguments' type strings, enum values and union members. No descriptions,
 * defaults or directives: what a client's query is validated against.
 */
export interface TypeSignature {
  readonly kind: 'OBJECT' | 'INTERFACE' | 'INPUT_OBJECT' | 'ENUM' | 'UNION' | 'SCALAR';
  /** Field (or input field) name → type string (`[String!]!`). */
  readonly fields?: Readonly<Record<string, string>>;
  /** Field name → argument name → type string; only fields that take arguments. */
  readonly args?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly values?: readonly string[];
  readonly members?: readonly string[];
}

export type SchemaSignatures = Readonly<Record<string, TypeSignature>>;

const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

function sortedRecord<V>(entries: [string, V][]): Record<string, V> {
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `[String!]!` of an introspected type reference. */
export function typeString(ref: IntrospectionTypeRef): string {
  if (ref.kind === 'NON_NULL') return `${typeString(ref.ofType)}!`;
  if (ref.kind === 'LIST') return `[${typeString(ref.ofType)}]`;
  return ref.name;
}

const inputValues = (values: readonly IntrospectionInputValue[]) =>
  sortedRecord(values.map((v): [string, string] => [v.name, typeString(v.type)]));

function outputFields(list: readonly IntrospectionField[]): Pick<TypeSignature, 'fields' | 'args'> {
  const args = list
    .filter((f) => f.args.length > 0)
    .map((f): [string, Record<string, string>] => [f.name, inputValues(f.args)]);
  return {
    fields: sortedRecord(list.map((f): [string, string] => [f.name, typeString(f.type)])),
    ...(args.length > 0 ? { args: sortedRecord(args) } : {}),
  };
}

/**
 * The signatures of every named type of an introspected schema (queried with `getIntrospectionQuery()`,
 * deprecated fields included) but the introspection types and built-in scalars.
 */
export function schemaSignatures(introspection: IntrospectionQuery): SchemaSignatures {
  const entries: [string, TypeSignature][] = [];
  for (const type of introspection.__schema.types) {
    if (type.name.startsWith('__') || BUILT_IN.has(type.name)) continue;
    switch (type.kind) {
      case 'OBJECT':
      case 'INTERFACE':
        entries.push([type.name, { kind: type.kind, ...outputFields(type.fields) }]);
        break;
      case 'INPUT_OBJECT':
        entries.push([type.name, { kind: type.kind, fields: inputValues(type.inputFields) }]);
        break;
      case 'ENUM':
        entries.push([type.name, { kind: type.kind, values: type.enumValues.map((v) => v.name).sort() }]);
        break;
      case 'UNION':
        entries.push([type.name, { kind: type.kind, members: type.possibleTypes.map((t) => t.name).sort() }]);
        break;
      default:
        entries.push([type.name, { kind: 'SCALAR' }]);
    }
  }
  return sortedRecord(entries);
}

export interface Coverage {
  readonly have: number;
  readonly of: number;
}

export interface SchemaComparison {
  readonly types: Coverage;
  readonly fields: Coverage;
  readonly queries: Coverage;
  readonly mutations: Coverage;
  /** `Type.field`, `Type.field(arg)` or `Input.field`, with both type strings, where both have it. */
  readonly conflicts: readonly { readonly at: string; readonly ours: string; readonly theirs: string }[];
}

/**
 * How much of `reference` `ours` has (types by name; fields and input fields of types both have; Query
 * and Mutation fields) and every place both have with another type string: a field's or input field's
 * type, an argument's type, a type's kind.
 */
export function compareSignatures(ours: SchemaSignatures, reference: SchemaSignatures): SchemaComparison {
  const conflicts: { at: string; ours: string; theirs: string }[] = [];
  let types = 0;
  let fields = 0;
  let allFields = 0;
  for (const [name, theirs] of Object.entries(reference)) {
    allFields += Object.keys(theirs.fields ?? {}).length;
    const mine = ours[name];
    if (mine === undefined) continue;
    types += 1;
    if (mine.kind !== theirs.kind) {
      conflicts.push({ at: name, ours: mine.kind, theirs: theirs.kind });
      continue;
    }
    for (const [field, type] of Object.entries(theirs.fields ?? {})) {
      const myType = mine.fields?.[field];
      if (myType === undefined) continue;
      fields += 1;
      if (myType !== type) conflicts.push({ at: `${name}.${field}`, ours: myType, theirs: type });
      for (const [arg, argType] of Object.entries(theirs.args?.[field] ?? {})) {
        const myArg = mine.args?.[field]?.[arg];
        if (myArg !== undefined && myArg !== argType)
          conflicts.push({ at: `${name}.${field}(${arg})`, ours: myArg, theirs: argType });
      }
    }
  }
  const rootCoverage = (root: string): Coverage => {
    const theirs = Object.keys(reference[root]?.fields ?? {});
    const mine = ours[root]?.fields ?? {};
    return { have: theirs.filter((f) => mine[f] !== undefined).length, of: theirs.length };
  };
  return {
    types: { have: types, of: Object.keys(reference).length },
    fields: { have: fields, of: allFields },
    queries: rootCoverage('Query'),
    mutations: rootCoverage('Mutation'),
    conflicts,
  };
}
