import { applyAspectPatch, type CheckedProposal } from '@catalog/model';

/** The membership aspects of a user and the list of group urns each holds. */
const GROUP_LISTS: Readonly<Record<string, string>> = {
  groupMembership: 'groups',
  nativeGroupMembership: 'nativeGroups',
};

/** Whether the aspect lists groups a user is a member of (groupMembership, nativeGroupMembership). */
export function isGroupMembershipAspect(aspectName: string): boolean {
  return GROUP_LISTS[aspectName] !== undefined;
}

function groupsIn(value: Readonly<Record<string, unknown>> | null | undefined, list: string): string[] {
  const groups = value?.[list];
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * The groups a membership write adds to what the user holds now (`current`, the stored value): those
 * of the proposed value, or of the patch applied to the current value, that are not held yet. Removals
 * and re-ingesting the same groups add none. A patch that does not apply is 'unresolved' (decided with
 * the strictest floor, as the ecosystem fails closed).
 */
export function addedGroups(
  proposal: CheckedProposal,
  current: Readonly<Record<string, unknown>> | null,
  now: number = Date.now(),
): string[] | 'unresolved' {
  const list = GROUP_LISTS[proposal.aspect.name];
  if (list === undefined || proposal.changeType === 'DELETE') return [];
  let proposed: Readonly<Record<string, unknown>> | undefined;
  if (proposal.patch !== undefined) {
    try {
      proposed = applyAspectPatch(proposal.aspect, current ?? undefined, proposal.patch, now);
    } catch {
      return 'unresolved';
    }
  } else proposed = proposal.value;
  const held = new Set(groupsIn(current, list));
  return [...new Set(groupsIn(proposed, list))].filter((g) => !held.has(g));
}
