import { randomUUID } from 'node:crypto';
import { DEFAULT_POLICIES, DEFAULT_ROLES, hashPassword } from '@catalog/auth';
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
  /** The root user's password, set only when the root user has no credentials yet. */
  readonly rootPassword: string;
}

export interface BootstrapIdentityReport {
  readonly proposed: number;
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
 * ROOT_USER_PASSWORD the first time only, so a changed password survives), the Admin, Editor and Reader
 * roles, and the default policies. Non-editable policies are brought back to their definition on every
 * run (an upgrade changes them); editable ones, and the root password, are created only when absent
 * (`CREATE` with `If-None-Match: *`, which persistence drops when the aspect exists). One store read finds
 * what differs; only that is proposed; it does not wait for persistence.
 */
export async function bootstrapIdentity(deps: BootstrapIdentityDeps): Promise<BootstrapIdentityReport> {
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
  if (current(ROOT_USER_URN, 'corpUserCredentials') === undefined) {
    proposals.push(
      proposalOf({
        urn: ROOT_USER_URN,
        entityType: 'corpuser',
        aspect: 'corpUserCredentials',
        value: await hashPassword(deps.rootPassword),
        onlyIfAbsent: true,
      }),
    );
  }
  if (proposals.length > 0) {
    await deps.log.produce(
      deps.topic,
      proposals.map((p) => proposalRecord(p, `bootstrap-${randomUUID()}`, SYSTEM_ACTOR)),
    );
    deps.logger.info({ proposed: proposals.length }, 'identity bootstrap proposed');
  }
  return { proposed: proposals.length };
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
 * Waits until persistence has stored what the bootstrap proposed (the root user's credentials and the
 * root policies), so that the catalog answers logins once it listens. Bounded: a slow persistence
 * makes it give up with a warning, not hang the start.
 */
export async function awaitIdentityBootstrap(
  store: AspectStore,
  logger: Logger,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [credentials, policy] = await Promise.all([
      store.get(ROOT_USER_URN, 'corpUserCredentials'),
      store.get('urn:li:dataHubPolicy:0', 'dataHubPolicyInfo'),
    ]);
    if (credentials !== null && policy !== null) return;
    if (Date.now() > deadline) {
      logger.warn('identity bootstrap not applied yet; logins may fail until persistence catches up');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
