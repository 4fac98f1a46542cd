import { refOf, type EntityRef } from '../entities/entity-ref.js';
import { typeNameOfEntity } from '../entities/entity-types.js';
import { MATCH_CONDITIONS, POLICY_STATES, POLICY_TYPES } from '../../application/policy-info.js';

/** The GraphQL `Policy` of a stored `dataHubPolicyInfo` aspect (the aspect keeps the ecosystem's wire form). */

type Json = Readonly<Record<string, unknown>>;

/** GraphQL `Policy` of a stored aspect; undefined when its type or state is none GraphQL can show. */
export function policyView(urn: string, info: Json) {
  const type = upper(info['type']);
  const state = upper(info['state']);
  if (!isOneOf(type, POLICY_TYPES) || !isOneOf(state, POLICY_STATES)) return undefined;
  const resources = record(info['resources']);
  const actors = record(info['actors']) ?? {};
  return {
    urn,
    type,
    name: str(info['displayName']) ?? urn,
    state,
    description: str(info['description']),
    resources: resources === undefined ? null : resourceView(resources),
    privileges: strings(info['privileges']) ?? [],
    actors: actorView(actors),
    // The aspect's default: only the bootstrap's system policies say false.
    editable: info['editable'] !== false,
  };
}

function resourceView(resources: Json) {
  const filter = record(resources['filter']);
  const criteria = Array.isArray(filter?.['criteria']) ? (filter['criteria'] as unknown[]) : undefined;
  return {
    type: str(resources['type']),
    resources: strings(resources['resources']),
    allResources: resources['allResources'] === true,
    filter:
      filter === undefined
        ? null
        : {
            criteria: (criteria ?? []).flatMap((raw) => {
              const c = record(raw);
              const condition = upper(c?.['condition'] ?? 'EQUALS');
              if (c === undefined || typeof c['field'] !== 'string' || !isOneOf(condition, MATCH_CONDITIONS))
                return [];
              return [
                {
                  field: c['field'],
                  values: (strings(c['values']) ?? []).map((value) => ({ value, entity: entityOf(value) })),
                  condition,
                },
              ];
            }),
          },
  };
}

function actorView(actors: Json) {
  const users = strings(actors['users']);
  const groups = strings(actors['groups']);
  const roles = strings(actors['roles']);
  const ownershipTypes = strings(actors['resourceOwnersTypes']);
  return {
    users,
    groups,
    roles,
    resourceOwners: actors['resourceOwners'] === true,
    resourceOwnersTypes: ownershipTypes,
    resolvedOwnershipTypes: refsOf(ownershipTypes, 'ownershipType'),
    allUsers: actors['allUsers'] === true,
    allGroups: actors['allGroups'] === true,
    resolvedUsers: refsOf(users, 'corpuser'),
    resolvedGroups: refsOf(groups, 'corpGroup'),
    resolvedRoles: refsOf(roles, 'dataHubRole'),
  };
}

/** The entity a criterion value names, when it is the urn of an entity type GraphQL can show. */
function entityOf(value: string): EntityRef | null {
  const ref = refOf(value);
  return ref !== undefined && typeNameOfEntity(ref.entity) !== undefined ? ref : null;
}

function refsOf(urns: readonly string[] | null, entity: string): EntityRef[] | null {
  if (urns === null) return null;
  return urns.flatMap((urn) => {
    const ref = refOf(urn);
    return ref !== undefined && ref.entity === entity ? [ref] : [];
  });
}

function isOneOf<T extends string>(value: string | undefined, allowed: readonly T[]): value is T {
  return value !== undefined && (allowed as readonly string[]).includes(value);
}

function upper(value: unknown): string | undefined {
  return typeof value === 'string' ? value.toUpperCase() : undefined;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function strings(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
}

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}
