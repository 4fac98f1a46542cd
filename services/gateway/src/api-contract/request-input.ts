import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Request } from 'express';
import { ValidationError } from '@catalog/model';
import type { JsonSchema, Operation } from './operation.js';

/** What a request carries once checked against its operation: typed, defaulted query values and the body. */
export interface RequestInput {
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/** The schema a `#/components/schemas/<name>` reference stands for when a request is validated. */
export type ComponentLookup = (name: string) => JsonSchema | undefined;

const COMPONENT_REF = '#/components/schemas/';
/** Schema extension: the message for a missing required property, by property name. */
export const REQUIRED_MESSAGES = 'x-required-messages';

interface Compiled {
  readonly query: ValidateFunction;
  readonly body: ValidateFunction | undefined;
}

/**
 * Checks requests against their Operation, the object the OpenAPI document is rendered from: query
 * parameters are coerced to their schema types (`count=10` → 10, `async=false` → false), defaults are
 * filled in, array parameters take repeated and comma-separated values; the JSON body is checked
 * against the operation's body schema. Unknown query parameters are ignored, as the ecosystem ignores
 * them; booleans are read case-insensitively (`False`, as Python clients send it). The first problem
 * becomes a ValidationError naming the parameter or the place in the body.
 */
export class RequestValidator {
  // Bodies are checked, never changed: what the client sent is what the proposal carries.
  private readonly ajv = new Ajv2020({
    coerceTypes: false,
    useDefaults: false,
    strict: false,
    verbose: true,
  });
  private readonly queryAjv = new Ajv2020({
    coerceTypes: 'array',
    useDefaults: true,
    strict: false,
    verbose: true,
  });
  private readonly compiled = new WeakMap<Operation, Compiled>();

  constructor(private readonly components: ComponentLookup) {}

  input(operation: Operation, req: Request): RequestInput {
    const compiled = this.compile(operation);
    const query = queryValues(operation, req);
    if (!compiled.query(query)) throw problem(compiled.query.errors ?? [], 'query');
    if (compiled.body === undefined) return { query, body: req.body };
    if (req.body === undefined) {
      if (operation.body?.required) throw new ValidationError('The request needs a JSON body');
      return { query, body: undefined };
    }
    if (!compiled.body(req.body)) throw problem(compiled.body.errors ?? [], 'body');
    return { query, body: req.body };
  }

  /** Checks a body alone against an operation's body schema (a part of a larger request, e.g. one type's list). */
  checkBody(operation: Operation, body: unknown): void {
    const validate = this.compile(operation).body;
    if (validate !== undefined && !validate(body)) throw problem(validate.errors ?? [], 'body');
  }

  private compile(operation: Operation): Compiled {
    const known = this.compiled.get(operation);
    if (known !== undefined) return known;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const p of operation.parameters) {
      if (p.in !== 'query') continue;
      properties[p.name] = p.schema;
      if (p.required) required.push(p.name);
    }
    const compiled: Compiled = {
      query: this.queryAjv.compile({ type: 'object', properties, required }),
      body:
        operation.body === undefined
          ? undefined
          : this.ajv.compile(this.withComponents(operation.body.schema)),
    };
    this.compiled.set(operation, compiled);
    return compiled;
  }

  /** The schema with its component references rewritten to local `$defs`, each component included once. */
  private withComponents(schema: JsonSchema): JsonSchema {
    const defs: Record<string, unknown> = {};
    const pending: string[] = [];
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (typeof node !== 'object' || node === null) return node;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT_REF)) {
          const name = v.slice(COMPONENT_REF.length);
          if (!(name in defs)) {
            defs[name] = true;
            pending.push(name);
          }
          out[k] = `#/$defs/${encodeURIComponent(name)}`;
        } else out[k] = rewrite(v);
      }
      return out;
    };
    const root = rewrite(schema) as JsonSchema;
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      const component = this.components(name);
      if (component === undefined) throw new Error(`No component schema ${name}`);
      defs[name] = rewrite(component);
    }
    return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
  }
}

/** Query values as the schema expects them: arrays for array parameters, absent for empty ones. */
function queryValues(operation: Operation, req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of operation.parameters) {
    if (p.in !== 'query') continue;
    const raw = (req.query as Record<string, unknown>)[p.name];
    if (raw === undefined) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).map((v) =>
      typeof v === 'string' ? v : JSON.stringify(v),
    );
    if (p.schema['type'] === 'array') {
      out[p.name] = values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '');
      continue;
    }
    const given = values
      .filter((v) => v !== '' || p.schema['type'] === 'string')
      .map((v) => (p.schema['type'] === 'boolean' ? v.toLowerCase() : v));
    // A scalar given several times reads as the ecosystem's web layer reads it: a string joins the values
    // with commas, any other type takes the first (`?createIfNotExists=false&createIfNotExists=false`).
    if (given.length > 0) out[p.name] = p.schema['type'] === 'string' ? given.join(',') : given[0];
  }
  return out;
}

const ARTICLE: Record<string, string> = {
  array: 'an array',
  object: 'an object',
  integer: 'an integer',
  string: 'a string',
  boolean: 'a boolean (true or false)',
  number: 'a number',
  null: 'null',
};

/** The first problem ajv found, as the ecosystem words such problems where it has words for them. */
function problem(errors: readonly ErrorObject[], where: 'query' | 'body'): Error {
  const error = errors[0];
  if (error === undefined) return new ValidationError(`Invalid request ${where}`);
  const segments = error.instancePath.split('/').slice(1).map(decodePointer);
  if (where === 'query') {
    const name = segments[0] ?? String((error.params as { missingProperty?: unknown }).missingProperty);
    if (error.keyword === 'required')
      return new ValidationError(
        `Missing required query parameter ${String(error.params['missingProperty'])}`,
      );
    return new ValidationError(
      `Query parameter ${name} ${describe(error)}, got ${JSON.stringify(error.data)}`,
    );
  }
  const at = segments.length === 0 ? '' : ` at /${segments.join('/')}`;
  switch (error.keyword) {
    case 'required': {
      const missing = String(error.params['missingProperty']);
      // A schema may word it as the ecosystem does for that object (REQUIRED_MESSAGES).
      const worded = (error.parentSchema as JsonSchema | undefined)?.[REQUIRED_MESSAGES] as
        Record<string, string> | undefined;
      return new ValidationError(worded?.[missing] ?? `Missing \`${missing}\` field`);
    }
    case 'additionalProperties':
      return new ValidationError(`Unknown property ${String(error.params['additionalProperty'])}${at}`);
    case 'type': {
      const last = segments[segments.length - 1];
      const what = ARTICLE[String(error.params['type'])] ?? String(error.params['type']);
      if (last === undefined) return new ValidationError(`The body must be ${what}`);
      return new ValidationError(
        `Value of property '${last}'${segments.length > 1 ? ` at /${segments.slice(0, -1).join('/')}` : ''} must be ${what}`,
      );
    }
    default:
      return new ValidationError(`The body${at} ${describe(error)}`);
  }
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'type')
    return `must be ${ARTICLE[String(error.params['type'])] ?? String(error.params['type'])}`;
  if (error.keyword === 'enum')
    return `must be one of ${(error.params['allowedValues'] as unknown[]).map((v) => String(v)).join(', ')}`;
  return error.message ?? 'is invalid';
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
