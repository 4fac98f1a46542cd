import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import {
  eventKindOf,
  type OpenLineageEvent,
  type OpenLineageEventKind,
} from '../../application/openlineage/openlineage-event.js';
import specification from './openlineage-schema.generated.json' with { type: 'json' };

/** One reason an event is refused, as the ecosystem's error details list them. */
export interface EventProblem {
  /** JSON pointer into the event (`/run/runId`), or `/` for the whole event. */
  readonly path: string;
  /** The rule broken: a JSON Schema keyword (`required`, `format`, …), or `malformedJson`. */
  readonly rule: string;
  readonly message: string;
  /** The facet whose official schema was broken. */
  readonly facet?: string;
}

/** The most problems one answer lists (the ecosystem's MAX_ERRORS). */
export const MAX_EVENT_PROBLEMS = 50;

export type EventCheck =
  | { readonly ok: true; readonly event: OpenLineageEvent }
  | { readonly ok: false; readonly problems: readonly EventProblem[] };

type Json = Record<string, unknown>;
type FacetContainer = 'run' | 'job' | 'dataset' | 'inputDataset' | 'outputDataset';

interface Specification {
  readonly core: Json;
  readonly facets: readonly { container: FacetContainer; key: string; ref: string }[];
  readonly facetSchemas: readonly Json[];
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The core specification as events are checked against it. Two deliberate departures from
 * 2-0-2 (besides `uri` formats taking URI references): `schemaURL` is not required (the ecosystem never reads it, and its documented example and smoke
 * suite send events without it), and a RunEvent must say its `eventType` (without it the run has no
 * state change to record).
 */
function adjustedCore(core: Json): Json {
  const copy = structuredClone(core);
  const defs = copy['$defs'] as Record<string, Json>;
  const base = defs['BaseEvent']!;
  base['required'] = (base['required'] as string[]).filter((r) => r !== 'schemaURL');
  const runEvent = defs['RunEvent']!['allOf'] as Json[];
  const own = runEvent.find((part) => Array.isArray(part['required']))!;
  own['required'] = [...(own['required'] as string[]), 'eventType'];
  return copy;
}

/**
 * Checks a request body against the OpenLineage specification (the vendored
 * openlineage-schema.generated.json): the envelope of its kind (RunEvent, JobEvent or DatasetEvent, told
 * by its structure), then each official facet it carries against that facet's schema. Facets the
 * specification does not define stay opaque beyond the base facet's fields.
 */
export class OpenLineageEventValidator {
  private readonly envelopes: Record<OpenLineageEventKind, ValidateFunction>;
  private readonly facets = new Map<string, ValidateFunction>();

  constructor(spec: Specification = specification as unknown as Specification) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    formats.default(ajv, ['date-time', 'uuid']);
    // Producers put bare names where the specification asks for a URI (the ecosystem's documented
    // example sends a data source `uri` of `workshop-db`): any URI reference is taken.
    ajv.addFormat('uri', formats.default.get('uri-reference'));
    const core = adjustedCore(spec.core);
    ajv.addSchema(core);
    for (const schema of spec.facetSchemas) ajv.addSchema(schema);
    const id = core['$id'] as string;
    const envelope = (name: string) => ajv.getSchema(`${id}#/$defs/${name}`)!;
    this.envelopes = {
      RunEvent: envelope('RunEvent'),
      JobEvent: envelope('JobEvent'),
      DatasetEvent: envelope('DatasetEvent'),
    };
    for (const facet of spec.facets) {
      const validate = ajv.getSchema(facet.ref);
      if (validate !== undefined) this.facets.set(`${facet.container} ${facet.key}`, validate);
    }
  }

  /** The event, or why it is refused (at most MAX_EVENT_PROBLEMS reasons). */
  check(body: unknown): EventCheck {
    if (!isObject(body))
      return {
        ok: false,
        problems: [{ path: '/', rule: 'type', message: 'An event must be a JSON object' }],
      };
    const kind = eventKindOf(body);
    const validate = this.envelopes[kind];
    const problems: EventProblem[] = validate(body) ? [] : problemsOf(validate.errors ?? [], '');
    if (problems.length === 0) problems.push(...this.facetProblems(kind, body));
    if (problems.length > 0) return { ok: false, problems: problems.slice(0, MAX_EVENT_PROBLEMS) };
    return { ok: true, event: { kind, event: body } as unknown as OpenLineageEvent };
  }

  private facetProblems(kind: OpenLineageEventKind, body: Json): EventProblem[] {
    const found: EventProblem[] = [];
    const visit = (container: FacetContainer, facets: unknown, at: string) => {
      if (!isObject(facets)) return;
      for (const [key, value] of Object.entries(facets)) {
        const validate = this.facets.get(`${container} ${key}`);
        // A facet set to be deleted carries no fields to check.
        if (validate === undefined || (isObject(value) && value['_deleted'] === true)) continue;
        if (!validate(value))
          found.push(
            ...problemsOf(validate.errors ?? [], `${at}/${escape(key)}`).map((p) => ({ ...p, facet: key })),
          );
      }
    };
    const visitDataset = (dataset: unknown, at: string) => {
      if (!isObject(dataset)) return;
      visit('dataset', dataset['facets'], `${at}/facets`);
      visit('inputDataset', dataset['inputFacets'], `${at}/inputFacets`);
      visit('outputDataset', dataset['outputFacets'], `${at}/outputFacets`);
    };
    if (kind === 'RunEvent') visit('run', (body['run'] as Json)['facets'], '/run/facets');
    if (kind === 'DatasetEvent') visitDataset(body['dataset'], '/dataset');
    else {
      visit('job', (body['job'] as Json)['facets'], '/job/facets');
      for (const list of ['inputs', 'outputs'])
        (Array.isArray(body[list]) ? (body[list] as unknown[]) : []).forEach((d, i) =>
          visitDataset(d, `/${list}/${i}`),
        );
    }
    return found;
  }
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Ajv's errors as problems, the schema's combinators (allOf, anyOf) left out for the errors under them. */
function problemsOf(errors: readonly ErrorObject[], prefix: string): EventProblem[] {
  const seen = new Set<string>();
  const problems: EventProblem[] = [];
  for (const error of errors) {
    if (['allOf', 'anyOf', 'oneOf', 'if', 'not'].includes(error.keyword) && errors.length > 1) continue;
    let path = `${prefix}${error.instancePath}`;
    let message = error.message ?? error.keyword;
    if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      path = `${path}/${escape(missing)}`;
      message = `is required`;
    } else if (error.keyword === 'not') {
      message = 'a DatasetEvent carries no job or run, a JobEvent no run';
    }
    const key = `${path} ${error.keyword} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path: path === '' ? '/' : path, rule: error.keyword, message });
  }
  return problems;
}
