import jsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { describeProblems, SchemaValidationError, ValidationError } from '../errors.js';
import type { AspectSpec } from '../types.js';
import { validateAspect } from '../validate.js';
import { PATCH_TEMPLATES, type PatchTemplate } from './patch-templates.js';
import { fromPatchForm, newTransformState, toPatchForm, type NumberKeys } from './template-transform.js';

/** A patch as the ecosystem sends it: JSON Patch operations, and the generic form's array keys. */
export interface AspectPatch {
  readonly operations: readonly Operation[];
  /** Top-level arrays keyed by these fields while the patch applies (the generic form). */
  readonly arrayPrimaryKeys?: Readonly<Record<string, readonly string[]>>;
  readonly forceGenericPatch?: boolean;
}

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * Reads a patch document: a JSON Patch array, or `{patch, arrayPrimaryKeys?, forceGenericPatch?}`.
 * Throws ValidationError "Invalid JSON Patch" naming what is wrong.
 */
export function parseAspectPatch(raw: unknown): AspectPatch {
  const invalid = (why: string) => new ValidationError(`Invalid JSON Patch: ${why}`);
  let operations: unknown = raw;
  let arrayPrimaryKeys: Record<string, readonly string[]> | undefined;
  let forceGenericPatch = false;
  if (!Array.isArray(raw)) {
    if (typeof raw !== 'object' || raw === null)
      throw invalid('expected an array of operations or {patch: [...]}');
    const object = raw as Record<string, unknown>;
    operations = object['patch'];
    if (object['arrayPrimaryKeys'] !== undefined && object['arrayPrimaryKeys'] !== null) {
      const keys = object['arrayPrimaryKeys'];
      if (typeof keys !== 'object' || Array.isArray(keys))
        throw invalid('arrayPrimaryKeys must be an object');
      arrayPrimaryKeys = {};
      for (const [field, fields] of Object.entries(keys as Record<string, unknown>)) {
        if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string'))
          throw invalid(`arrayPrimaryKeys.${field} must be a list of field names`);
        arrayPrimaryKeys[field] = fields as string[];
      }
    }
    forceGenericPatch = object['forceGenericPatch'] === true;
  }
  if (!Array.isArray(operations)) throw invalid('"patch" must be an array of operations');
  operations.forEach((op: unknown, i) => {
    if (typeof op !== 'object' || op === null) throw invalid(`operation ${i} is not an object`);
    const { op: name, path } = op as { op?: unknown; path?: unknown };
    if (typeof name !== 'string' || !OPS.has(name))
      throw new ValidationError(
        `Unsupported PATCH operation: ${JSON.stringify(name)} Operation ${JSON.stringify(op)}`,
      );
    if (typeof path !== 'string' || (path !== '' && !path.startsWith('/')))
      throw invalid(`operation ${i} has no JSON pointer path`);
  });
  return {
    operations: operations as Operation[],
    ...(arrayPrimaryKeys === undefined ? {} : { arrayPrimaryKeys }),
    ...(forceGenericPatch ? { forceGenericPatch } : {}),
  };
}

/**
 * Applies a patch to the latest value of an aspect, as the ecosystem's templates do: keyed arrays become
 * maps while the operations apply (so an add of the same key replaces that entry and a remove of an absent
 * key does nothing), missing intermediate objects are created, and the result must fit the aspect's
 * schema. Throws ValidationError for an operation that cannot apply (or an absent aspect whose template
 * has no default), SchemaValidationError for a result that does not fit.
 */
export function applyAspectPatch(
  spec: AspectSpec,
  current: Readonly<Record<string, unknown>> | undefined,
  patch: AspectPatch,
  now: number,
): Record<string, unknown> {
  const registered = PATCH_TEMPLATES[spec.name];
  const generic = patch.forceGenericPatch === true || Object.keys(patch.arrayPrimaryKeys ?? {}).length > 0;
  // The generic path keys the arrays the patch names; it too starts from the template's default (the
  // SDK's builders send arrayPrimaryKeys for glossary terms, whose audit stamp the default supplies).
  const template: PatchTemplate = generic
    ? {
        arrays: Object.entries(patch.arrayPrimaryKeys ?? {}).map(([field, keys]) => ({
          path: [field],
          keys,
        })),
      }
    : (registered ?? { arrays: [] });
  if (current === undefined && registered !== undefined && registered.defaultValue === undefined)
    throw new ValidationError(
      `Patch not supported for aspect with name ${spec.name}. Default aspect is required because no aspect currently exists.`,
    );
  const start = current ?? registered?.defaultValue?.(now) ?? {};
  const document = structuredClone(start) as Record<string, unknown>;
  const state = newTransformState();
  toPatchForm(document, template, spec.schema, state, now);
  for (const given of patch.operations) {
    const operation = prepare(document, given, state.numberKeys);
    if (operation === undefined) continue;
    try {
      jsonPatch.applyOperation(document, structuredClone(operation), true, true, false);
    } catch (error) {
      // fast-json-patch appends the whole document to its message: only its first line names the problem.
      const reason = (error as Error).message.split('\n')[0];
      throw new ValidationError(`Invalid patch operation ${JSON.stringify(operation)}: ${reason}`);
    }
  }
  fromPatchForm(document, template, spec.schema, state, now);
  const outcome = validateAspect(spec, document);
  if (!outcome.ok)
    throw new SchemaValidationError(
      `Invalid ${spec.name} (${spec.recordName}) after the patch: ${describeProblems(outcome.problems)}`,
      outcome.problems,
    );
  return outcome.value;
}

/** The segments of a JSON pointer, unescaped (RFC 6901). */
function segmentsOf(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A JSON pointer of segments (RFC 6901 escaping). */
function pointerOf(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** A decimal number as JSON or the SDK's Python writes it (`30`, `30.0`, `-1.5e+16`). */
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The key a path segment stands for in `node`: itself, or the key of the same number. */
function keyIn(node: Record<string, unknown>, segment: string, numberKeys: NumberKeys): string {
  if (Object.hasOwn(node, segment) || !DECIMAL.test(segment)) return segment;
  return numberKeys.get(node)?.get(Number(segment)) ?? segment;
}

/**
 * Creates every missing intermediate object on the operation's path, as the ecosystem does, and spells
 * numeric keys as the document does; undefined for a remove whose target is absent, which is then a no-op.
 */
function prepare(
  document: Record<string, unknown>,
  operation: Operation,
  numberKeys: NumberKeys,
): Operation | undefined {
  const segments = segmentsOf(operation.path);
  const keyed = (): Operation => {
    const path = pointerOf(segments);
    return path === operation.path ? operation : { ...operation, path };
  };
  let node: Record<string, unknown> = document;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = (segments[i] = keyIn(node, segments[i]!, numberKeys));
    const next = node[segment];
    if (next === undefined || next === null) {
      if (operation.op === 'remove') return undefined;
      node[segment] = {};
    } else if (typeof next !== 'object') {
      return keyed();
    }
    node = node[segment] as Record<string, unknown>;
  }
  const last = segments.length - 1;
  if (last >= 0 && !Array.isArray(node)) segments[last] = keyIn(node, segments[last]!, numberKeys);
  if (operation.op === 'remove' && !Array.isArray(node)) {
    const key = segments[last];
    if (key === undefined || !Object.hasOwn(node, key)) return undefined;
  }
  return keyed();
}
