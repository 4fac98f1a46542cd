import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { datasetUrn, personalAccessToken, startTestCatalog, type TestCatalog } from '../harness.js';
import { datahubCli, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The ecosystem's CLI, unchanged: two `datahub ingest -c recipe` runs with their own run ids (file
 * source, datahub-rest sink), then `datahub ingest list-runs`, `ingest show --run-id`, `ingest rollback
 * --dry-run` and a real one (`-f`), and `datahub get --urn` after it.
 */
const run = promisify(execFile);
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping datahub ingest rollback on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`datahub ingest rollback (CLI) on ${family.name}`, () => {
    let catalog: TestCatalog;
    let env: Record<string, string | undefined>;
    let dir: string;
    const id = `rc${Math.random().toString(36).slice(2, 8)}`;
    const first = `${id}-first`;
    const second = `${id}-second`;
    const kept = datasetUrn(`${id}.kept`);
    const added = datasetUrn(`${id}.added`);

    const datahub = async (args: readonly string[]): Promise<string> => {
      if ('skip' in found) throw new Error(found.skip);
      const cli = datahubCli(found.python);
      try {
        const { stdout, stderr } = await run(cli, [...args], {
          env,
          cwd: dir,
          timeout: 300_000,
          maxBuffer: 1 << 24,
        });
        return stdout + stderr;
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(`datahub ${args.join(' ')}: ${failed.message}\n${failed.stdout}\n${failed.stderr}`);
      }
    };
    const getEntity = async (urn: string) => {
      const out = await datahub(['get', '--urn', urn]);
      const start = out.indexOf('{');
      return JSON.parse(out.slice(start, out.lastIndexOf('}') + 1)) as Record<
        string,
        Record<string, unknown>
      >;
    };
    const mcp = (urn: string, aspectName: string, json: Record<string, unknown>) => ({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { json },
    });
    /** `datahub ingest -c` of a file of proposals, with the recipe's run id. */
    const ingest = async (runId: string, proposals: readonly Record<string, unknown>[]) => {
      const file = join(dir, `${runId}.json`);
      await writeFile(file, JSON.stringify(proposals));
      const recipe = [
        `run_id: ${runId}`,
        `pipeline_name: ${id}-pipeline`,
        'source:',
        '  type: file',
        '  config:',
        `    path: ${file}`,
        'sink:',
        '  type: datahub-rest',
        '  config:',
        `    server: ${catalog.baseUrl}`,
        '    token: ${DATAHUB_GMS_TOKEN}',
      ].join('\n');
      await writeFile(join(dir, `${runId}.yml`), recipe);
      const out = await datahub(['ingest', '-c', join(dir, `${runId}.yml`)]);
      expect(out, out.slice(-3000)).toContain('Pipeline finished successfully');
    };

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      dir = await mkdtemp(join(tmpdir(), 'catalog-rollback-'));
      env = {
        ...process.env,
        DATAHUB_TELEMETRY_ENABLED: 'false',
        DATAHUB_GMS_URL: catalog.baseUrl,
        DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
      };
      await ingest(first, [mcp(kept, 'datasetProperties', { description: 'first run' })]);
      await ingest(second, [
        mcp(kept, 'datasetProperties', { description: 'second run' }),
        mcp(added, 'datasetProperties', { description: 'added by the second run' }),
      ]);
    }, 600_000);

    afterAll(async () => {
      await catalog?.dispose();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('lists both runs', async () => {
      const out = await datahub(['ingest', 'list-runs']);
      expect(out).toContain(first);
      expect(out).toContain(second);
    });

    it('shows the rows of a run', async () => {
      const out = await datahub(['ingest', 'show', '--run-id', second]);
      expect(out).toContain(added);
      expect(out).toContain(kept);
      expect(out).toContain('datasetProperties');
    });

    it('rolls back in a dry run without changing anything, then for real', async () => {
      const dry = await datahub(['ingest', 'rollback', '--run-id', second, '--dry-run']);
      expect(dry).toContain('datasetProperties');
      expect((await getEntity(kept))['datasetProperties']).toMatchObject({ description: 'second run' });

      const real = await datahub(['ingest', 'rollback', '--run-id', second, '-f']);
      expect(real).toMatch(/rolled\s+back \d+ aspects/);
      expect((await getEntity(kept))['datasetProperties']).toMatchObject({ description: 'first run' });
      const gone = await getEntity(added);
      expect(gone['datasetProperties']).toBeUndefined();
      expect(gone['status']).toMatchObject({ removed: true });

      const shown = await datahub(['ingest', 'show', '--run-id', second]);
      expect(shown).not.toContain(kept);
    });
  });
}
