import type { PolicyInfo, PolicyRecord } from '../types.js';

/** Where a criterion's values come from, cheapest first: the order criteria are checked in. */
export type CriterionSource =
  /** Known from the request itself. */
  | 'type'
  | 'urn'
  /** A field the engine does not know: never matches, and costs nothing to say so. */
  | 'unknown'
  /** Read from the resource's aspects (ResourceResolver). */
  | 'attributes'
  /** The groups of a user resource (ActorDirectory). */
  | 'groupMembership';

export interface CompiledCriterion {
  /** Upper-cased: stored policies spell fields in either case. */
  readonly field: string;
  readonly source: CriterionSource;
  readonly values: readonly string[];
  readonly condition: string;
}

export type ResourceScope =
  /** PLATFORM policies, and METADATA policies without `resources`: any resource, or none. */
  | { readonly kind: 'any' }
  /** Every criterion must hold, and a request must name a resource (or at least its type). */
  | {
      readonly kind: 'filter';
      readonly criteria: readonly CompiledCriterion[];
      /** Whether some criterion needs facts read from the catalog. */
      readonly needsFacts: boolean;
    };

export interface CompiledActors {
  readonly allUsers: boolean;
  readonly users: ReadonlySet<string>;
  readonly allGroups: boolean;
  readonly groups: ReadonlySet<string>;
  readonly roles: ReadonlySet<string>;
  readonly resourceOwners: boolean;
  /** Absent: owners of any type qualify. */
  readonly ownerTypes?: ReadonlySet<string>;
}

/** An ACTIVE policy in the shape the engine evaluates: sets for lookups, the legacy form normalized. */
export interface CompiledPolicy {
  readonly urn: string;
  readonly privileges: ReadonlySet<string>;
  readonly scope: ResourceScope;
  readonly actors: CompiledActors;
  /** Whether the actor filter names groups or roles, so deciding needs the actor's memberships. */
  readonly needsActorState: boolean;
}

const ANY_RESOURCE: ResourceScope = { kind: 'any' };

const SOURCES: ReadonlyMap<string, CriterionSource> = new Map([
  ['TYPE', 'type'],
  ['RESOURCE_TYPE', 'type'],
  ['URN', 'urn'],
  ['RESOURCE_URN', 'urn'],
  ['OWNER', 'attributes'],
  ['DOMAIN', 'attributes'],
  ['CONTAINER', 'attributes'],
  ['TAG', 'attributes'],
  ['GLOSSARY', 'attributes'],
  ['DATA_PLATFORM_INSTANCE', 'attributes'],
  ['GROUP_MEMBERSHIP', 'groupMembership'],
]);

const SOURCE_COST: Readonly<Record<CriterionSource, number>> = {
  type: 0,
  urn: 0,
  unknown: 0,
  attributes: 1,
  groupMembership: 1,
};

/** Only ACTIVE policies grant (DRAFT and INACTIVE never do), so the others are not compiled at all. */
export function compilePolicy(record: PolicyRecord): CompiledPolicy | undefined {
  const { info } = record;
  if (info.state !== 'ACTIVE') return undefined;
  const actors = compileActors(info.actors);
  return {
    urn: record.urn,
    privileges: new Set(info.privileges ?? []),
    scope: scopeOf(info),
    actors,
    needsActorState: actors.allGroups || actors.groups.size > 0 || actors.roles.size > 0,
  };
}

function compileActors(actors: PolicyInfo['actors'] | undefined): CompiledActors {
  const ownerTypes = actors?.resourceOwnersTypes ?? [];
  return {
    allUsers: actors?.allUsers === true,
    users: new Set(actors?.users ?? []),
    allGroups: actors?.allGroups === true,
    groups: new Set(actors?.groups ?? []),
    roles: new Set(actors?.roles ?? []),
    resourceOwners: actors?.resourceOwners === true,
    // An empty type list is read as "no type filter": otherwise the policy could never grant anyone.
    ...(ownerTypes.length > 0 ? { ownerTypes: new Set(ownerTypes) } : {}),
  };
}

function scopeOf(info: PolicyInfo): ResourceScope {
  // Platform privileges concern no resource, whatever the policy's resources say.
  if (info.type === 'PLATFORM') return ANY_RESOURCE;
  const resources = info.resources;
  if (resources === undefined || resources === null) return ANY_RESOURCE;
  const raw: { field: string; values: readonly string[]; condition?: string }[] = [];
  if (resources.filter !== undefined && resources.filter !== null) {
    raw.push(...(resources.filter.criteria ?? []));
  } else {
    // The legacy form, as the ecosystem reads it: a type, plus a urn list unless allResources.
    if (typeof resources.type === 'string') raw.push({ field: 'TYPE', values: [resources.type] });
    if (Array.isArray(resources.resources) && resources.allResources !== true) {
      raw.push({ field: 'URN', values: resources.resources });
    }
  }
  const criteria = raw
    .map((criterion): CompiledCriterion => {
      const field = String(criterion.field).toUpperCase();
      return {
        field,
        source: SOURCES.get(field) ?? 'unknown',
        values: criterion.values ?? [],
        condition: criterion.condition ?? 'EQUALS',
      };
    })
    .sort((a, b) => SOURCE_COST[a.source] - SOURCE_COST[b.source]);
  return { kind: 'filter', criteria, needsFacts: criteria.some((c) => SOURCE_COST[c.source] > 0) };
}

/** One criterion against the resource's values of its field. */
export function criterionHolds(criterion: CompiledCriterion, fieldValues: readonly string[]): boolean {
  switch (criterion.condition) {
    case 'EQUALS':
      return criterion.values.some((value) => fieldValues.includes(value));
    case 'STARTS_WITH':
      return criterion.values.some((prefix) => fieldValues.some((value) => value.startsWith(prefix)));
    case 'NOT_EQUALS':
      return !criterion.values.some((value) => fieldValues.includes(value));
    default:
      return false;
  }
}
