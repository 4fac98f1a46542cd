import fc from 'fast-check';

/** One HTTP request of the fuzz suite: the path carries its query string, already encoded. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The route it was generated for (template form), to group what it finds. */
  readonly route: string;
}

/** encodeURIComponent, lone surrogates (which it cannot encode) sent as U+FFFD. */
export function enc(value: string): string {
  return encodeURIComponent(
    value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
  );
}

/** Strings a caller should never be able to break a route with. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u241F',
    '\uD800',
    '%',
    '%E0%A4',
    '%%%',
    '../../etc/passwd',
    'urn:li:',
    'urn:li:dataset:(',
    'urn:li:dataset:)',
    'urn:li:corpuser:',
    'urn:li:corpuser:a\u241Fb',
    ' urn:li:corpuser:padded ',
    'List(',
    '()',
    '(,)',
    '{"a":1}',
    '[]',
    'null',
    'true',
    '-1',
    '1e400',
    '9223372036854775808',
    'NaN',
    '__proto__',
    'constructor',
    "'; DROP TABLE aspects; --",
    '<script>alert(1)</script>',
    '😀'.repeat(8),
    'é\u0301',
    '\u202Eevil',
  ),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 513, max: 4_000 }).map((n) => `urn:li:corpuser:${'u'.repeat(n)}`),
);

/** Numbers beyond what a long or a JSON safe integer holds, and the awkward ones inside. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.5,
    2 ** 31,
    2 ** 53,
    2 ** 63,
    2 ** 64,
    -(2 ** 63),
    1e30,
    -1e30,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** A JSON value nested `depth` levels deep, arrays and objects alternating. */
export function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** Any JSON value, hostile leaves included. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.integer({ min: 50, max: 1_000 }).map(deeplyNested),
  fc.array(hostileString, { maxLength: 4 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
);

type Path = readonly (string | number)[];

/** Every path to a value inside `value` (the root included), up to `limit` of them. */
function pathsOf(value: unknown, limit = 200): Path[] {
  const out: Path[] = [[]];
  const walk = (v: unknown, at: Path): void => {
    if (out.length >= limit || typeof v !== 'object' || v === null) return;
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [i, x])
      : Object.entries(v as Record<string, unknown>);
    for (const [k, x] of entries) {
      out.push([...at, k]);
      walk(x, [...at, k]);
    }
  };
  walk(value, []);
  return out;
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function setAt(root: unknown, path: Path, replace: (old: unknown) => unknown | typeof DROP): unknown {
  if (path.length === 0) {
    const next = replace(root);
    return next === DROP ? undefined : next;
  }
  const copy = clone(root);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const next = replace(parent[last]);
  if (next === DROP) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    parent[last] = next;
  }
  return copy;
}

const DROP = Symbol('drop');

/**
 * A mutation of a valid JSON body: a field dropped, a value replaced by one of another type or a
 * hostile one, a value wrapped deep, an unknown field added, or the whole body swapped.
 */
export function mutatedJson(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  const at = fc.constantFrom(...paths);
  return fc.oneof(
    at.map((p) => setAt(valid, p, () => DROP)),
    fc.tuple(at, hostileJson).map(([p, v]) => setAt(valid, p, () => v)),
    fc.tuple(at, fc.integer({ min: 100, max: 1_000 })).map(([p, d]) =>
      setAt(valid, p, (old) => {
        let v = old;
        for (let i = 0; i < d; i++) v = [v];
        return v;
      }),
    ),
    fc
      .tuple(at, hostileString, hostileJson)
      .map(([p, k, v]) =>
        setAt(valid, p, (old) =>
          typeof old === 'object' && old !== null && !Array.isArray(old) ? { ...old, [k]: v } : old,
        ),
      ),
    // A list far longer than any caller needs: every list must be bounded before it reaches a store.
    fc
      .tuple(at, fc.integer({ min: 2_000, max: 40_000 }))
      .map(([p, n]) =>
        setAt(valid, p, (old) =>
          Array.isArray(old) && old.length > 0
            ? Array.from({ length: n }, (_, i) => (typeof old[0] === 'string' ? `${old[0]}${i}` : old[0]))
            : old,
        ),
      ),
    hostileJson,
  );
}

/**
 * A body as sent: JSON mostly, sometimes text that is not JSON at all, or JSON nested deeper than a
 * recursive parser's stack (written as text: it could not be built as a value and serialized).
 */
export function bodyText(json: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 9, arbitrary: json.map((v) => JSON.stringify(v) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 5_000, max: 200_000 }), fc.constantFrom('[', '{"a":'))
        .map(([n, open]) => `${open.repeat(n)}1${(open === '[' ? ']' : '}').repeat(n)}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{', '{"a":', '[1,2', 'not json', '\u0000', '{"a":1}{"b":2}', ''),
    },
  );
}

/** A percent-encoded path segment, or a broken one. */
export function segment(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(enc(value)) },
    { weight: 1, arbitrary: fc.constant(value.replace(/[?#]/g, '')) },
    {
      weight: 2,
      arbitrary: hostileString.chain((s) =>
        fc.constantFrom(enc(s), '%E0%A4', '%', '%zz', s.replace(/[?#/]/g, '') || '-'),
      ),
    },
  );
}

/** A query string made of given parameters, sometimes with a parameter mangled or added. */
export function queryString(params: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<string> {
  return fc
    .tuple(
      params,
      fc.option(fc.tuple(hostileString, hostileString), { freq: 4 }),
      fc.option(fc.constantFrom('%', '%E0%A4', '&&', '=', '==x', 'a[b]=c', 'a[0][1][2]=d'), { freq: 8 }),
    )
    .map(([p, extra, raw]) => {
      const entries = Object.entries(p).map(([k, v]) => `${enc(k)}=${enc(v)}`);
      if (extra !== null) entries.push(`${enc(extra[0])}=${enc(extra[1])}`);
      if (raw !== null) entries.push(raw);
      return entries.length === 0 ? '' : `?${entries.join('&')}`;
    });
}
