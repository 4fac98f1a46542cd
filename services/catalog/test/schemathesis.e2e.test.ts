import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalAccessToken, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * schemathesis against the OpenAPI document the catalog serves, with the `not_a_server_error` and
 * `ignored_auth` checks: every documented operation (the Rest.li routes and a sample of the entity
 * routes, which repeat one shape per entity type) gets generated and boundary requests, none may
 * answer 5xx, and every operation the document says needs the bearer credential must refuse a request
 * without it or with a bad one (a public one, `security: []`, is not checked). The CLI comes
 * from CATALOG_SCHEMATHESIS, which `.ci/run` sets (infra/local/schemathesis.sh installs it in a cached
 * venv), or from that venv when a previous run made it.
 */
function schemathesisCli(): { readonly cli: string } | { readonly skip: string } {
  const candidates = [
    process.env['CATALOG_SCHEMATHESIS'],
    join(
      process.env['CATALOG_INFRA_CACHE'] ?? join(homedir(), '.cache', 'catalog-infra'),
      'schemathesis-venv',
      'bin',
      'schemathesis',
    ),
  ];
  const cli = candidates.find((c): c is string => c !== undefined && c !== '' && existsSync(c));
  return cli === undefined
    ? {
        skip: 'schemathesis is not installed (bash infra/local/schemathesis.sh; .ci/run sets CATALOG_SCHEMATHESIS)',
      }
    : { cli };
}

const found = schemathesisCli();
const skip = skipUnlessCi('skip' in found ? found.skip : undefined);
if (skip) console.warn(`skipping schemathesis: ${skip}`);

/** The time schemathesis may spend generating; the test's own timeout leaves room for start and stop. */
const MAX_TIME_SECONDS = 150;
/** Entity routes repeat one shape per entity type and aspect: these types stand for all of them. */
const SAMPLED_ENTITY_TYPES = [
  'dataset',
  'chart',
  'dashboard',
  'corpuser',
  'tag',
  'datajob',
  'glossaryterm',
  'domain',
];
const EXCLUDED_PATHS = [
  `^/openapi/v[23]/entity/(?!(${SAMPLED_ENTITY_TYPES.join('|')})(/|$))`,
  // Pages for a browser, not an API.
  '^/openapi/swagger-ui/',
  '^/api/graphiql$',
  '^/restli/docs$',
].join('|');

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function run(cli: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    // Asynchronous: the catalog answering schemathesis runs in this process.
    const child = spawn(cli, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.skipIf(skip !== undefined)(
  'schemathesis against the served OpenAPI document (embedded family)',
  () => {
    let catalog: TestCatalog;
    let workDir: string;
    let token: string;

    beforeAll(async () => {
      catalog = await startTestCatalog();
      workDir = mkdtempSync(join(tmpdir(), 'catalog-schemathesis-'));
      // The credential the document declares (bearerAuth): the root user's personal access token.
      token = await personalAccessToken(catalog.baseUrl, { name: 'schemathesis' });
    });
    afterAll(async () => {
      await catalog?.dispose();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    it(
      'finds no server error on any documented operation',
      async () => {
        if ('skip' in found) return;
        const report = join(workDir, 'junit.xml');
        const { code, output } = await run(
          found.cli,
          [
            'run',
            `${catalog.baseUrl}/openapi/v3/api-docs`,
            '--url',
            catalog.baseUrl,
            '--checks',
            'not_a_server_error,ignored_auth',
            '--header',
            `Authorization: Bearer ${token}`,
            '--header',
            'X-RestLi-Protocol-Version: 2.0.0',
            '--exclude-path-regex',
            EXCLUDED_PATHS,
            // Not the coverage phase: on this Python (3.11) it can crash inside hypothesis while
            // describing a filter ("AST constructor recursion depth mismatch"), a tool error that
            // fails the run without any request having failed.
            '--phases',
            'examples,fuzzing',
            '--max-examples',
            '5',
            '--max-time',
            String(MAX_TIME_SECONDS),
            '--workers',
            '4',
            '--request-timeout',
            '30',
            '--seed',
            '20260',
            '--suppress-health-check',
            'all',
            '--warnings',
            'off',
            '--report',
            'junit',
            '--report-junit-path',
            report,
          ],
          workDir,
        );
        const summary = output.split('\n').slice(-60).join('\n');
        console.log(`schemathesis exited ${code}:\n${summary}`);
        expect(existsSync(report), summary).toBe(true);
        const junit = readFileSync(report, 'utf8');
        // The report must show operations were tested, so a run that tested nothing cannot pass.
        expect(Number(/tests="(\d+)"/.exec(junit)?.[1] ?? 0), summary).toBeGreaterThan(100);
        expect(code, summary).toBe(0);
      },
      (MAX_TIME_SECONDS + 120) * 1000,
    );
  },
);
