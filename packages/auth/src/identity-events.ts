/**
 * Which identity event an applied write is, as the ecosystem names the audit events of identity
 * changes: access tokens created and revoked, policies created, updated and deleted, users updated
 * (their info, status, credentials, settings and memberships) or deleted. Other writes are not identity
 * events (undefined). `status` is the store's: CREATED, UPDATED, DELETED (UNCHANGED is no event).
 */
export function identityEventOf(change: {
  readonly urn: string;
  readonly aspectName: string;
  readonly status: string;
}): string | undefined {
  const { urn, aspectName, status } = change;
  if (status !== 'CREATED' && status !== 'UPDATED' && status !== 'DELETED') return undefined;
  const deleted = status === 'DELETED';
  if (urn.startsWith('urn:li:dataHubAccessToken:')) {
    if (deleted) return aspectName === 'dataHubAccessTokenKey' ? 'RevokeAccessTokenEvent' : undefined;
    return 'CreateAccessTokenEvent';
  }
  if (urn.startsWith('urn:li:dataHubPolicy:')) {
    if (deleted) return aspectName === 'dataHubPolicyKey' ? 'DeletePolicyEvent' : undefined;
    return status === 'CREATED' && aspectName === 'dataHubPolicyInfo'
      ? 'CreatePolicyEvent'
      : 'UpdatePolicyEvent';
  }
  if (urn.startsWith('urn:li:corpuser:')) {
    if (deleted) return aspectName === 'corpUserKey' ? 'DeleteEntityEvent' : 'UpdateUserEvent';
    return USER_ASPECTS.has(aspectName) ? 'UpdateUserEvent' : undefined;
  }
  return undefined;
}

/** The aspects whose changes are user updates (the ecosystem's list). */
const USER_ASPECTS = new Set([
  'corpUserCredentials',
  'corpUserEditableInfo',
  'corpUserInfo',
  'corpUserSettings',
  'corpUserStatus',
  'groupMembership',
  'roleMembership',
  'nativeGroupMembership',
]);
