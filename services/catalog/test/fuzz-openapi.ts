import fc from 'fast-check';
import { entityRegistry, parseUrn, type EntitySpec } from '@catalog/model';
import {
  bodyText,
  enc,
  hostileJson,
  hostileString,
  mutatedJson,
  queryString,
  segment,
  type FuzzRequest,
} from './fuzz-values.js';

/** The parts of the served OpenAPI document the generators read. */
type Schema = Readonly<Record<string, unknown>>;
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema?: Schema;
}
interface Operation {
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content?: Record<string, { schema?: Schema }> };
}
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components?: { readonly schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Routes left out: the explorers render pages, and each has its own suite. */
const SKIPPED = new Set([
  '/openapi/swagger-ui/index.html',
  '/api/graphiql',
  '/api/graphql',
  '/api/v2/graphql',
]);

/** A urn of each entity type whose key needs more than one part; the others take `urn:li:<type>:<id>`. */
const COMPOSITE: Readonly<Record<string, (id: string) => string>> = {
  dataset: (id) => `urn:li:dataset:(urn:li:dataPlatform:hive,fuzz.${id},PROD)`,
  chart: (id) => `urn:li:chart:(looker,${id})`,
  dashboard: (id) => `urn:li:dashboard:(looker,${id})`,
  dataFlow: (id) => `urn:li:dataFlow:(airflow,${id},PROD)`,
  dataJob: (id) => `urn:li:dataJob:(urn:li:dataFlow:(airflow,flow,PROD),${id})`,
  schemaField: (id) => `urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,fuzz.t,PROD),${id})`,
  mlModel: (id) => `urn:li:mlModel:(urn:li:dataPlatform:mlflow,${id},PROD)`,
  mlModelGroup: (id) => `urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,${id},PROD)`,
  mlFeature: (id) => `urn:li:mlFeature:(fuzz,${id})`,
  mlPrimaryKey: (id) => `urn:li:mlPrimaryKey:(fuzz,${id})`,
  mlFeatureTable: (id) => `urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,${id})`,
  dataPlatformInstance: (id) => `urn:li:dataPlatformInstance:(urn:li:dataPlatform:hive,${id})`,
  dataProcessInstance: (id) => `urn:li:dataProcessInstance:${id}`,
};

const byLowerName = new Map(entityRegistry.entities().map((e) => [e.name.toLowerCase(), e]));

/** A few urns of the entity type: valid ones where the type's key is known, plain ones otherwise. */
export function urnOf(entity: EntitySpec | undefined): fc.Arbitrary<string> {
  if (entity === undefined) return fc.constantFrom('urn:li:corpuser:fuzz', 'urn:li:tag:fuzz');
  const make = COMPOSITE[entity.name] ?? ((id: string) => `urn:li:${entity.name}:fuzz_${id}`);
  return fc.integer({ min: 0, max: 5 }).map((i) => {
    const urn = make(`e${i}`);
    try {
      entityRegistry.keyAspectFromUrn(parseUrn(urn));
    } catch {
      return `urn:li:${entity.name}:fuzz_e${i}`;
    }
    return urn;
  });
}

/** The entity type a route is about: `/openapi/v3/entity/<type>/...` or a path parameter. */
function entityOfRoute(route: string): EntitySpec | undefined {
  const match = /\/entity\/([^/{]+)/.exec(route);
  return match?.[1] === undefined ? undefined : byLowerName.get(match[1].toLowerCase());
}

/** A valid value for a JSON schema of the document ($ref followed, depth bounded). */
export function valueOf(schema: Schema | undefined, doc: OpenApiDocument, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined) return fc.constant({});
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
    return depth > 8 ? fc.constant({}) : valueOf(target, doc, depth + 1);
  }
  const examples = schema['examples'];
  if (Array.isArray(examples) && examples.length > 0) return fc.constantFrom(...(examples as unknown[]));
  if (schema['example'] !== undefined) return fc.constant(schema['example']);
  const choices = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0)
    return fc.oneof(...choices.slice(0, 6).map((c) => valueOf(c, doc, depth + 1)));
  const allOf = schema['allOf'] as Schema[] | undefined;
  if (Array.isArray(allOf) && allOf.length > 0) return valueOf(allOf[0], doc, depth + 1);
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0)
    return fc.constantFrom(...(schema['enum'] as unknown[]));
  if (schema['const'] !== undefined) return fc.constant(schema['const']);
  const type = Array.isArray(schema['type'])
    ? (schema['type'] as string[]).find((t) => t !== 'null')
    : (schema['type'] as string | undefined);
  switch (type) {
    case 'string':
      return schema['format'] === 'urn' || /urn/i.test(String(schema['description'] ?? ''))
        ? urnOf(undefined)
        : fc.oneof(
            fc.constantFrom('fuzz', 'urn:li:tag:pii', 'urn:li:corpuser:datahub'),
            fc.string({ maxLength: 12 }),
          );
    case 'integer':
      return fc.integer({
        min: typeof schema['minimum'] === 'number' ? schema['minimum'] : 0,
        max: Math.min(typeof schema['maximum'] === 'number' ? schema['maximum'] : 1_000, 1_000_000),
      });
    case 'number':
      return fc.double({ min: 0, max: 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 6
        ? fc.constant([])
        : fc.array(valueOf(schema['items'] as Schema | undefined, doc, depth + 1), { maxLength: 2 });
    case 'object':
    case undefined: {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const required = new Set((schema['required'] ?? []) as string[]);
      if (depth > 6) return fc.constant({});
      const entries = Object.entries(properties).slice(0, 30);
      if (entries.length === 0) return fc.constant({});
      return fc.record(Object.fromEntries(entries.map(([k, s]) => [k, valueOf(s, doc, depth + 1)])), {
        requiredKeys: entries.map(([k]) => k).filter((k) => required.has(k)),
      });
    }
    default:
      return fc.constant(null);
  }
}

function parameterValue(p: Parameter, route: string, doc: OpenApiDocument): fc.Arbitrary<string> {
  const entity = entityOfRoute(route);
  if (p.name === 'urn') return urnOf(entity ?? pickEntity());
  if (p.name === 'entityName') return fc.constantFrom('dataset', 'chart', 'dashboard', 'corpuser');
  if (p.name === 'aspectName')
    return fc.constantFrom('datasetProfile', 'operation', 'datasetUsageStatistics', 'status');
  if (p.name === 'kind') return fc.constantFrom('mcp', 'mcl', 'mcl-timeseries', 'usage-events');
  if (p.name === 'group') return fc.constantFrom('persistence', 'indexer', 'audit', 'nobody');
  if (p.name === 'ids') return urnOf(entity ?? pickEntity()).map((u) => `List(${enc(u)})`);
  const schema = p.schema ?? { type: 'string' };
  return valueOf(schema, doc).map((v) =>
    Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : JSON.stringify(v),
  );
}

function pickEntity(): EntitySpec {
  return entityRegistry.requireEntity('dataset');
}

/** The body examples of an action route, by action (the document lists one per action, in enum order). */
function actionExamples(op: Operation): Map<string, unknown> | undefined {
  const action = op.parameters?.find((p) => p.name === 'action');
  const actions = action?.schema?.['enum'] as string[] | undefined;
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const examples = schema?.['examples'] as unknown[] | undefined;
  if (actions === undefined || examples === undefined || examples.length !== actions.length) return undefined;
  return new Map(actions.map((a, i) => [a, examples[i]]));
}

/**
 * Requests for one documented operation: valid ones (parameters and body from the document's schemas
 * and examples) and mutated ones (the body, a path segment or the query string mangled).
 */
function operationRequests(
  route: string,
  method: string,
  op: Operation,
  doc: OpenApiDocument,
  seeds: ReadonlyMap<string, readonly unknown[]>,
): fc.Arbitrary<FuzzRequest> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query' && p.name !== 'action');
  const examples = actionExamples(op);
  const actions = [
    ...(examples?.keys() ??
      (op.parameters?.find((p) => p.name === 'action')?.schema?.['enum'] as string[] | undefined) ??
      []),
  ];
  const seedBodies = seeds.get(`${method.toUpperCase()} ${route}`);

  const action =
    actions.length > 0
      ? fc.constantFrom(...actions).map((a): string | undefined => a)
      : fc.constant(undefined);
  return action.chain((actionName) => {
    const schema = op.requestBody?.content?.['application/json']?.schema;
    const seedsOfAction = seedBodies?.filter(
      (b) => actionName === undefined || (b as { action?: string }).action === actionName,
    );
    const validBody: fc.Arbitrary<unknown> | undefined =
      op.requestBody === undefined
        ? undefined
        : seedsOfAction !== undefined && seedsOfAction.length > 0
          ? fc.constantFrom(...seedsOfAction.map((b) => (b as { body: unknown }).body))
          : actionName !== undefined && examples?.has(actionName)
            ? fc.constant(examples.get(actionName))
            : valueOf(schema, doc);
    const pathValues = fc.tuple(...pathParams.map((p) => parameterValue(p, route, doc)));
    const query = fc.record(
      Object.fromEntries(queryParams.map((p) => [p.name, parameterValue(p, route, doc)])),
      { requiredKeys: queryParams.filter((p) => p.required === true).map((p) => p.name) },
    ) as fc.Arbitrary<Record<string, string>>;
    const withAction = query.map((q) => (actionName === undefined ? q : { action: actionName, ...q }));
    const mode = fc.constantFrom('valid', 'valid', 'valid', 'body', 'body', 'path', 'query');
    return fc
      .tuple(mode, pathValues, withAction, validBody ?? fc.constant(undefined))
      .chain(([m, values, q, body]) => {
        const segments =
          m === 'path' && values.length > 0
            ? fc.tuple(...values.map((v) => segment(v)))
            : fc.constant(values.map((v) => enc(v)));
        const queryText = m === 'query' ? queryString(fc.constant(q)) : fc.constant(encodeQuery(q));
        const bodyArb =
          op.requestBody === undefined
            ? m === 'body'
              ? bodyText(hostileJson).map((b): string | undefined => b)
              : fc.constant(undefined)
            : m === 'body'
              ? bodyText(mutatedJson(body))
              : fc.constant(JSON.stringify(body) ?? 'null');
        return fc.tuple(segments, queryText, bodyArb).map(([segs, qs, b]) => {
          let i = 0;
          const path = route.replace(/\{[^}]+\}/g, () => segs[i++] ?? '');
          return {
            method: method.toUpperCase(),
            path: `${path}${qs}`,
            route: `${method.toUpperCase()} ${route}${actionName === undefined ? '' : `?action=${actionName}`}`,
            ...(b === undefined ? {} : { body: b }),
          };
        });
      });
  });
}

function encodeQuery(q: Record<string, string>): string {
  const entries = Object.entries(q);
  return entries.length === 0 ? '' : `?${entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
}

/**
 * Every operation of the document as a generator, the entity routes (thousands, one set per entity type
 * and aspect) sampled so that each kind of route is drawn about as often as each other route.
 */
export function documentRequests(
  doc: OpenApiDocument,
  seeds: ReadonlyMap<string, readonly unknown[]>,
): { readonly routes: number; readonly arbitrary: fc.Arbitrary<FuzzRequest> } {
  const entityRoutes: fc.Arbitrary<FuzzRequest>[] = [];
  const otherRoutes: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [route, item] of Object.entries(doc.paths)) {
    if (SKIPPED.has(route)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const arbitrary = operationRequests(route, method, op, doc, seeds);
      (/^\/openapi\/v[23]\/entity\//.test(route) ? entityRoutes : otherRoutes).push(arbitrary);
    }
  }
  return {
    routes: entityRoutes.length + otherRoutes.length,
    arbitrary: fc.oneof(
      { weight: 3, arbitrary: fc.oneof(...entityRoutes) },
      { weight: 2, arbitrary: fc.oneof(...otherRoutes) },
    ),
  };
}

/** Requests with a hostile path under a route prefix: odd urns, bad encoding, long segments. */
export const hostilePaths: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom(
      '/entitiesV2/',
      '/entities/',
      '/aspects/',
      '/openapi/v3/entity/dataset/',
      '/openapi/v2/entity/dataset/',
      '/openapi/v3/entity/',
      '/openapi/v2/timeseries/dataset/',
      '/openapi/v2/timeline/v1/',
      '/openapi/timeline/v1/',
      '/schema-registry/api/subjects/',
      '/openapi/operations/messaging/',
    ),
    hostileString,
    fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH', 'PUT'),
    fc.constantFrom(
      '',
      '/status',
      '/globalTags',
      '/%',
      '/..',
      '?aspect=status&version=0',
      '?aspects=List(%)',
    ),
  )
  .chain(([prefix, raw, method, suffix]) =>
    fc.constantFrom(enc(raw), raw.replace(/[?#]/g, ''), '%E0%A4').map((seg) => ({
      method,
      path: `${prefix}${seg.slice(0, 6_000)}${suffix}`,
      route: `${method} ${prefix}<hostile>`,
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
    })),
  );
