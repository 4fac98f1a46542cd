import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skipUnlessCi } from '@catalog/testkit';
import { startTestCatalog, type TestCatalog } from './harness.js';

const executablePath = process.env['CATALOG_CHROMIUM'] || '/usr/bin/chromium';
const skip =
  skipUnlessCi(
    existsSync(executablePath)
      ? undefined
      : `no Chromium at ${executablePath} (apt-get install chromium, or set CATALOG_CHROMIUM)`,
  ) ?? '';
if (skip) console.warn(`skipping the Swagger UI browser suite: ${skip}`);

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/**
 * The document has a path per entity type and aspect (about 4 MB): the UI takes several seconds to
 * render it, and several more to expand one operation (it resolves the operation against the whole document).
 */
const RENDER_TIMEOUT = 60_000;

/** What the page did besides rendering: what it tried to reach off the machine, and what went wrong. */
interface PageLog {
  readonly blocked: string[];
  readonly failed: string[];
  readonly errors: string[];
}

/** Opens Swagger UI with every request off the machine aborted and recorded. */
async function openSwaggerUi(
  context: BrowserContext,
  baseUrl: string,
): Promise<{ page: Page; log: PageLog }> {
  const log: PageLog = { blocked: [], failed: [], errors: [] };
  // Expanding an operation blocks the page for seconds: every action and wait gets the render timeout.
  context.setDefaultTimeout(RENDER_TIMEOUT);
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (LOCAL_HOSTS.has(new URL(url).hostname)) return route.continue();
    log.blocked.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') log.errors.push(message.text());
  });
  page.on('pageerror', (error) => log.errors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    log.failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`),
  );
  await page.goto(`${baseUrl}/openapi/swagger-ui/index.html`, { waitUntil: 'load', timeout: RENDER_TIMEOUT });
  return { page, log };
}

describe.skipIf(skip !== '')('Swagger UI in a real browser', () => {
  let catalog: TestCatalog;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    catalog = await startTestCatalog();
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await catalog?.dispose();
  });

  it('executes a call from Swagger UI in a real browser with no network beyond the catalog', async () => {
    context = await browser.newContext();
    const { page, log } = await openSwaggerUi(context, catalog.baseUrl);

    // The document's title shows once the UI has fetched, parsed and rendered it.
    await page
      .locator('.information-container .title')
      .filter({ hasText: 'Metadata catalog API' })
      .waitFor({ state: 'visible', timeout: RENDER_TIMEOUT });
    const tag = page
      .locator('.opblock-tag-section')
      .filter({ has: page.locator('h3[data-tag="operations"]') });
    await tag.waitFor({ state: 'visible', timeout: RENDER_TIMEOUT });

    // `docExpansion: 'none'` starts the tag sections collapsed: open the operations one.
    const header = tag.locator('h3[data-tag="operations"]');
    if ((await header.getAttribute('data-is-open')) !== 'true') await header.click();
    await expect.poll(() => header.getAttribute('data-is-open'), { timeout: RENDER_TIMEOUT }).toBe('true');

    const operation = tag
      .locator('.opblock.opblock-get')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/config"]') });
    await expect(operation.locator('.opblock-summary-description').innerText()).resolves.toBe(
      'Server configuration, as the SDK reads it',
    );
    await operation.locator('.opblock-summary-control').click();
    const tryItOut = operation.locator('button.try-out__btn');
    await tryItOut.waitFor({ state: 'visible' }); // only once Swagger UI has resolved the operation
    await tryItOut.click();

    const sent = page.waitForResponse(
      (res) => res.request().method() === 'GET' && new URL(res.url()).pathname === '/config',
      { timeout: 30_000 },
    );
    await operation.locator('button.execute').click();
    expect((await sent).status()).toBe(200);

    const live = operation.locator('.live-responses-table .response');
    await live.waitFor({ state: 'visible', timeout: 30_000 });
    expect((await live.locator('.response-col_status').innerText()).trim()).toBe('200');
    await expect(live.locator('.response-col_description').innerText()).resolves.toMatch(
      /"noCode":\s*"true"/,
    );

    expect(log.blocked).toEqual([]);
    expect(log.failed).toEqual([]);
    expect(log.errors).toEqual([]);
  }, 180_000);
});
