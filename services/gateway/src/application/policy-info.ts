import { isUrn, parseUrn, ValidationError } from '@catalog/model';

/**
 * A policy as a client writes it, and the stored `dataHubPolicyInfo` aspect it becomes. The aspect keeps
 * the ecosystem's wire form, so the policy engine, the Rest.li routes and the bootstrap policies read
 * what the policy use cases write.
 */

export const POLICY_TYPES = ['METADATA', 'PLATFORM'] as const;
export const POLICY_STATES = ['DRAFT', 'ACTIVE', 'INACTIVE'] as const;
export const MATCH_CONDITIONS = ['EQUALS', 'STARTS_WITH', 'NOT_EQUALS'] as const;

export interface PolicyMatchCriterionInput {
  readonly field: string;
  readonly values: readonly string[];
  readonly condition: string;
}

export interface ResourceFilterInput {
  readonly type?: string | null;
  readonly resources?: readonly string[] | null;
  readonly allResources?: boolean | null;
  readonly filter?: { readonly criteria?: readonly PolicyMatchCriterionInput[] | null } | null;
}

export interface ActorFilterInput {
  readonly users?: readonly string[] | null;
  readonly groups?: readonly string[] | null;
  readonly roles?: readonly string[] | null;
  readonly resourceOwners: boolean;
  readonly resourceOwnersTypes?: readonly string[] | null;
  readonly allUsers: boolean;
  readonly allGroups: boolean;
}

/** GraphQL `PolicyUpdateInput`. */
export interface PolicyUpdateInput {
  readonly type: string;
  readonly name: string;
  readonly state: string;
  readonly description?: string | null;
  readonly resources?: ResourceFilterInput | null;
  readonly privileges: readonly string[];
  readonly actors: ActorFilterInput;
}

/**
 * The stored aspect of a create or update. Refuses (400) what the ecosystem would store but could never
 * match or show: a blank name, blank privilege names or filter fields, actors that are not urns of the
 * right entity type. Unknown privilege names are kept, as the ecosystem keeps them: the engine compares
 * them exactly, so they grant nothing until a privilege of that name exists.
 */
export function policyInfoOf(
  input: PolicyUpdateInput,
  options: { readonly now: number; readonly editable: boolean },
): Record<string, unknown> {
  const name = input.name.trim();
  if (name === '') throw new ValidationError('The policy name must not be empty');
  oneOf(input.type, POLICY_TYPES, 'type');
  oneOf(input.state, POLICY_STATES, 'state');
  const privileges = unique(input.privileges.map((p, i) => nonBlank(p, `privileges[${i}]`)));
  const resources =
    input.resources === null || input.resources === undefined ? undefined : resourcesOf(input.resources);
  return {
    displayName: name,
    // The aspect requires a description; the ecosystem's UI sends "" when there is none.
    description: input.description ?? '',
    type: input.type,
    state: input.state,
    ...(resources === undefined ? {} : { resources }),
    privileges,
    actors: actorsOf(input.actors),
    editable: options.editable,
    lastUpdatedTimestamp: options.now,
  };
}

function resourcesOf(input: ResourceFilterInput): Record<string, unknown> {
  const criteria = input.filter?.criteria;
  return {
    ...(input.type === null || input.type === undefined
      ? {}
      : { type: nonBlank(input.type, 'resources.type') }),
    ...(input.resources === null || input.resources === undefined
      ? {}
      : { resources: unique(input.resources.map((r, i) => nonBlank(r, `resources.resources[${i}]`))) }),
    allResources: input.allResources === true,
    ...(criteria === null || criteria === undefined
      ? {}
      : {
          filter: {
            criteria: criteria.map((c, i) => ({
              field: nonBlank(c.field, `resources.filter.criteria[${i}].field`),
              values: [...c.values],
              condition: oneOf(c.condition, MATCH_CONDITIONS, `resources.filter.criteria[${i}].condition`),
            })),
          },
        }),
  };
}

function actorsOf(input: ActorFilterInput): Record<string, unknown> {
  const urns = (list: readonly string[] | null | undefined, entity: string, field: string) =>
    list === null || list === undefined
      ? {}
      : { [field]: unique(list.map((u, i) => urnOf(u, entity, `actors.${field}[${i}]`))) };
  return {
    ...urns(input.users, 'corpuser', 'users'),
    ...urns(input.groups, 'corpGroup', 'groups'),
    ...urns(input.roles, 'dataHubRole', 'roles'),
    resourceOwners: input.resourceOwners,
    ...urns(input.resourceOwnersTypes, 'ownershipType', 'resourceOwnersTypes'),
    allUsers: input.allUsers,
    allGroups: input.allGroups,
  };
}

function urnOf(value: string, entity: string, where: string): string {
  if (!isUrn(value) || parseUrn(value).entityType !== entity)
    throw new ValidationError(`${where} must be a ${entity} urn, got ${JSON.stringify(value)}`);
  return value;
}

function nonBlank(value: string, where: string): string {
  if (value.trim() === '') throw new ValidationError(`${where} must not be empty`);
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], where: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new ValidationError(`${where} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
