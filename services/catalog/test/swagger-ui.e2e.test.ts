import { describe, expect, it } from 'vitest';
import { browserSkip, offlineBrowserSuite } from './offline-browser.js';

const skip = browserSkip();
if (skip) console.warn(`skipping the Swagger UI browser suite: ${skip}`);

/**
 * The document has a path per entity type and aspect (about 4 MB): the UI takes several seconds to
 * render it, and several more to expand one operation (it resolves the operation against the whole document).
 */
const RENDER_TIMEOUT = 60_000;

describe.skipIf(skip !== '')('Swagger UI in a real browser', () => {
  const suite = offlineBrowserSuite();

  it('executes a call from Swagger UI in a real browser with no network beyond the catalog', async () => {
    const { page, log } = await suite.open('/openapi/swagger-ui/index.html', RENDER_TIMEOUT);

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
