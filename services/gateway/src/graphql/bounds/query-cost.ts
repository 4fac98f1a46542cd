import type {
  DocumentNode,
  GraphQLArgument,
  GraphQLInputField,
  GraphQLInputType,
  GraphQLSchema,
} from 'graphql';
import {
  getComplexity,
  type ComplexityEstimator,
  type ComplexityEstimatorArgs,
} from 'graphql-query-complexity';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { formatLimit, MAX_LIST_SIZE } from './graphql-limits.js';

/**
 * The cost of a query counts what it returns: each field costs 1 plus what it selects, and a field that
 * pages (a `count`, `first` or `limit` argument, its own or inside its `input`, or a `urns` list) costs
 * its selection times the page size asked for, or the resolver's default size when none is given.
 * Aliases are fields like any other, so thirty aliased searches cost thirty times one. graphql-armor's
 * cost limit counts each field once whatever the list size, so it is replaced by this estimator on
 * graphql-query-complexity, which also resolves variables, fragments, @skip/@include and abstract types.
 */

/** The arguments that ask for a page, in the order they are looked for. */
const PAGE_ARGUMENTS = ['count', 'first', 'limit'] as const;

/** The resolvers' default page sizes where no argument is given; the rest default to 20 (list-page.ts). */
const DEFAULT_PAGE_SIZES: Readonly<Record<string, number>> = {
  search: 10,
  searchAcrossEntities: 10,
  scrollAcrossEntities: 10,
  searchAcrossLineage: 10,
  scrollAcrossLineage: 10,
  browse: 10,
  browseV2: 10,
  autoComplete: 10,
  autoCompleteForMultiple: 10,
  relationships: 100,
  lineage: 100,
};
const DEFAULT_PAGE_SIZE = 20;

/** Selections walked before a query is refused, so that fragment fan-out cannot make costing itself slow. */
const MAX_QUERY_NODES = 100_000;

/** The named type below lists and non-nulls, told apart by shape: graphql may be loaded twice (ESM, CJS). */
function namedInputType(type: GraphQLInputType): GraphQLInputType {
  let named: GraphQLInputType = type;
  while ('ofType' in named) named = named.ofType;
  return named;
}

function inputFieldsOf(arg: GraphQLArgument): Record<string, GraphQLInputField> | undefined {
  const named = namedInputType(arg.type);
  return 'getFields' in named && typeof named.getFields === 'function' ? named.getFields() : undefined;
}

/** A page size read from an argument value; anything but a number counts as absent. */
function sizeOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : undefined;
}

/** The page size a field asks for, or undefined when the field pages nothing. */
export function pageSizeOf(options: Pick<ComplexityEstimatorArgs, 'field' | 'args'>): number | undefined {
  const { field, args } = options;
  const fallback = DEFAULT_PAGE_SIZES[field.name] ?? DEFAULT_PAGE_SIZE;
  for (const name of PAGE_ARGUMENTS)
    if (field.args.some((a) => a.name === name)) return sizeOf(args[name]) ?? fallback;
  const urns = args['urns'];
  if (Array.isArray(urns)) return urns.length;
  for (const arg of field.args) {
    const fields = inputFieldsOf(arg);
    if (fields === undefined) continue;
    const value = args[arg.name] as Record<string, unknown> | null | undefined;
    for (const name of PAGE_ARGUMENTS)
      if (fields[name] !== undefined)
        return sizeOf(value?.[name]) ?? sizeOf(fields[name].defaultValue) ?? fallback;
  }
  return undefined;
}

/** A list argument over the largest page any list serves. */
export interface OversizedPage {
  readonly field: string;
  readonly size: number;
}

/** The estimator; pages above MAX_LIST_SIZE are noted in `oversized` (costing runs on, to finish the walk). */
export function listCostEstimator(oversized: OversizedPage[]): ComplexityEstimator {
  return (options) => {
    const size = pageSizeOf(options);
    if (size === undefined) return 1 + options.childComplexity;
    if (size > MAX_LIST_SIZE)
      oversized.push({ field: options.node.alias?.value ?? options.field.name, size });
    return 1 + size * options.childComplexity;
  };
}

/** Why a query may not run, or undefined when it may. */
export function costRefusal(
  options: {
    readonly schema: GraphQLSchema;
    readonly query: DocumentNode;
    readonly variables: Record<string, unknown>;
    readonly operationName?: string;
  },
  maxCost: number,
): string | undefined {
  const oversized: OversizedPage[] = [];
  let cost: number;
  try {
    cost = getComplexity({
      ...options,
      estimators: [listCostEstimator(oversized)],
      maxQueryNodes: MAX_QUERY_NODES,
    });
  } catch (error) {
    return `The query could not be costed: ${(error as Error).message}`;
  }
  const [first] = oversized;
  if (first !== undefined)
    return (
      `${first.field} asks for ${formatLimit(first.size)} results; a list serves at most ` +
      `${formatLimit(MAX_LIST_SIZE)} per request: page with start or scrollId`
    );
  if (cost > maxCost)
    return (
      `Query cost ${formatLimit(cost)} exceeds the limit of ${formatLimit(maxCost)} ` +
      '(GRAPHQL_QUERY_COMPLEXITY_LIMIT; a field costs 1, times the count/first/limit of each list above it): ' +
      'lower count/first/limit or split the query'
    );
  return undefined;
}

/** Strings up to this long take part in a signature as they are ("true", "10"); longer ones as a mark. */
const VERBATIM_STRING = 16;

/**
 * What of a request's variables its cost can depend on: numbers, booleans, null, the lengths and shapes of
 * lists and objects, and short strings (a page size or a @skip flag given as text), with every longer
 * string (a query text, a urn, a scroll id) replaced by one mark. Two requests of one document whose
 * variables have the same signature cost the same.
 */
export function variablesSignature(value: unknown): string {
  if (typeof value === 'string') return value.length <= VERBATIM_STRING ? JSON.stringify(value) : '~';
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(variablesSignature).join(',')}]`;
  let out = '{';
  for (const key in value)
    out += `${JSON.stringify(key)}:${variablesSignature((value as Record<string, unknown>)[key])},`;
  return `${out}}`;
}

/** Signatures remembered per document; past this the document's are forgotten and remembered anew. */
const SIGNATURES_PER_DOCUMENT = 256;

/**
 * Refuses, before any resolver runs, a query whose cost is over `maxCost` or whose pages are oversized.
 * It wraps the execution rather than stopping it in `onExecute`, so that it costs the variables as the
 * plugins after it leave them (useBooleanStringVariables turns "false" into false): list it before them.
 * The answer is remembered per parsed document (yoga parses a query text once) and variables signature,
 * so a client repeating its queries (the SDK, the web app, a scroll) has each shape costed once.
 */
export function useQueryCost(maxCost: number): Plugin {
  const answers = new WeakMap<DocumentNode, Map<string, string | null>>();
  const refusalOf = (args: {
    readonly schema: GraphQLSchema;
    readonly document: DocumentNode;
    readonly variableValues?: unknown;
    readonly operationName?: string | null;
  }): string | null => {
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    const operationName = args.operationName ?? undefined;
    let known = answers.get(args.document);
    if (known === undefined) answers.set(args.document, (known = new Map()));
    const key = `${operationName ?? ''}\u0000${variablesSignature(variables)}`;
    let refusal = known.get(key);
    if (refusal === undefined) {
      refusal =
        costRefusal(
          {
            schema: args.schema,
            query: args.document,
            variables,
            ...(operationName === undefined ? {} : { operationName }),
          },
          maxCost,
        ) ?? null;
      if (known.size >= SIGNATURES_PER_DOCUMENT) known.clear();
      known.set(key, refusal);
    }
    return refusal;
  };
  const refused = (refusal: string) => ({
    errors: [
      createGraphQLError(refusal, {
        extensions: { code: 400, type: 'BAD_REQUEST', classification: 'ValidationError' },
      }),
    ],
  });
  return {
    onExecute: ({ executeFn, setExecuteFn }) => {
      setExecuteFn((args) => {
        const refusal = refusalOf(args);
        return refusal === null ? executeFn(args) : refused(refusal);
      });
    },
    // A subscription is costed as a query is, once, when it opens (each event runs the same selection).
    onSubscribe: ({ subscribeFn, setSubscribeFn }) => {
      setSubscribeFn((args) => {
        const refusal = refusalOf(args);
        return refusal === null ? subscribeFn(args) : refused(refusal);
      });
    },
  };
}
