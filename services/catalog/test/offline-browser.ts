import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { skipUnlessCi } from '@catalog/testkit';
import { ROOT_PASSWORD, startTestCatalog, type TestCatalog } from './harness.js';

const executablePath = process.env['CATALOG_CHROMIUM'] || '/usr/bin/chromium';
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why a browser suite cannot run here ('' when it can); under CI a missing Chromium is a failure. */
export function browserSkip(): string {
  return (
    skipUnlessCi(
      existsSync(executablePath)
        ? undefined
        : `no Chromium at ${executablePath} (apt-get install chromium, or set CATALOG_CHROMIUM)`,
    ) ?? ''
  );
}

/** Headless Debian Chromium (CATALOG_CHROMIUM overrides where it lives). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
}

/** What the page did besides rendering: what it tried to reach off the machine, and what went wrong. */
export interface PageLog {
  readonly blocked: string[];
  readonly failed: string[];
  readonly errors: string[];
}

/** Opens a page with every request off the machine aborted and recorded, as are console errors. */
export async function openOffline(
  context: BrowserContext,
  url: string,
  timeout: number,
): Promise<{ page: Page; log: PageLog }> {
  const log: PageLog = { blocked: [], failed: [], errors: [] };
  await context.route('**/*', async (route) => {
    const requested = route.request().url();
    if (LOCAL_HOSTS.has(new URL(requested).hostname)) return route.continue();
    log.blocked.push(requested);
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
  await page.goto(url, { waitUntil: 'load', timeout });
  return { page, log };
}

/**
 * Registers, in the calling describe block, a catalog and a browser for its tests, and a fresh browser
 * context per test (closed after it). `open` loads one of the catalog's pages offline; `timeout` is
 * the page load's and, for every later action and wait, the context's default.
 */
export function offlineBrowserSuite(): {
  open(path: string, timeout: number): Promise<{ page: Page; log: PageLog }>;
} {
  let catalog: TestCatalog | undefined;
  let browser: Browser | undefined;
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
  return {
    async open(path, timeout) {
      if (browser === undefined || catalog === undefined) throw new Error('the suite has not started');
      context = await browser.newContext();
      context.setDefaultTimeout(timeout);
      // Logged in as a browser user is: the login's session cookie authenticates the page's calls.
      const login = await context.request.post(`${catalog.baseUrl}/logIn`, {
        data: { username: 'datahub', password: ROOT_PASSWORD },
      });
      if (login.status() !== 200) throw new Error(`logIn: HTTP ${login.status()} ${await login.text()}`);
      return openOffline(context, `${catalog.baseUrl}${path}`, timeout);
    },
  };
}
