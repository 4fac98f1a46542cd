import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { skipUnlessCi } from '@catalog/testkit';

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
