import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSkip, offlineBrowserSuite } from './offline-browser.js';

const skip = browserSkip();
if (skip) console.warn(`skipping the GraphiQL browser suite: ${skip}`);

const QUERY = '{ me { corpUser { urn } } }';
/** The page inlines about 9 MB of script: give it time to parse on a slow machine. */
const LOAD_TIMEOUT = 90_000;

/** The text a Monaco editor shows (it renders spaces as no-break spaces). */
async function editorText(page: Page, selector: string): Promise<string> {
  const text = await page.locator(`${selector} .view-lines`).first().innerText();
  return text.replace(/\u00a0/g, ' ');
}

describe.skipIf(skip !== '')('the GraphiQL explorer in a real browser', () => {
  const suite = offlineBrowserSuite();

  it('runs a query in a real browser with no network beyond the catalog', async () => {
    const { page, log } = await suite.open('/api/graphiql', LOAD_TIMEOUT);

    const queryEditor = page.locator('.graphiql-query-editor .monaco-editor').first();
    await queryEditor.waitFor({ state: 'visible', timeout: LOAD_TIMEOUT });
    await queryEditor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(QUERY);
    await page.keyboard.press('Escape'); // closes an autocompletion popup, if one opened
    // Monaco closes brackets as one types: what it shows must still be the query, with no extra `}`.
    expect((await editorText(page, '.graphiql-query-editor')).replace(/\s+/g, '')).toBe(
      QUERY.replace(/\s+/g, ''),
    );

    const answer = page.waitForResponse(
      (res) => res.url().endsWith('/api/graphql') && (res.request().postData() ?? '').includes('corpUser'),
    );
    await page.locator('.graphiql-execute-button').click();
    expect((await answer).status()).toBe(200);

    await expect
      .poll(async () => editorText(page, '.graphiql-response'), { timeout: 30_000 })
      // The page's calls carry the login's session cookie: the query runs as the logged-in user.
      .toContain('urn:li:corpuser:datahub');

    expect(log.blocked).toEqual([]);
    expect(log.failed).toEqual([]);
    expect(log.errors).toEqual([]);
  });
});
