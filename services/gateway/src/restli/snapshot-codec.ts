import {
  checkProposal,
  describeProblems,
  entityRegistry,
  isDomainError,
  SchemaValidationError,
  ValidationError,
  type AspectSpec,
  type CheckedProposal,
  type DomainError,
  type EntitySpec,
  type FieldProblem,
  withDoubles,
} from '@catalog/model';
import type { StoredAspect } from '@catalog/store';

/**
 * The legacy snapshot form of an entity (`com.linkedin.metadata.snapshot.<X>Snapshot`): the registry
 * names the snapshot of every entity type that has one (the ecosystem's Snapshot union); an entity
 * type without one has no legacy form.
 */
let bySnapshot: ReadonlyMap<string, EntitySpec> | undefined;

/** The entity type whose snapshot record this is, or undefined. */
export function entityOfSnapshot(snapshotName: string): EntitySpec | undefined {
  bySnapshot ??= new Map(
    entityRegistry
      .entities()
      .filter((e) => e.snapshotName !== undefined)
      .map((e) => [e.snapshotName!, e]),
  );
  return bySnapshot.get(snapshotName);
}

/** Every snapshot name, sorted: what an error about an unknown one lists. */
export function snapshotNames(): string[] {
  entityOfSnapshot('');
  return [...bySnapshot!.keys()].sort();
}

const byRecord = new Map<string, ReadonlyMap<string, AspectSpec>>();

/** The entity's versioned aspect whose record has this fully qualified name (the union member key). */
export function aspectOfRecord(entity: EntitySpec, recordName: string): AspectSpec | undefined {
  let map = byRecord.get(entity.name);
  if (map === undefined) {
    map = new Map([...entity.aspects.values()].map((a) => [a.recordName, a]));
    byRecord.set(entity.name, map);
  }
  return map.get(recordName);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The single member of a union value `{"<fqn>": value}`, named `where` in errors. */
function unionMember(raw: unknown, where: string): [string, unknown] {
  if (!isObject(raw)) throw new ValidationError(`${where} must be an object {"<record name>": {...}}`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) {
    throw new ValidationError(
      `${where} must have exactly one member, the record name of its value; got ${keys.length === 0 ? 'none' : keys.join(', ')}`,
    );
  }
  return [keys[0]!, raw[keys[0]!]];
}

/**
 * The UPSERT proposals an `Entity` of the legacy ingest carries: `{value: {"<snapshot>": {urn, aspects:
 * [{"<aspect record>": {...}}]}}}`, one per aspect, each checked as ingestProposal checks its proposal (so
 * a value failing its schema is a SchemaValidationError, a 422, and unknown fields are dropped).
 * Unknown snapshots and aspects are a ValidationError naming them.
 */
export function proposalsOfEntity(
  raw: unknown,
  systemMetadata: unknown,
  where = 'entity',
): CheckedProposal[] {
  if (!isObject(raw)) throw new ValidationError(`${where} is required, as {"value": {"<snapshot>": {...}}}`);
  const [snapshotName, snapshot] = unionMember(raw['value'], `${where}.value`);
  const entity = entityOfSnapshot(snapshotName);
  if (!entity) {
    throw new ValidationError(
      `Unknown snapshot ${snapshotName} in ${where}.value; known: ${snapshotNames().join(', ')}`,
    );
  }
  if (!isObject(snapshot)) throw new ValidationError(`${where}.value.${snapshotName} must be an object`);
  const urn = snapshot['urn'];
  if (typeof urn !== 'string' || urn === '')
    throw new ValidationError(`${where}.value.${snapshotName}.urn is required`);
  const aspects = snapshot['aspects'];
  if (!Array.isArray(aspects))
    throw new ValidationError(`${where}.value.${snapshotName}.aspects must be an array`);

  const checked: CheckedProposal[] = [];
  const errors: { at: string; error: DomainError }[] = [];
  aspects.forEach((item, i) => {
    const at = `${where}.value.${snapshotName}.aspects[${i}]`;
    const [recordName, value] = unionMember(item, at);
    const aspect = aspectOfRecord(entity, recordName);
    if (!aspect) {
      throw new ValidationError(`Unknown aspect ${recordName} at ${at} for snapshot ${snapshotName}`);
    }
    if (aspect.kind !== 'versioned') {
      throw new ValidationError(
        `${recordName} at ${at} is a time-series aspect, which a snapshot does not carry; use ingestProposal`,
      );
    }
    try {
      checked.push(
        checkProposal({
          entityType: entity.name,
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: aspect.name,
          aspect: { value: JSON.stringify(value ?? null), contentType: 'application/json' },
          ...(systemMetadata === undefined || systemMetadata === null ? {} : { systemMetadata }),
        }),
      );
    } catch (error) {
      if (!isDomainError(error)) throw error;
      errors.push({ at: `${at}.${recordName}`, error });
    }
  });
  if (errors.length === 0) return checked;
  const message = errors.map(({ at, error }) => `${at}: ${error.message}`).join('; ');
  if (errors.every(({ error }) => error instanceof SchemaValidationError)) {
    const problems: FieldProblem[] = errors.flatMap(({ at, error }) =>
      (error as SchemaValidationError).problems.map((p) => ({ path: `${at}.${p.path}`, message: p.message })),
    );
    throw new SchemaValidationError(`Invalid snapshot: ${describeProblems(problems)}`, problems);
  }
  throw new ValidationError(`Invalid snapshot: ${message}`);
}

/** The snapshot union of an entity's stored aspects: `{"<snapshot>": {urn, aspects: [{"<record>": {...}}]}}`. */
export function snapshotOf(
  entity: EntitySpec,
  urn: string,
  aspects: readonly StoredAspect[],
): Record<string, unknown> {
  const items = aspects.flatMap((a) => {
    const spec = entity.aspects.get(a.aspect);
    return spec && spec.kind === 'versioned' ? [{ [spec.recordName]: withDoubles(a.aspect, a.value) }] : [];
  });
  return { [entity.snapshotName!]: { urn, aspects: items } };
}
