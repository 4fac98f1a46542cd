/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The groups the document is served in (`/openapi/v3/api-docs?group=`), named as the ecosystem names
 * its groups where it has one; the catalog's other interfaces get groups of their own after them.
 */
export const API_GROUPS = [
  '10-openapi-v3',
  '40-operations',
  '50-openapi-v2',
  '60-openapi-v1',
  '70-restli',
  '80-graphql',
  '90-schema-registry',
] as const;
export type ApiGroup = (typeof API_GROUPS)[number];

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly description: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
}

export interface RequestBody {
  readonly schema: JsonSchema;
  readonly required: boolean;
  /** Media types the body may come as; `application/json` when absent. */
  readonly mediaTypes?: readonly string[];
}

export interface ResponseSpec {
  readonly description: string;
  readonly schema?: JsonSchema;
  /** Media type of a body; `application/json` when absent. */
  readonly mediaType?: string;
}

/**
 * One route of the catalog's REST surface: the single source of what it takes. The OpenAPI document
 * is rendered from these, and the routes validate their query parameters and bodies against the same
 * objects (see request-input.ts), so the two cannot drift apart.
 */
export interface Operation {
  readonly group: ApiGroup;
  readonly method: HttpMethod;
  /** The OpenAPI path template, e.g. `/openapi/v3/entity/dataset/{urn}`. */
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly parameters: readonly Parameter[];
  readonly body?: RequestBody;
  /** By status; the shared error responses (400, 503) are added by the document. */
  readonly responses: Readonly<Record<string, ResponseSpec>>;
}

export const queryParam = (
  name: string,
  schema: JsonSchema,
  description: string,
  required = false,
): Parameter => ({ name, in: 'query', schema, description, ...(required ? { required } : {}) });

export const pathParam = (name: string, description: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});

export const jsonBody = (
  schema: JsonSchema,
  required = true,
  mediaTypes?: readonly string[],
): RequestBody => ({
  schema,
  required,
  ...(mediaTypes === undefined ? {} : { mediaTypes }),
});

export const success = (
  description: string,
  schema?: JsonSchema,
): Readonly<Record<string, ResponseSpec>> => ({
  '200': { description, ...(schema === undefined ? {} : { schema }) },
});

/** A `#/components/schemas/<name>` reference. */
export const componentRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
