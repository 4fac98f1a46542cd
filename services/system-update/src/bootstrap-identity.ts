import { randomUUID } from 'node:crypto';
import {
  DEFAULT_POLICIES,
  DEFAULT_ROLES,
  DEFAULT_ROOT_PASSWORD,
  hashPassword,
  verifyPassword,
  type StoredCredentials,
} from '@catalog/auth';
import { genericAspectFromJson, type EventLog, type MetadataChangeProposal } from '@catalog/events';
import { proposalRecord, SYSTEM_ACTOR, type Logger } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';

export const ROOT_USER_URN = 'urn:li:corpuser:datahub';

export interface BootstrapIdentityDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  /** The proposal topic. */
  readonly topic: string;
  readonly logger: Logger;
  /**
   * ROOT_USER_PASSWORD: set when the root user has no credentials yet, and, when it is not the default,
   * set again whenever the stored credential does not match it.
   */
  readonly rootPassword: string;
}

export interface BootstrapIdentityReport {
  readonly proposed: number;
  /** The root credentials proposed (first ones or a rotation), for awaitIdentityBootstrap to wait on. */
  readonly rootCredentials?: StoredCredentials;
}

interface Wanted {
  readonly urn: string;
  readonly entityType: string;
  readonly aspect: string;
  readonly value: unknown;
  /** Written only when absent (editable by users, or a secret); otherwise brought back to this value. */
  readonly onlyIfAbsent: boolean;
}

/**
 * The ecosystem's identity bootstrap: the root user `datahub` (its info, and a native password from
 * ROOT_USER_PASSWORD), the Admin, Editor and Reader roles, and the default policies.
 *
 * The root password: written when the root user has none. Once it has one, a ROOT_USER_PASSWORD set to
 * anything but the published default is authoritative: a stored credential it does not verify against
 * (the default a development start wrote, or a password changed since through the API) is replaced by
 * it, with a log line. Left at the default (unset, development only), an existing credential is kept, so
 * a password changed through the API survives restarts. Non-editable policies are brought back to their definition on every
 * run (an upgrade changes them); editable ones, and the root password, are created only when absent
 * (`CREATE` with `If-None-Match: *`, which persistence drops when the aspect exists). One store read finds
 * what differs; only that is proposed; it does not wait for persistence.
 */
export async function bootstrapIdentity(deps: BootstrapIdentityDeps): Promise<BootstrapIdentityReport> {
  // Before anything is proposed: an empty password would be a root account anyone can log into.
  if (deps.rootPassword.trim() === '') throw new Error('ROOT_USER_PASSWORD is empty; set the root password');
  const wanted: Wanted[] = [
    {
      urn: ROOT_USER_URN,
      entityType: 'corpuser',
      aspect: 'corpUserInfo',
      value: { active: true, displayName: 'DataHub', title: 'DataHub', system: true },
      onlyIfAbsent: true,
    },
    {
      urn: ROOT_USER_URN,
      entityType: 'corpuser',
      aspect: 'corpUserEditableInfo',
      value: {
        teams: [],
        skills: [],
        pictureLink: 'assets/platforms/default_avatar.png',
      },
      onlyIfAbsent: true,
    },
    ...DEFAULT_ROLES.map((role) => ({
      urn: role.urn,
      entityType: 'dataHubRole',
      aspect: 'dataHubRoleInfo',
      value: role.info,
      onlyIfAbsent: false,
    })),
    ...DEFAULT_POLICIES.map((policy) => ({
      urn: policy.urn,
      entityType: 'dataHubPolicy',
      aspect: 'dataHubPolicyInfo',
      value: policy.info,
      onlyIfAbsent: policy.info.editable !== false,
    })),
  ];
  const urns = [...new Set(wanted.map((w) => w.urn))];
  const stored = await deps.store.getLatestMany(urns, [
    'corpUserInfo',
    'corpUserEditableInfo',
    'corpUserCredentials',
    'dataHubRoleInfo',
    'dataHubPolicyInfo',
  ]);
  const current = (urn: string, aspect: string) => stored.get(urn)?.find((a) => a.aspect === aspect)?.value;
  const missing = wanted.filter((w) => {
    const value = current(w.urn, w.aspect);
    if (value === undefined) return true;
    return !w.onlyIfAbsent && JSON.stringify(value) !== JSON.stringify(w.value);
  });
  const proposals: MetadataChangeProposal[] = missing.map((w) => proposalOf(w));
  const root = await rootCredentialsProposal(current(ROOT_USER_URN, 'corpUserCredentials'), deps);
  if (root !== undefined) proposals.push(root.proposal);
  if (proposals.length > 0) {
    await deps.log.produce(
      deps.topic,
      proposals.map((p) => proposalRecord(p, `bootstrap-${randomUUID()}`, SYSTEM_ACTOR)),
    );
    deps.logger.info({ proposed: proposals.length }, 'identity bootstrap proposed');
  }
  return {
    proposed: proposals.length,
    ...(root === undefined ? {} : { rootCredentials: root.credentials }),
  };
}

/** The root user's credentials to propose: the first ones, a rotation to ROOT_USER_PASSWORD, or none. */
async function rootCredentialsProposal(
  stored: unknown,
  deps: BootstrapIdentityDeps,
): Promise<{ proposal: MetadataChangeProposal; credentials: StoredCredentials } | undefined> {
  const aspect = { urn: ROOT_USER_URN, entityType: 'corpuser', aspect: 'corpUserCredentials' };
  if (stored === undefined) {
    const credentials = await hashPassword(deps.rootPassword);
    return { proposal: proposalOf({ ...aspect, value: credentials, onlyIfAbsent: true }), credentials };
  }
  if (deps.rootPassword === DEFAULT_ROOT_PASSWORD) return undefined;
  // A record this package cannot read (or the ecosystem's legacy form, whose salt needs the encryption
  // key) does not verify either: the configured password wins over it too.
  if (isStoredCredentials(stored) && (await verifyPassword(stored, deps.rootPassword))) return undefined;
  const credentials = await hashPassword(deps.rootPassword);
  deps.logger.warn(
    { user: ROOT_USER_URN },
    'root password rotated to ROOT_USER_PASSWORD: the stored credential did not match it (ROOT_USER_PASSWORD wins at every start)',
  );
  return { proposal: proposalOf({ ...aspect, value: credentials, onlyIfAbsent: false }), credentials };
}

function isStoredCredentials(value: unknown): value is StoredCredentials {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'salt') === 'string' &&
    typeof Reflect.get(value, 'hashedPassword') === 'string'
  );
}

function proposalOf(w: Wanted): MetadataChangeProposal {
  return {
    entityType: w.entityType,
    entityUrn: w.urn,
    changeType: w.onlyIfAbsent ? 'CREATE' : 'UPSERT',
    aspectName: w.aspect,
    aspect: genericAspectFromJson(w.value),
    ...(w.onlyIfAbsent ? { headers: { 'If-None-Match': '*' } } : {}),
  };
}

/**
 * Waits until persistence has stored what the bootstrap proposed (the root user's credentials, the ones
 * it proposed when it did, and the root policies), so that the catalog answers logins once it listens,
 * and a rotated root password is the one they check. Bounded: a slow persistence makes it give up with
 * a warning, not hang the start.
 */
export async function awaitIdentityBootstrap(
  store: AspectStore,
  logger: Logger,
  options: { readonly rootCredentials?: StoredCredentials; readonly timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const expected = options.rootCredentials?.hashedPassword;
  for (;;) {
    const [credentials, policy] = await Promise.all([
      store.get(ROOT_USER_URN, 'corpUserCredentials'),
      store.get('urn:li:dataHubPolicy:0', 'dataHubPolicyInfo'),
    ]);
    const stored = credentials?.value;
    const credentialsIn =
      expected === undefined
        ? credentials !== null
        : isStoredCredentials(stored) && stored.hashedPassword === expected;
    if (credentialsIn && policy !== null) return;
    if (Date.now() > deadline) {
      logger.warn('identity bootstrap not applied yet; logins may fail until persistence catches up');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
