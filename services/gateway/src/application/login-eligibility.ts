/** Why a user may not log in: a wrong password, or a state of the user that bars sessions. */
export type LoginDenialReason = 'INVALID_CREDENTIALS' | SessionDenialReason;

/** Why a user whose password matched (or who needs no password) still gets no session. */
export type SessionDenialReason = 'SOFT_DELETED' | 'SUSPENDED' | 'HARD_DELETED' | 'NOT_PROVISIONED';

/** The aspects the eligibility decision reads, fetched in one store read. */
export const ELIGIBILITY_ASPECTS = ['corpUserKey', 'status', 'corpUserStatus', 'corpUserInfo'] as const;

type AspectValues = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

/**
 * Whether a user may receive a session, in the ecosystem's order (UserSessionEligibilityChecker):
 * no key aspect (when existence is enforced) → HARD_DELETED; `status.removed` → SOFT_DELETED;
 * `corpUserStatus.status` SUSPENDED → SUSPENDED; a key but neither info nor status → NOT_PROVISIONED
 * (a user only referenced somewhere, never provisioned). Undefined = eligible.
 */
export function sessionDenialReason(
  aspects: AspectValues,
  enforceExistence: boolean,
): SessionDenialReason | undefined {
  const hasKey = aspects.has('corpUserKey');
  if (enforceExistence && !hasKey) return 'HARD_DELETED';
  if (aspects.get('status')?.['removed'] === true) return 'SOFT_DELETED';
  if (aspects.get('corpUserStatus')?.['status'] === 'SUSPENDED') return 'SUSPENDED';
  if (hasKey && !aspects.has('corpUserInfo') && !aspects.has('corpUserStatus')) return 'NOT_PROVISIONED';
  return undefined;
}

/**
 * The verdict of a password login: a mismatch is INVALID_CREDENTIALS whatever the user's state (so a
 * wrong password never reveals that state); a match reports the session denial, if any.
 */
export function passwordLoginVerdict(
  passwordMatches: boolean,
  sessionDenial: SessionDenialReason | undefined,
): { readonly matches: boolean; readonly denialReason?: LoginDenialReason } {
  if (!passwordMatches) return { matches: false, denialReason: 'INVALID_CREDENTIALS' };
  return sessionDenial === undefined ? { matches: true } : { matches: true, denialReason: sessionDenial };
}
