import { checkNoControlCharacters, entityRegistry, isUrn, parseUrn, ValidationError } from '@catalog/model';

/** An entity in a GraphQL result: its URN and registry entity; fields are read when selected. */
export interface EntityRef {
  readonly urn: string;
  readonly entity: string;
  /** Values the parent already knows (e.g. a platform instance without an instance id). */
  readonly known?: Readonly<Record<string, unknown>>;
}

/** The reference of a stored URN; undefined for a string that is not a URN. */
export function refOf(urn: unknown, known?: Readonly<Record<string, unknown>>): EntityRef | undefined {
  if (typeof urn !== 'string') return undefined;
  let entity: string;
  try {
    entity = parseUrn(urn).entityType;
  } catch {
    return undefined;
  }
  return known === undefined ? { urn, entity } : { urn, entity, known };
}

/** The reference of a URN a client gave: a 400 naming the problem when it is malformed or unknown. */
export function requireRef(urn: string): EntityRef {
  checkNoControlCharacters(urn);
  if (!isUrn(urn)) throw new ValidationError(`Invalid urn: ${JSON.stringify(urn)}`);
  const entity = parseUrn(urn).entityType;
  entityRegistry.requireEntity(entity);
  return { urn, entity };
}

/** The key aspect values of an entity, derived from its URN; empty when the URN does not fit its key. */
export function keyOf(ref: EntityRef): Readonly<Record<string, unknown>> {
  try {
    return entityRegistry.keyAspectFromUrn(parseUrn(ref.urn)).value;
  } catch {
    return {};
  }
}
