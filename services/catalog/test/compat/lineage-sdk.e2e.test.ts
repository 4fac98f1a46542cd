import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { personalAccessToken, startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/** The pinned SDK's lineage client (`DataHubClient.lineage`) and `datahub lineage`, unchanged. */
const run = promisify(execFile);
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

type Row = [urn: string, hops: number, platform: string | null, columnPathEntries: number];
interface Report {
  expected: { up: string; d1: string; d2: string; d3: string };
  tables: Row[];
  oneHop: Row[];
  upstreamOfD3: Row[];
  columns: Row[];
  mysqlOnly: Row[];
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK lineage client on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK lineage client and datahub lineage on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'lineage_sdk.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('get_lineage gives every table to three hops with its hop count and platform', () => {
      const { d1, d2, d3 } = report.expected;
      expect(report.tables).toEqual([
        [d1, 1, 'snowflake', 0],
        [d2, 2, 'snowflake', 0],
        [d3, 3, 'mysql', 0],
      ]);
      expect(report.oneHop).toEqual([[d1, 1, 'snowflake', 0]]);
      // d2 -> d3 was written by add_lineage (a patch of upstreamLineage).
      expect(report.upstreamOfD3.map((r) => [r[0], r[1]])).toEqual([
        [d2, 1],
        [d1, 2],
      ]);
    });

    it('get_lineage of a column follows column lineage, each dataset with the column path to it', () => {
      const { d1, d2 } = report.expected;
      // d2 -> d3 has no column lineage; the paths list the columns on the way (source column first).
      expect(report.columns).toEqual([
        [d1, 1, 'snowflake', 2],
        [d2, 2, 'snowflake', 3],
      ]);
    });

    it('get_lineage with a platform filter keeps only that platform', () => {
      expect(report.mysqlOnly.map((r) => r[0])).toEqual([report.expected.d3]);
    });

    it('datahub lineage prints the lineage as JSON', async () => {
      if ('skip' in found) throw new Error(found.skip);
      const cli = join(dirname(found.python), 'datahub');
      const env = {
        ...process.env,
        DATAHUB_TELEMETRY_ENABLED: 'false',
        DATAHUB_GMS_URL: catalog.baseUrl,
        DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
      };
      const { stdout } = await run(
        cli,
        [
          'lineage',
          '--urn',
          report.expected.d3,
          '--direction',
          'upstream',
          '--hops',
          '3',
          '--format',
          'json',
        ],
        { env, timeout: 180_000 },
      );
      const printed = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
        metadata: { count: number; max_hops_found: number };
        results: { urn: string; hops: number; platform: string }[];
      };
      const { up, d1, d2 } = report.expected;
      expect(printed.metadata).toMatchObject({ count: 3, max_hops_found: 3 });
      expect(printed.results.map((r) => [r.urn, r.hops, r.platform]).sort()).toEqual(
        [
          [d2, 1, 'snowflake'],
          [d1, 2, 'snowflake'],
          [up, 3, 'snowflake'],
        ].sort(),
      );
    });
  });
}
