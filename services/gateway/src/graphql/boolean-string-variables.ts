import {
  getOperationAST,
  Kind,
  type DocumentNode,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLList,
  type GraphQLNonNull,
  type GraphQLSchema,
  type TypeNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * The ecosystem's GraphQL server takes the strings "true" and "false" for a Boolean in variables (its
 * smoke tests send `"negated": "false"` inside filter inputs); graphql-js takes only JSON booleans. The
 * variables are walked along the operation's variable types (lists and input objects included) and only
 * where the schema says Boolean is such a string replaced by its boolean; every other value, a
 * non-boolean string in a Boolean position included, reaches the usual coercion unchanged.
 */

type Variables = Readonly<Record<string, unknown>>;

/**
 * The class of a schema type by its tag: graphql-js's own predicates (`isListType`, …) test instanceof,
 * which fails when the schema was built by another copy of graphql (the server's CommonJS one beside an
 * ESM one, as under a bundler); the tag is the same in every copy.
 */
function tagOf(type: GraphQLInputType): string {
  return Object.prototype.toString.call(type).slice('[object '.length, -1);
}

/** "true" or "false", in any case, as graphql-java's Boolean coercion reads a string. */
function booleanOf(value: string): boolean | undefined {
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** A list value with each item coerced; a single value where a list is expected stands for a list of one. */
function coerceList(value: unknown, item: (value: unknown) => unknown): unknown {
  if (!Array.isArray(value)) return item(value);
  const items = value.map(item);
  return items.some((coerced, i) => coerced !== value[i]) ? items : value;
}

/** `value` with the boolean strings at Boolean positions of `type` replaced; the same object when none. */
function coerce(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  switch (tagOf(type)) {
    case 'GraphQLNonNull':
      return coerce(value, (type as GraphQLNonNull<GraphQLInputType>).ofType);
    case 'GraphQLList':
      return coerceList(value, (item) => coerce(item, (type as GraphQLList<GraphQLInputType>).ofType));
    case 'GraphQLInputObjectType': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      const fields = (type as GraphQLInputObjectType).getFields();
      let out: Record<string, unknown> | undefined;
      for (const [name, field] of Object.entries(value as Variables)) {
        const spec = fields[name];
        if (spec === undefined) continue;
        const coerced = coerce(field, spec.type);
        if (coerced !== field) (out ??= { ...(value as Variables) })[name] = coerced;
      }
      return out ?? value;
    }
    case 'GraphQLScalarType':
      return (type as { name: string }).name === 'Boolean' && typeof value === 'string'
        ? (booleanOf(value) ?? value)
        : value;
    default:
      return value;
  }
}

/** `value` coerced along a variable's declared type (`[FacetFilterInput!]`, `Boolean!`, …). */
function coerceDeclared(value: unknown, node: TypeNode, schema: GraphQLSchema): unknown {
  if (value === null || value === undefined) return value;
  if (node.kind === Kind.NON_NULL_TYPE) return coerceDeclared(value, node.type, schema);
  if (node.kind === Kind.LIST_TYPE)
    return coerceList(value, (item) => coerceDeclared(item, node.type, schema));
  const named = schema.getType(node.name.value);
  return named === undefined || named === null ? value : coerce(value, named as GraphQLInputType);
}

/**
 * The variables of the operation `operationName` names in `document` (or its only operation), with the
 * boolean strings at Boolean positions replaced; the same object when there are none.
 */
export function booleanStringVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Variables | null | undefined,
): Variables | null | undefined {
  if (variables === null || variables === undefined) return variables;
  const operation = getOperationAST(document, operationName);
  let out: Record<string, unknown> | undefined;
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!Object.hasOwn(variables, name)) continue;
    const coerced = coerceDeclared(variables[name], definition.type, schema);
    if (coerced !== variables[name]) (out ??= { ...variables })[name] = coerced;
  }
  return out ?? variables;
}

/** Executes every operation with booleanStringVariables. */
export function useBooleanStringVariables(): Plugin {
  return {
    onExecute: ({ args, executeFn, setExecuteFn }) => {
      const variables = booleanStringVariables(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues,
      );
      if (variables !== args.variableValues)
        setExecuteFn((given) => executeFn({ ...given, variableValues: variables }));
    },
  };
}
