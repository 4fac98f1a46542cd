import { randomUUID } from 'node:crypto';
import { checkNoControlCharacters, entityRegistry, isUrn, parseUrn, ValidationError } from '@catalog/model';
import { buildEntityDocument } from '@catalog/search';

/** An entity named in a request: its urn and entity type. */
export interface NamedEntity {
  readonly urn: string;
  readonly entity: string;
}

/** The entity a client named: a 400 naming the problem when the urn is malformed or of no known type. */
export function requireEntityUrn(urn: string): NamedEntity {
  checkNoControlCharacters(urn);
  if (!isUrn(urn)) throw new ValidationError(`Invalid urn: ${JSON.stringify(urn)}`);
  const entity = parseUrn(urn).entityType;
  entityRegistry.requireEntity(entity);
  return { urn, entity };
}

/** A urn a client gave, which must name an entity of one of these types (a 400 naming `field` otherwise). */
export function requireUrnOf(urn: string, entities: readonly string[], field: string): NamedEntity {
  checkNoControlCharacters(urn);
  const entity = isUrn(urn) ? parseUrn(urn).entityType : undefined;
  if (entity === undefined || !entities.includes(entity))
    throw new ValidationError(`${field} must be a ${entities.join(' or ')} urn, got ${JSON.stringify(urn)}`);
  return { urn, entity };
}

/** A urn a client gave that must name an entity of `entityType`: a 400 naming the problem otherwise. */
export function requireUrnOfType(urn: string, entityType: string): string {
  checkNoControlCharacters(urn);
  if (!isUrn(urn)) throw new ValidationError(`Invalid urn: ${JSON.stringify(urn)}`);
  if (parseUrn(urn).entityType !== entityType)
    throw new ValidationError(`Expected a ${entityType} urn, got ${JSON.stringify(urn)}`);
  return urn;
}

/**
 * The values a field of an entity's search document would hold, built from the aspects given: what the
 * listings kept beside the index (policies, ingestion sources) filter and match on.
 */
export function documentFieldValues(
  entityType: string,
  urn: string,
  aspects: ReadonlyMap<string, Record<string, unknown>>,
): (field: string) => readonly unknown[] {
  const document = buildEntityDocument(entityRegistry.requireEntity(entityType), urn, aspects);
  return (field) => {
    const value = document.fields[field];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  };
}

/** The id of a new entity: the one asked for, or a new UUID as the ecosystem makes. */
export function newIdOf(id: string | null | undefined): string {
  if (id === undefined || id === null) return randomUUID();
  const trimmed = id.trim();
  if (trimmed === '') throw new ValidationError('id must not be blank');
  return trimmed;
}
