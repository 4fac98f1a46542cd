import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { createLogger } from '@catalog/runtime';
import { readCatalogConfig, startCatalog } from '../src/index.js';
import { graphql } from './graphql-client.js';
import { callAs, logIn, ROOT_PASSWORD, SYSTEM_CLIENT_AUTHORIZATION } from './harness.js';

/** Every secret set to a value of this run's own: what an operator following the README does. */
const SECRETS = {
  DATAHUB_SYSTEM_CLIENT_SECRET: `client-secret-${process.pid}-${Date.now()}`,
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: `signing-key-${process.pid}-${Date.now()}`,
  DATAHUB_TOKEN_SERVICE_SALT: `salt-${process.pid}-${Date.now()}`,
  SECRET_SERVICE_ENCRYPTION_KEY: `encryption-key-${process.pid}-${Date.now()}`,
  ROOT_USER_PASSWORD: `root password ${process.pid}-${Date.now()}`,
};

const dirs: string[] = [];
const children: ChildService[] = [];
afterAll(() => {
  for (const child of children) child.process.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-production-'));
  dirs.push(dir);
  return dir;
}

async function start(env: Record<string, string>): Promise<{ base: string; child: ChildService }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawnService('services/catalog/src/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  });
  children.push(child);
  await waitForHealth(base, child);
  return { base, child };
}

async function stop(child: ChildService): Promise<void> {
  child.process.kill('SIGTERM');
  expect(await child.exited).toBe(0);
}

async function logInStatus(base: string, password: string): Promise<number> {
  const res = await fetch(`${base}/logIn`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'datahub', password }),
  });
  return res.status;
}

describe('production start', () => {
  it('a production start refused for default secrets writes nothing, and names each variable', async () => {
    const dataDir = join(freshDir(), 'data');
    const child = spawnService('services/catalog/src/main.ts', {
      CATALOG_DATA_DIR: dataDir,
      CATALOG_ENVIRONMENT: 'production',
      DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'REPLACE_ME',
    });
    children.push(child);
    expect(await child.exited).not.toBe(0);
    const output = child.output();
    for (const name of [
      'DATAHUB_SYSTEM_CLIENT_SECRET',
      'DATAHUB_TOKEN_SERVICE_SALT',
      'ROOT_USER_PASSWORD',
      'SECRET_SERVICE_ENCRYPTION_KEY',
    ]) {
      expect(output).toMatch(new RegExp(`${name} is at its published default`));
    }
    expect(output).toMatch(/DATAHUB_TOKEN_SERVICE_SIGNING_KEY is still a placeholder/);
    // Not a store, not a log, not a directory: the next start begins from nothing.
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  });

  it('a production start after a refused one sets the configured root password, not the default', async () => {
    const dataDir = freshDir();
    const refused = spawnService('services/catalog/src/main.ts', {
      CATALOG_DATA_DIR: dataDir,
      CATALOG_ENVIRONMENT: 'production',
    });
    children.push(refused);
    expect(await refused.exited).not.toBe(0);

    const { base, child } = await start({
      CATALOG_DATA_DIR: dataDir,
      CATALOG_ENVIRONMENT: 'production',
      ...SECRETS,
    });
    try {
      expect(await logInStatus(base, SECRETS.ROOT_USER_PASSWORD)).toBe(200);
      expect(await logInStatus(base, ROOT_PASSWORD)).toBe(400); // the ecosystem's answer to wrong credentials
    } finally {
      await stop(child);
    }
  });

  it('the default root password of a development start is rotated at a production restart with every secret set', async () => {
    const dataDir = freshDir();
    const dev = await start({ CATALOG_DATA_DIR: dataDir });
    try {
      await logIn(dev.base, 'datahub', ROOT_PASSWORD);
    } finally {
      await stop(dev.child);
    }

    const { base, child } = await start({
      CATALOG_DATA_DIR: dataDir,
      CATALOG_ENVIRONMENT: 'production',
      ...SECRETS,
    });
    try {
      expect(await logInStatus(base, SECRETS.ROOT_USER_PASSWORD)).toBe(200);
      expect(await logInStatus(base, ROOT_PASSWORD)).toBe(400); // the ecosystem's answer to wrong credentials
      expect(child.output()).toMatch(/root password rotated to ROOT_USER_PASSWORD/);
      for (const secret of Object.values(SECRETS)) expect(child.output()).not.toContain(secret);
    } finally {
      await stop(child);
    }

    // The next start finds the configured password stored: nothing to rotate, nothing logged.
    const again = await start({ CATALOG_DATA_DIR: dataDir, CATALOG_ENVIRONMENT: 'production', ...SECRETS });
    try {
      expect(await logInStatus(again.base, SECRETS.ROOT_USER_PASSWORD)).toBe(200);
      expect(again.child.output()).not.toMatch(/root password rotated/);
    } finally {
      await stop(again.child);
    }
  });

  it('system-update refuses an empty ROOT_USER_PASSWORD (the shipped Kubernetes secret), writing nothing', async () => {
    const dataDir = join(freshDir(), 'data');
    const child = spawnService('services/system-update/src/main.ts', {
      CATALOG_DATA_DIR: dataDir,
      ROOT_USER_PASSWORD: '',
    });
    children.push(child);
    expect(await child.exited).not.toBe(0);
    expect(child.output()).toMatch(/ROOT_USER_PASSWORD is set but empty/);
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  });
});

describe('development start', () => {
  async function startHere(dataDir: string, env: Record<string, string> = {}) {
    const config = readCatalogConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    });
    const catalog = await startCatalog(config, createLogger({ name: 'catalog-test', level: 'warn' }));
    return { catalog, base: `http://127.0.0.1:${catalog.port}` };
  }

  /** Changes root's password through the API, as an administrator would in the UI. */
  async function changeRootPassword(base: string, password: string): Promise<void> {
    const admin = `Bearer ${await logIn(base)}`;
    const token = await graphql(
      base,
      'mutation { createNativeUserResetToken(input: {userUrn: "urn:li:corpuser:datahub"}) { resetToken } }',
      {},
      { headers: { Authorization: admin } },
    );
    const resetToken = (token.data as { createNativeUserResetToken: { resetToken: string } })
      .createNativeUserResetToken.resetToken;
    const reset = await callAs(
      base,
      'POST',
      '/auth/resetNativeUserCredentials',
      SYSTEM_CLIENT_AUTHORIZATION,
      {
        userUrn: 'urn:li:corpuser:datahub',
        password,
        resetToken,
      },
    );
    expect(reset.status, reset.text).toBe(200);
  }

  it('keeps a root password changed through the API while ROOT_USER_PASSWORD is unset, and the variable wins once set', async () => {
    const dataDir = freshDir();
    const first = await startHere(dataDir);
    try {
      await changeRootPassword(first.base, 'changed in the UI');
    } finally {
      await first.catalog.close();
    }

    const unset = await startHere(dataDir);
    try {
      expect(await logInStatus(unset.base, 'changed in the UI')).toBe(200);
      expect(await logInStatus(unset.base, ROOT_PASSWORD)).toBe(400);
    } finally {
      await unset.catalog.close();
    }

    const set = await startHere(dataDir, { ROOT_USER_PASSWORD: 'set by the operator' });
    try {
      expect(await logInStatus(set.base, 'set by the operator')).toBe(200);
      expect(await logInStatus(set.base, 'changed in the UI')).toBe(400);
    } finally {
      await set.catalog.close();
    }
  });
});
