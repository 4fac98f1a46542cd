import {
  checkNoControlCharacters,
  entityRegistry,
  isUrn,
  parseUrn,
  ValidationError,
  type AspectSpec,
  type EntitySpec,
} from '@catalog/model';

/** The entity type named in a path, looked up case-insensitively as the ecosystem does. */
export function entityOfName(name: string): EntitySpec {
  const lower = name.toLowerCase();
  const entity = entityRegistry.entities().find((e) => e.name.toLowerCase() === lower);
  if (entity === undefined)
    throw new ValidationError(`Failed to find entity with name ${name} in EntityRegistry`);
  return entity;
}

/** An aspect of `entity` by its exact name or its all-lowercase spelling; undefined when it has none. */
export function aspectOfName(entity: EntitySpec, name: string): AspectSpec | undefined {
  const exact = entity.aspects.get(name);
  if (exact !== undefined) return exact;
  if (name !== name.toLowerCase()) return undefined;
  return [...entity.aspects.values()].find((a) => a.name.toLowerCase() === name);
}

/**
 * A urn from a path: `Invalid urn!: <urn>` (400) unless it parses and names a known entity type. A
 * control character gets a message of its own, which names it (the urn is quoted with it escaped).
 */
export function requireUrn(raw: string): { urn: string; entity: EntitySpec } {
  checkNoControlCharacters(raw);
  if (!raw.startsWith('urn:li:') || !isUrn(raw)) throw new ValidationError(`Invalid urn!: ${raw}`);
  const parsed = parseUrn(raw);
  const entity = entityRegistry.getEntity(parsed.entityType);
  if (entity === undefined) throw new ValidationError(`Invalid urn!: ${raw}`);
  try {
    entityRegistry.keyAspectFromUrn(parsed);
  } catch {
    throw new ValidationError(`Invalid urn!: ${raw}`);
  }
  return { urn: parsed.raw, entity };
}

/**
 * The urn and optional aspect name after `/{type}/` in a path. Clients send the urn percent-encoded or
 * raw, and a raw urn may itself contain `/`; the last segment is an aspect only when it names one of the
 * urn's entity and what precedes it is a urn.
 */
export function urnAndAspect(rawRest: string): { urn: string; entity: EntitySpec; aspect?: AspectSpec } {
  const slash = rawRest.lastIndexOf('/');
  if (slash > 0) {
    const head = safeDecode(rawRest.slice(0, slash));
    const tail = safeDecode(rawRest.slice(slash + 1));
    if (isUrn(head)) {
      const entity = entityRegistry.getEntity(parseUrn(head).entityType);
      const aspect = entity === undefined ? undefined : aspectOfName(entity, tail);
      if (aspect !== undefined) return { ...requireUrn(head), aspect };
    }
  }
  return requireUrn(safeDecode(rawRest));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError(`Invalid urn!: ${segment}`);
  }
}
