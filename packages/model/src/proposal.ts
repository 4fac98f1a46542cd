import { describeProblems, SchemaValidationError, ValidationError } from './errors.js';
import { entityRegistry } from './registry/entity-registry.js';
import type { AspectSpec, EntitySpec, FieldProblem, Urn } from './types.js';
import { checkUrnForWrite, parseUrn } from './urn.js';
import { validateAspect } from './validate.js';
import { parseAspectPatch, type AspectPatch } from './patch/apply-patch.js';
import { timeseriesRangeFromHeaders, type TimeseriesRange } from './timeseries-range.js';
import { checkTestInfo } from './metadata-tests/definition.js';

/** Every change type of the ecosystem's MetadataChangeProposal. */
export const CHANGE_TYPES = [
  'UPSERT',
  'CREATE',
  'UPDATE',
  'DELETE',
  'PATCH',
  'RESTATE',
  'CREATE_ENTITY',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** The change types that apply to a single aspect and that this service performs. */
export const SUPPORTED_CHANGE_TYPES = ['UPSERT', 'CREATE', 'DELETE', 'CREATE_ENTITY', 'PATCH'] as const;
export type SupportedChangeType = (typeof SUPPORTED_CHANGE_TYPES)[number];

/** A proposal as JSON on the wire (`proposal` of ingestProposal); aspect values are JSON text. */
export interface ProposalInput {
  readonly entityType?: unknown;
  readonly entityUrn?: unknown;
  readonly entityKeyAspect?: unknown;
  readonly changeType?: unknown;
  readonly aspectName?: unknown;
  readonly aspect?: unknown;
  readonly systemMetadata?: unknown;
  readonly headers?: unknown;
}

export interface CheckedSystemMetadata {
  readonly lastObserved?: number;
  readonly runId?: string;
  readonly lastRunId?: string;
  readonly pipelineName?: string;
  readonly registryName?: string;
  readonly registryVersion?: string;
  readonly version?: string;
  readonly properties?: Readonly<Record<string, string>>;
}

/** A proposal that passed every check that needs no stored state. */
export interface CheckedProposal {
  readonly entity: EntitySpec;
  readonly urn: Urn;
  readonly changeType: SupportedChangeType;
  /**
   * The aspect written. CREATE_ENTITY takes any aspect (the key aspect when aspectName is absent): it
   * writes the aspect only when the entity's key aspect does not exist yet, as the ecosystem does.
   */
  readonly aspect: AspectSpec;
  /** The validated value, unknown fields dropped; absent for DELETE and PATCH. */
  readonly value?: Record<string, unknown>;
  /** For PATCH: the patch, applied to the latest stored value when persistence writes it. */
  readonly patch?: AspectPatch;
  /** For PATCH: the patch document as it came, to pass on unchanged. */
  readonly patchDocument?: unknown;
  /**
   * For a DELETE of a time-series aspect: the values to delete, by timestampMillis, from the headers
   * X-Timeseries-Start-Time-Millis and X-Timeseries-End-Time-Millis (see timeseries-range.ts); {} (no
   * bound) deletes every value of the entity's aspect.
   */
  readonly timeseriesRange?: TimeseriesRange;
  readonly systemMetadata?: CheckedSystemMetadata;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Checks a proposal without state: URN syntax and the checks every write applies to it (checkUrnForWrite), entity and aspect known to the registry, the entity type
 * matching the URN, the change type, and the value against the aspect's schema. Throws ValidationError
 * (or SchemaValidationError for a value that fails its schema) naming the problem.
 */
export function checkProposal(input: unknown): CheckedProposal {
  if (!isObject(input)) throw new ValidationError('proposal must be an object');
  const p = input as ProposalInput;

  if (typeof p.entityType !== 'string' || p.entityType === '') {
    throw new ValidationError('proposal.entityType is required');
  }
  const entity = entityRegistry.getEntity(p.entityType);
  if (!entity) throw new ValidationError(`Unknown entity type: ${p.entityType}`);

  const changeType = checkChangeType(p.changeType);
  const urn = resolveUrn(p, entity);
  const aspect = resolveAspect(p, entity, changeType);
  const systemMetadata = checkSystemMetadata(p.systemMetadata);
  const headers = checkHeaders(p.headers);

  if (aspect.kind === 'timeseries' && changeType !== 'UPSERT' && changeType !== 'DELETE') {
    throw new ValidationError(
      `Time-series aspect ${aspect.name} only takes changeType UPSERT or DELETE, got ${changeType}`,
    );
  }
  if (changeType === 'DELETE' && aspect.kind === 'timeseries') {
    // The range to delete; a DELETE of a versioned aspect ignores these headers, as it does any other.
    const timeseriesRange = timeseriesRangeFromHeaders(headers);
    return { entity, urn, changeType, aspect, timeseriesRange, ...opt({ systemMetadata, headers }) };
  }
  if (changeType === 'DELETE') {
    return { entity, urn, changeType, aspect, ...opt({ systemMetadata, headers }) };
  }

  if (changeType === 'PATCH') {
    if (aspect.isKey) throw new ValidationError(`The key aspect ${aspect.name} cannot be patched`);
    const patchDocument = parseJsonValue(p.aspect, 'proposal.aspect');
    const patch = parseAspectPatch(patchDocument);
    return { entity, urn, changeType, aspect, patch, patchDocument, ...opt({ systemMetadata, headers }) };
  }
  let value: Record<string, unknown>;
  if (changeType === 'CREATE_ENTITY' && aspect.isKey && p.aspect === undefined) {
    value = entityRegistry.keyAspectFromUrn(urn).value;
  } else {
    value = parseAspectValue(p.aspect, aspect);
  }
  if (aspect.isKey) value = checkKeyMatchesUrn(value, urn);
  // A metadata test's definition must parse, whichever route (or Kafka producer) writes it.
  if (aspect.name === 'testInfo') checkTestInfo(value);
  return { entity, urn, changeType, aspect, value, ...opt({ systemMetadata, headers }) };
}

function checkChangeType(raw: unknown): SupportedChangeType {
  if (typeof raw !== 'string' || !(CHANGE_TYPES as readonly string[]).includes(raw)) {
    throw new ValidationError(
      `Unknown changeType ${JSON.stringify(raw ?? null)}; expected one of ${CHANGE_TYPES.join(', ')}`,
    );
  }
  if (!(SUPPORTED_CHANGE_TYPES as readonly string[]).includes(raw)) {
    throw new ValidationError(
      `changeType ${raw} is not supported; this service accepts ${SUPPORTED_CHANGE_TYPES.join(', ')}`,
    );
  }
  return raw as SupportedChangeType;
}

function resolveUrn(p: ProposalInput, entity: EntitySpec): Urn {
  if (p.entityUrn !== undefined && p.entityUrn !== null) {
    if (typeof p.entityUrn !== 'string') throw new ValidationError('proposal.entityUrn must be a string');
    checkUrnForWrite(p.entityUrn);
    const urn = parseUrn(p.entityUrn);
    if (urn.entityType !== entity.name) {
      throw new ValidationError(
        `The entity type of urn ${urn.raw} is ${urn.entityType}, but proposal.entityType is ${entity.name}`,
      );
    }
    // Derives the key now so a URN whose id does not fit the entity's key is refused at the door.
    entityRegistry.keyAspectFromUrn(urn);
    return urn;
  }
  if (p.entityKeyAspect === undefined || p.entityKeyAspect === null) {
    throw new ValidationError('proposal.entityUrn is required (or proposal.entityKeyAspect)');
  }
  const keySpec = entity.aspects.get(entity.keyAspect);
  if (!keySpec) throw new ValidationError(`Entity type ${entity.name} has no key aspect`);
  const key = parseAspectValue(p.entityKeyAspect, keySpec, 'proposal.entityKeyAspect');
  const raw = entityRegistry.urnFromKeyAspect(entity.name, key);
  checkUrnForWrite(raw);
  return parseUrn(raw);
}

function resolveAspect(p: ProposalInput, entity: EntitySpec, changeType: SupportedChangeType): AspectSpec {
  let name = p.aspectName;
  if ((name === undefined || name === null) && changeType === 'CREATE_ENTITY') name = entity.keyAspect;
  if (typeof name !== 'string' || name === '') throw new ValidationError('proposal.aspectName is required');
  const aspect = entity.aspects.get(name);
  if (!aspect) throw new ValidationError(`Unknown aspect ${name} for entity type ${entity.name}`);
  return aspect;
}

function parseAspectValue(
  raw: unknown,
  spec: AspectSpec,
  where = 'proposal.aspect',
): Record<string, unknown> {
  const parsed = parseJsonValue(raw, where);
  if (!isObject(parsed)) throw new ValidationError(`${where}.value must be a JSON object`);
  const outcome = validateAspect(spec, parsed);
  if (!outcome.ok) {
    throw new SchemaValidationError(
      `Invalid ${spec.name} (${spec.recordName}): ${describeProblems(outcome.problems)}`,
      outcome.problems,
    );
  }
  return outcome.value;
}

/** The JSON an aspect envelope `{value: "<json>", contentType}` carries. */
function parseJsonValue(raw: unknown, where: string): unknown {
  if (!isObject(raw))
    throw new ValidationError(
      `${where} is required, as {"value": "<json>", "contentType": "application/json"}`,
    );
  const { value, contentType } = raw as { value?: unknown; contentType?: unknown };
  if (contentType !== undefined && contentType !== null) {
    if (typeof contentType !== 'string' || !/^application\/json\b/i.test(contentType.trim())) {
      throw new ValidationError(
        `${where}.contentType must be application/json, got ${JSON.stringify(contentType)}`,
      );
    }
  }
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new ValidationError(`${where}.value is not valid JSON: ${(error as Error).message}`);
    }
  } else if (Buffer.isBuffer(value)) {
    try {
      parsed = JSON.parse(value.toString('utf8'));
    } catch (error) {
      throw new ValidationError(`${where}.value is not valid JSON: ${(error as Error).message}`);
    }
  } else if (value === undefined) {
    throw new ValidationError(`${where}.value is required`);
  } else {
    throw new ValidationError(`${where}.value must be the aspect serialized as a JSON string`);
  }
  return parsed;
}

function checkKeyMatchesUrn(value: Record<string, unknown>, urn: Urn): Record<string, unknown> {
  const derived = entityRegistry.keyAspectFromUrn(urn).value;
  const mismatched = Object.keys(derived).filter(
    (field) => value[field] !== undefined && JSON.stringify(value[field]) !== JSON.stringify(derived[field]),
  );
  if (mismatched.length > 0) {
    throw new ValidationError(`The key aspect does not match urn ${urn.raw} on ${mismatched.join(', ')}`);
  }
  return derived;
}

const SYSTEM_METADATA_STRINGS = [
  'runId',
  'lastRunId',
  'pipelineName',
  'registryName',
  'registryVersion',
  'version',
];

function checkSystemMetadata(raw: unknown): CheckedSystemMetadata | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new ValidationError('proposal.systemMetadata must be an object');
  const problems: FieldProblem[] = [];
  const out: Record<string, unknown> = {};
  const lastObserved = raw['lastObserved'];
  if (lastObserved !== undefined && lastObserved !== null) {
    // A long on the wire, and a safe integer in JSON: anything larger could not be written to the log.
    if (typeof lastObserved === 'number' && Number.isSafeInteger(lastObserved) && lastObserved >= 0)
      out['lastObserved'] = lastObserved;
    else
      problems.push({
        path: 'systemMetadata.lastObserved',
        message: 'must be a non-negative integer of milliseconds, at most 2^53 - 1',
      });
  }
  for (const field of SYSTEM_METADATA_STRINGS) {
    const v = raw[field];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string') out[field] = v;
    else problems.push({ path: `systemMetadata.${field}`, message: 'must be a string' });
  }
  const properties = raw['properties'];
  if (properties !== undefined && properties !== null) {
    const checked = checkStringMap(properties, 'systemMetadata.properties', problems);
    if (checked) out['properties'] = checked;
  }
  if (problems.length > 0) {
    throw new SchemaValidationError(`Invalid systemMetadata: ${describeProblems(problems)}`, problems);
  }
  return out as CheckedSystemMetadata;
}

function checkHeaders(raw: unknown): Readonly<Record<string, string>> | undefined {
  if (raw === undefined || raw === null) return undefined;
  const problems: FieldProblem[] = [];
  const checked = checkStringMap(raw, 'headers', problems);
  if (problems.length > 0)
    throw new ValidationError(`Invalid proposal.headers: ${describeProblems(problems)}`);
  return checked;
}

function checkStringMap(
  raw: unknown,
  path: string,
  problems: FieldProblem[],
): Record<string, string> | undefined {
  if (!isObject(raw)) {
    problems.push({ path, message: 'must be an object of strings' });
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === 'string') out[k] = v;
    else problems.push({ path: `${path}.${k}`, message: 'must be a string' });
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

function opt<T extends Record<string, unknown>>(fields: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
