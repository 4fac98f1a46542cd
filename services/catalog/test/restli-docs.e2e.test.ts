import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkip, launchChromium, openOffline, type PageLog } from './offline-browser.js';
import { startTestCatalog, SYSTEM_CLIENT_AUTHORIZATION, type TestCatalog } from './harness.js';

const skip = browserSkip();
if (skip) console.warn(`skipping the /restli/docs browser suite: ${skip}`);

const TIMEOUT = 30_000;
/** The resources the page must show (spec 4.14), by `METHOD path`. */
const RESOURCES = [
  'POST /aspects',
  'GET /aspects/{urn}',
  'POST /entities',
  'GET /entities/{urn}',
  'GET /entities',
  'GET /entitiesV2/{urn}',
  'GET /entitiesV2',
  'POST /runs',
  'GET /relationships',
  'POST /gms/test',
];

interface DocOperation {
  readonly tags?: string[];
  readonly parameters?: { name: string; in: string; schema?: { enum?: string[] } }[];
}

/** An example as the page shows it: the request line, then the JSON body of a POST. */
interface ShownExample {
  readonly method: string;
  readonly target: string;
  readonly body?: Record<string, unknown>;
}

async function shownExample(section: ReturnType<Page['locator']>): Promise<ShownExample> {
  const pre = section.locator(':scope > .example pre, :scope > section > .example pre').first();
  const text = await pre.innerText();
  const [line, ...rest] = text.split('\n');
  const [method, target] = line!.split(' ') as [string, string];
  const json = rest.join('\n').trim();
  return { method, target, ...(json === '' ? {} : { body: JSON.parse(json) as Record<string, unknown> }) };
}

/**
 * `/restli/docs` (spec 4.14) in headless Chromium, as a browser with no session opens it (the path is
 * public): every Rest.li resource of the OpenAPI document is rendered, each action with its body
 * parameters and an example that the catalog accepts, and the page makes no failing request and
 * logs no error. The page does not depend on the family: the embedded one is enough.
 */
describe.skipIf(skip !== '')('/restli/docs in a real browser', () => {
  let catalog: TestCatalog;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    catalog = await startTestCatalog();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await catalog?.dispose();
  });

  it('renders every resource and action with its parameters and an example, with no failed request or error', async () => {
    context = await browser.newContext(); // no login: the page is public
    context.setDefaultTimeout(TIMEOUT);
    const badResponses: string[] = [];
    context.on('response', (res) => {
      if (res.status() >= 400) badResponses.push(`${res.request().method()} ${res.url()}: ${res.status()}`);
    });
    const { page, log }: { page: Page; log: PageLog } = await openOffline(
      context,
      `${catalog.baseUrl}/restli/docs`,
      TIMEOUT,
    );
    await page.locator('h1').filter({ hasText: 'Rest.li endpoints' }).waitFor({ state: 'visible' });

    // What the OpenAPI document says the Rest.li resources are (the page is rendered from it).
    const docRes = await context.request.get(`${catalog.baseUrl}/openapi/v3/api-docs?group=70-restli`);
    expect(docRes.status()).toBe(200);
    const paths = ((await docRes.json()) as { paths: Record<string, Record<string, DocOperation>> }).paths;
    const documented: { key: string; path: string; method: string; operation: DocOperation }[] = [];
    for (const [path, operations] of Object.entries(paths))
      for (const [method, operation] of Object.entries(operations))
        if (operation.tags?.includes('rest.li'))
          documented.push({ key: `${method.toUpperCase()} ${path}`, path, method, operation });
    expect(documented.map((d) => d.key)).toEqual(expect.arrayContaining(RESOURCES));

    const examples: ShownExample[] = [];
    let actionCount = 0;
    for (const { key, path, method, operation } of documented) {
      const section = page.locator(`section.resource[data-method="${method}"][data-path="${path}"]`);
      await expect(section.isVisible(), key).resolves.toBe(true);
      await expect(section.locator('h2').innerText(), key).resolves.toBe(key);
      // The operation's own parameters (query and path), each listed.
      for (const p of operation.parameters ?? [])
        await expect(
          section.locator(`ul.parameters li[data-name="${p.name}"]`).count(),
          `${key} ${p.name}`,
        ).resolves.toBe(1);

      const actions = operation.parameters?.find((p) => p.name === 'action')?.schema?.enum ?? [];
      if (actions.length === 0) {
        const shown = await shownExample(section);
        expect(shown.method, key).toBe(method.toUpperCase());
        const template = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?|$)`);
        expect(shown.target, key).toMatch(template);
        examples.push(shown);
        continue;
      }
      for (const name of actions) {
        actionCount++;
        const label = `${key}?action=${name}`;
        const action = section.locator(`section.action[data-action="${name}"]`);
        await expect(action.isVisible(), label).resolves.toBe(true);
        await expect(action.locator('h3').innerText(), label).resolves.toBe(`POST ${path}?action=${name}`);
        const rows = action.locator('table.parameters tbody tr');
        const count = await rows.count();
        expect(count, `${label}: parameters`).toBeGreaterThan(0);
        const parameters = new Map<string, boolean>();
        for (let i = 0; i < count; i++) {
          const row = rows.nth(i);
          const cells = await row.locator('td').allInnerTexts();
          expect(cells, label).toHaveLength(4);
          expect(cells[3]!.trim(), `${label}: description of ${cells[0]}`).not.toBe('');
          parameters.set((await row.getAttribute('data-name'))!, cells[2] === 'yes');
        }
        const shown = await shownExample(action);
        expect(`${shown.method} ${shown.target}`, label).toBe(`POST ${path}?action=${name}`);
        expect(shown.body, `${label}: example body`).toBeDefined();
        // The example uses documented parameters only, and every required one.
        for (const field of Object.keys(shown.body!))
          expect([...parameters.keys()], `${label}: example field ${field}`).toContain(field);
        for (const [field, required] of parameters)
          if (required) expect(Object.keys(shown.body!), `${label}: required ${field}`).toContain(field);
        examples.push(shown);
      }
    }
    expect(actionCount).toBeGreaterThanOrEqual(18);

    // The page loaded nothing from off the machine, no request failed, nothing was logged as an error.
    expect(log.blocked).toEqual([]);
    expect(log.failed).toEqual([]);
    expect(badResponses).toEqual([]);
    expect(log.errors).toEqual([]);

    // Every example is a request the catalog takes: none is refused as malformed (a 404 for an entity
    // the catalog does not have is an answer). Writes first, so the example dataset exists for the reads.
    const ordered = [
      ...examples.filter((e) => e.method === 'POST' && /action=ingest/.test(e.target)),
      ...examples.filter((e) => !(e.method === 'POST' && /action=ingest/.test(e.target))),
    ];
    for (const e of ordered) {
      const res = await fetch(`${catalog.baseUrl}${e.target}`, {
        method: e.method,
        headers: {
          Authorization: SYSTEM_CLIENT_AUTHORIZATION,
          'X-RestLi-Protocol-Version': '2.0.0',
          ...(e.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(e.body === undefined ? {} : { body: JSON.stringify(e.body) }),
      });
      const text = await res.text();
      expect([200, 404], `${e.method} ${e.target}: ${res.status} ${text.slice(0, 300)}`).toContain(
        res.status,
      );
    }
  }, 120_000);
});
