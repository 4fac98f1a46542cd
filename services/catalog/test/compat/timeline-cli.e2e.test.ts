import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import {
  datasetUrn,
  personalAccessToken,
  proposal,
  request,
  startTestCatalog,
  type TestCatalog,
} from '../harness.js';
import { datahubCli, sdkPython } from './kafka-emitter-python.js';

/**
 * The ecosystem's CLI, unchanged: `datahub timeline --urn … --category …` prints an entity's change
 * history from GET /openapi/v2/timeline/v1/{urn}: one line per write time with its computed semantic
 * version, then one per change. Before the timeline existed it printed a 404 and exited 0.
 */
const run = promisify(execFile);
const { python, skip: pythonSkip } = sdkPython();

interface Transaction {
  semVer: string;
  semVerChange: string;
  changeEvents: { category: string; operation: string; modifier: string }[];
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping datahub timeline on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`datahub timeline (CLI) on ${family.name}`, () => {
    let catalog: TestCatalog;
    let env: Record<string, string | undefined>;
    const id = `tl${Math.random().toString(36).slice(2, 8)}`;
    const urn = datasetUrn(`${id}.orders`, 'kafka');

    const datahub = async (args: readonly string[]): Promise<string> => {
      const cli = datahubCli(python!);
      try {
        const { stdout } = await run(cli, [...args], { env, timeout: 180_000, maxBuffer: 1 << 24 });
        return stdout;
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(`datahub ${args.join(' ')}: ${failed.message}\n${failed.stdout}\n${failed.stderr}`);
      }
    };
    const write = async (aspect: string, value: unknown) => {
      const res = await request(catalog.baseUrl, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(urn, aspect, value),
      });
      expect(res.status, res.text).toBe(200);
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      env = {
        ...process.env,
        DATAHUB_TELEMETRY_ENABLED: 'false',
        DATAHUB_GMS_URL: catalog.baseUrl,
        DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
      };
      await write('globalTags', { tags: [{ tag: 'urn:li:tag:PII' }] });
      await write('globalTags', { tags: [{ tag: 'urn:li:tag:PII' }, { tag: 'urn:li:tag:Legacy' }] });
      await write('globalTags', { tags: [{ tag: 'urn:li:tag:Confidential' }] });
      await write('ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] });
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('prints each tag change under its computed semantic version', async () => {
      const out = await datahub(['timeline', '--urn', urn, '--category', 'TAG']);
      const versions = out.split('\n').filter((line) => / - \d+\.\d+\.\d+-computed$/.test(line));
      expect(versions.map((line) => line.split(' - ')[1])).toEqual([
        '0.0.0-computed',
        '0.1.0-computed',
        '0.2.0-computed',
      ]);
      expect(out).toContain(
        `\tADD TAG dataset:kafka:${id}.orders (urn:li:tag:PII): Tag 'PII' added to entity '${urn}'.`,
      );
      expect(out).toContain(`\tREMOVE TAG dataset:kafka:${id}.orders (urn:li:tag:Legacy):`);
      expect(out).not.toContain('404');
    });

    it('--verbose prints the transactions as JSON; owner is read as OWNERSHIP', async () => {
      const out = await datahub(['timeline', '--urn', urn, '--category', 'owner', '--category', 'tag', '-v']);
      const transactions = JSON.parse(out.slice(out.indexOf('['))) as Transaction[];
      expect(transactions.map((t) => [t.semVer, t.semVerChange])).toEqual([
        ['0.0.0-computed', 'MINOR'],
        ['0.1.0-computed', 'MINOR'],
        ['0.2.0-computed', 'MINOR'],
        ['0.3.0-computed', 'MINOR'],
      ]);
      expect(transactions[3]?.changeEvents).toEqual([
        expect.objectContaining({
          category: 'OWNERSHIP',
          operation: 'ADD',
          modifier: 'urn:li:corpuser:jdoe',
        }),
      ]);
    });
  });
}
