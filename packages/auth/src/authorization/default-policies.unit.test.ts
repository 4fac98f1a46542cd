import { entityRegistry, validateAspect } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICIES, DEFAULT_ROLES } from './default-policies.js';
import { PolicyEngine } from './policy-engine.js';
import { FakeActorDirectory, FakePolicySource, FakeResourceResolver } from './policy-fakes.testing.js';
import {
  API_PRIVILEGES,
  ENTITY_PRIVILEGES,
  GRAPHQL_PLATFORM_PRIVILEGES,
  PLATFORM_PRIVILEGES,
} from './privileges.js';

const ROOT = 'urn:li:corpuser:datahub';
const FRESH = 'urn:li:corpuser:fresh';
const ADMIN = 'urn:li:corpuser:admin';
const EDITOR = 'urn:li:corpuser:editor';
const READER = 'urn:li:corpuser:reader';
const OWNER = 'urn:li:corpuser:owner';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS_TABLE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const TEAM = 'urn:li:corpGroup:team';

function aspectSpec(entity: string, aspect: string) {
  const spec = entityRegistry.getAspect(entity, aspect);
  if (!spec) throw new Error(`the registry has no ${entity}.${aspect}`);
  return spec;
}

describe('DEFAULT_POLICIES', () => {
  it.each(DEFAULT_POLICIES.map((p) => [p.urn, p] as const))(
    '%s is a valid dataHubPolicyInfo that loses nothing in validation',
    (_urn, bootstrap) => {
      const outcome = validateAspect(aspectSpec('dataHubPolicy', 'dataHubPolicyInfo'), bootstrap.info);
      // Unknown fields would be dropped silently: what comes out must still hold everything that went in.
      expect(outcome).toMatchObject({ ok: true, value: bootstrap.info });
    },
  );

  it('has unique urns, and keeps editable the policies operators are expected to switch off', () => {
    const urns = DEFAULT_POLICIES.map((p) => p.urn);
    expect(new Set(urns).size).toBe(urns.length);
    const editable = new Set(DEFAULT_POLICIES.filter((p) => p.info.editable).map((p) => p.urn));
    for (const urn of [
      '7',
      'view-entity-page-all',
      'view-dataset-sensitive',
      'asset-owners-metadata-policy',
    ]) {
      expect(editable).toContain(`urn:li:dataHubPolicy:${urn}`);
    }
    expect(editable).not.toContain('urn:li:dataHubPolicy:0');
  });

  it('names only known privileges', () => {
    const known = new Set([...PLATFORM_PRIVILEGES, ...ENTITY_PRIVILEGES, ...API_PRIVILEGES]);
    const unknown = DEFAULT_POLICIES.flatMap((p) => p.info.privileges).filter((p) => !known.has(p));
    expect(unknown).toEqual([]);
  });
});

describe('DEFAULT_ROLES', () => {
  it.each(DEFAULT_ROLES.map((r) => [r.info.name, r] as const))(
    '%s is a valid dataHubRoleInfo',
    (_name, role) => {
      expect(validateAspect(aspectSpec('dataHubRole', 'dataHubRoleInfo'), role.info)).toMatchObject({
        ok: true,
      });
      expect(role.urn).toBe(`urn:li:dataHubRole:${role.info.name}`);
    },
  );
});

describe('the default policies in force', () => {
  const engine = new PolicyEngine({
    policies: new FakePolicySource(DEFAULT_POLICIES),
    actors: new FakeActorDirectory({
      [ADMIN]: { roles: ['urn:li:dataHubRole:Admin'] },
      [EDITOR]: { roles: ['urn:li:dataHubRole:Editor'] },
      [READER]: { groups: [TEAM], roles: ['urn:li:dataHubRole:Reader'] },
    }),
    resources: new FakeResourceResolver({ [ORDERS]: { owners: [{ owner: OWNER }] } }),
    refreshIntervalMs: 60_000,
  });
  const can = (actorUrn: string, privilege: string, resourceUrn?: string) =>
    engine.isAllowed({ actorUrn, privileges: [privilege], ...(resourceUrn ? { resourceUrn } : {}) });

  it('gives the root user every platform privilege', async () => {
    expect(await can(ROOT, 'MANAGE_POLICIES')).toBe(true);
    expect(await engine.platformPrivileges(ROOT)).toContain('MANAGE_USER_CREDENTIALS');
    expect(await can(ROOT, 'DELETE_ENTITY', ORDERS)).toBe(true);
  });

  it('lets a user without a role view analytics, mint tokens and view any dataset, but change nothing', async () => {
    expect(await can(FRESH, 'VIEW_ANALYTICS')).toBe(true);
    expect(await can(FRESH, 'GENERATE_PERSONAL_ACCESS_TOKENS')).toBe(true);
    expect(await can(FRESH, 'VIEW_ENTITY_PAGE', ORDERS)).toBe(true);
    expect(await can(FRESH, 'VIEW_DATASET_PROFILE', USERS_TABLE)).toBe(true);
    expect(await can(FRESH, 'EDIT_ENTITY', ORDERS)).toBe(false);
    expect(await can(FRESH, 'MANAGE_POLICIES')).toBe(false);
  });

  it('reports a fresh user the GraphQL platform privileges of policy 7 only', async () => {
    const held = await engine.platformPrivileges(FRESH);
    const fields = Object.entries(GRAPHQL_PLATFORM_PRIVILEGES)
      .filter(([, privileges]) => privileges.some((p) => held.has(p)))
      .map(([field]) => field);
    expect(fields.sort()).toEqual(['generatePersonalAccessTokens', 'viewAnalytics']);
  });

  it('lets an Editor edit tags and primary entities but not delete them', async () => {
    expect(await can(EDITOR, 'EDIT_ENTITY_TAGS', ORDERS)).toBe(true);
    expect(await can(EDITOR, 'EDIT_ENTITY', ORDERS)).toBe(true);
    expect(await can(EDITOR, 'EDIT_ENTITY', TEAM)).toBe(false);
    expect(await can(EDITOR, 'DELETE_ENTITY', ORDERS)).toBe(false);
    expect(await can(EDITOR, 'MANAGE_POLICIES')).toBe(false);
  });

  it('lets a Reader view but not edit', async () => {
    expect(await can(READER, 'VIEW_DATASET_USAGE', ORDERS)).toBe(true);
    expect(await can(READER, 'EDIT_ENTITY_TAGS', ORDERS)).toBe(false);
    expect(await can(READER, 'EDIT_ENTITY', ORDERS)).toBe(false);
  });

  it('lets an Admin delete entities and manage policies', async () => {
    expect(await can(ADMIN, 'DELETE_ENTITY', ORDERS)).toBe(true);
    expect(await can(ADMIN, 'MANAGE_POLICIES')).toBe(true);
  });

  it('lets the owner of a dataset edit its owners, and no other dataset', async () => {
    expect(await can(OWNER, 'EDIT_ENTITY_OWNERS', ORDERS)).toBe(true);
    expect(await can(OWNER, 'EDIT_ENTITY_OWNERS', USERS_TABLE)).toBe(false);
    expect(await can(OWNER, 'DELETE_ENTITY', ORDERS)).toBe(false);
  });
});
