import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import {
  datasetUrn,
  ROOT_PASSWORD,
  startTestCatalog,
  SYSTEM_AUTH_HEADERS,
  type TestCatalog,
} from './harness.js';
import { browserSkip, launchChromium, openOffline, type PageLog } from './offline-browser.js';

const skip = browserSkip();
if (skip) console.warn(`skipping the web app browser suite: ${skip}`);

const WEB_DIR = fileURLToPath(new URL('../../../apps/web/', import.meta.url));
const TIMEOUT = 30_000;

/**
 * The app's build, made here when absent (`.ci/run` builds it with `pnpm build` before the tests; a
 * local run of this file alone builds it once).
 */
function ensureWebAppBuilt(): void {
  if (existsSync(`${WEB_DIR}dist/index.html`)) return;
  const build = spawnSync('pnpm', ['--filter', '@catalog/web', 'build'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`building the web app failed:\n${build.stdout}\n${build.stderr}`);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical accessibility violations axe-core finds on the page as it is. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol: the app's Content-Security-Policy (scripts from
  // its own origin only) rightly refuses an injected script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

const ORDERS = datasetUrn('sales.orders', 'hive');
const ARCHIVE = datasetUrn('shop.orders_archive', 'mysql');
const CUSTOMERS = datasetUrn('sales.customers', 'hive');

const field = (fieldPath: string, nativeDataType: string, description: string) => ({
  fieldPath,
  nativeDataType,
  description,
  type: { type: { 'com.linkedin.schema.StringType': {} } },
  nullable: false,
  recursive: false,
});

/** Writes an aspect as the system client and waits until it is searchable. */
async function write(catalog: TestCatalog, urn: string, aspectName: string, value: unknown): Promise<void> {
  const res = await fetch(`${catalog.baseUrl}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: {
      ...SYSTEM_AUTH_HEADERS,
      'Content-Type': 'application/json',
      'X-RestLi-Protocol-Version': '2.0.0',
      'X-Wait-For-Index': 'true',
    },
    body: JSON.stringify({
      proposal: {
        entityType: urn.split(':')[2],
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { contentType: 'application/json', value: JSON.stringify(value) },
      },
      async: 'false',
    }),
  });
  expect(res.status, await res.text()).toBe(200);
}

async function seed(catalog: TestCatalog): Promise<void> {
  await write(catalog, ORDERS, 'datasetProperties', {
    name: 'orders',
    description: '**One row per order**, loaded <script>window.injected = true</script>nightly.',
    customProperties: { retention: '90 days' },
  });
  await write(catalog, ORDERS, 'schemaMetadata', {
    schemaName: 'orders',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: [field('order_id', 'bigint', 'The order'), field('amount', 'decimal(10,2)', 'What was paid')],
  });
  await write(catalog, ORDERS, 'ownership', {
    owners: [{ owner: 'urn:li:corpuser:datahub', type: 'TECHNICAL_OWNER' }],
  });
  await write(catalog, ARCHIVE, 'datasetProperties', { name: 'orders_archive', description: 'Old orders' });
  await write(catalog, CUSTOMERS, 'datasetProperties', { name: 'customers', description: 'People who buy' });
}

for (const family of FAMILIES) {
  describe.skipIf(skip !== '' || family.skip !== undefined)(`the web app on ${family.name}`, () => {
    let catalog: TestCatalog;
    let browser: Browser;

    beforeAll(async () => {
      ensureWebAppBuilt();
      catalog = await startTestCatalog(family.env());
      await seed(catalog);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await catalog?.dispose();
    });

    it('signs in, searches, filters by a facet, opens a dataset, tags it, makes and revokes a token and signs out, offline and accessibly', async () => {
      const context = await browser.newContext();
      context.setDefaultTimeout(TIMEOUT);
      const base = catalog.baseUrl;
      let log: PageLog;
      let page: Page;
      try {
        // An unauthenticated visit lands on the sign-in page, which knows where to come back to.
        ({ page, log } = await openOffline(context, `${base}/search?q=orders`, TIMEOUT));
        await page.waitForURL(/\/login\?redirect=/);
        await expect.poll(() => seriousViolations(page)).toEqual([]);
        await page.getByLabel('Username').fill('datahub');
        await page.getByLabel('Password').fill('wrong password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect.poll(() => page.getByRole('alert').innerText()).toContain('Invalid Credentials');
        await page.getByLabel('Password').fill(ROOT_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${base}/search?q=orders`);

        // Home: counts from getEntityCounts, the platforms.
        await page.getByRole('link', { name: 'Catalog', exact: true }).click();
        await page.waitForURL(`${base}/`);
        await page.getByRole('link', { name: /3\s*Datasets/ }).waitFor();
        await page.getByRole('link', { name: 'Hive', exact: true }).waitFor();
        await page.getByRole('link', { name: 'orders_archive' }).waitFor(); // recently changed
        await expect.poll(() => seriousViolations(page)).toEqual([]);

        // `/` focuses the header's search; suggestions come as one types; Enter runs the search.
        await page.keyboard.press('/');
        const box = page.getByRole('combobox', { name: 'Search the catalog' });
        await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.type('orders');
        await page.getByRole('option', { name: /orders_archive/ }).waitFor();
        await page.keyboard.press('Enter');
        await page.waitForURL(`${base}/search?q=orders`);
        const results = page.locator('main ol > li');
        await expect.poll(() => results.count()).toBe(2);
        await expect.poll(() => seriousViolations(page)).toEqual([]);

        // A facet value narrows the results, and the URL holds it by the platform's name.
        await page.getByRole('group', { name: 'Platform' }).getByLabel('Hive').check();
        await page.waitForURL(`${base}/search?q=orders&platform=hive`);
        await expect.poll(() => results.count()).toBe(1);
        await page.reload();
        await expect.poll(() => results.count()).toBe(1);
        expect(await page.getByRole('group', { name: 'Platform' }).getByLabel('Hive').isChecked()).toBe(true);

        // The dataset's page: sanitized markdown, schema, owners, properties.
        await page.getByRole('link', { name: 'orders', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'orders', exact: true }).waitFor();
        await page.locator('strong', { hasText: 'One row per order' }).waitFor();
        expect(await page.evaluate(() => 'injected' in window)).toBe(false);
        await page.getByRole('rowheader', { name: /amount/ }).waitFor();
        await page.getByText('decimal(10,2)').waitFor();
        await page.getByText('90 days').waitFor();
        await expect.poll(() => seriousViolations(page)).toEqual([]);

        // Add a tag (the admin may create it): shown at once and after a reload.
        await page.getByLabel('Tag to add').fill('pii');
        await page.getByRole('button', { name: 'Add tag' }).click();
        const tags = page.getByRole('list', { name: 'Tags' });
        await tags.getByText('pii').waitFor();
        await page.reload();
        await tags.getByText('pii').waitFor();
        await expect.poll(() => seriousViolations(page)).toEqual([]);

        // A personal access token: shown once, working, then revoked.
        await page.getByRole('link', { name: 'Access tokens' }).click();
        await page.getByLabel('Name').fill('e2e token');
        await page.getByRole('button', { name: 'Create token' }).click();
        const token = (await page.getByLabel('New token').innerText()).trim();
        const asToken = () =>
          fetch(`${base}/api/graphql`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: JSON.stringify({ query: '{ me { corpUser { urn } } }' }),
          });
        expect((await asToken()).status).toBe(200);
        await page.getByRole('row', { name: /e2e token/ }).waitFor();
        await expect.poll(() => seriousViolations(page)).toEqual([]);
        await page.getByRole('button', { name: 'Revoke token e2e token' }).click();
        await page.getByText('No tokens.').waitFor();
        await expect.poll(async () => (await asToken()).status).toBe(401);
        await page.reload();
        expect(await page.getByLabel('New token').count()).toBe(0);

        // Sign out: the server ends the session, so the old cookie no longer authenticates.
        const session = (await context.cookies()).find((c) => c.name === 'PLAY_SESSION')?.value;
        expect(session).toBeDefined();
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL(`${base}/login`);
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        const replay = await fetch(`${base}/api/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: `PLAY_SESSION=${session}` },
          body: JSON.stringify({ query: '{ me { corpUser { urn } } }' }),
        });
        expect(replay.status).toBe(401);

        expect(log.blocked).toEqual([]);
        expect(log.failed).toEqual([]);
        // The browser reports the answers meant to be refusals (the first visit's 401, the wrong
        // password's 400) as failed loads; nothing else may go wrong.
        expect(log.errors.filter((e) => !/status of 40[01]/.test(e))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
}
