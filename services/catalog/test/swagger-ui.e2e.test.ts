import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestCatalog, type TestCatalog } from './harness.js';
import { browserSkip, launchChromium, openOffline, type PageLog } from './offline-browser.js';

const skip = browserSkip();
if (skip) console.warn(`skipping the Swagger UI browser suite: ${skip}`);

/**
 * The document has a path per entity type and aspect (about 4 MB): the UI takes several seconds to
 * render it, and several more to expand one operation (it resolves the operation against the whole document).
 */
const RENDER_TIMEOUT = 60_000;

/** Opens Swagger UI offline; expanding an operation blocks the page for seconds, so every action and wait gets the render timeout. */
async function openSwaggerUi(
  context: BrowserContext,
  baseUrl: string,
): Promise<{ page: Page; log: PageLog }> {
  context.setDefaultTimeout(RENDER_TIMEOUT);
  return openOffline(context, `${baseUrl}/openapi/swagger-ui/index.html`, RENDER_TIMEOUT);
}

describe.skipIf(skip !== '')('Swagger UI in a real browser', () => {
  let catalog: TestCatalog;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    catalog = await startTestCatalog();
    browser = await launchChromium();
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
