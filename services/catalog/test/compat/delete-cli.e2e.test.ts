import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { skipUnlessCi } from '@catalog/testkit';
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
import { datahubCli, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The ecosystem's CLI, unchanged: `datahub delete` hard (`action=delete`, then `deleteReferences` for a
 * tag), soft (status removed), and of a time-series aspect in a time range, each followed by
 * `datahub get`, against the catalog.
 */
const run = promisify(execFile);
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping datahub delete on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`datahub delete (CLI) on ${family.name}`, () => {
    let catalog: TestCatalog;
    let env: Record<string, string | undefined>;
    const id = `dc${Math.random().toString(36).slice(2, 8)}`;
    const hard = datasetUrn(`${id}.hard`);
    const soft = datasetUrn(`${id}.soft`);
    const profiled = datasetUrn(`${id}.profiled`);
    const tag = `urn:li:tag:${id}`;
    const tagged = datasetUrn(`${id}.tagged`);
    // Seconds, as the CLI takes them; the values sit 100 s apart.
    const T0 = 1_700_000_000;

    const datahub = async (args: readonly string[]): Promise<string> => {
      if ('skip' in found) throw new Error(found.skip);
      const cli = datahubCli(found.python);
      try {
        const { stdout, stderr } = await run(cli, [...args], { env, timeout: 180_000, maxBuffer: 1 << 24 });
        return stdout + stderr;
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(`datahub ${args.join(' ')}: ${failed.message}\n${failed.stdout}\n${failed.stderr}`);
      }
    };
    /** `datahub get --urn` (optionally of some aspects): the JSON it prints. */
    const getEntity = async (urn: string, aspects: readonly string[] = []) => {
      const out = await datahub(['get', '--urn', urn, ...aspects.flatMap((a) => ['-a', a])]);
      const start = out.indexOf('{');
      return JSON.parse(out.slice(start, out.lastIndexOf('}') + 1)) as Record<string, unknown>;
    };
    const profileTimes = async (urn: string) => {
      const res = await request(catalog.baseUrl, 'POST', '/aspects?action=getTimeseriesAspectValues', {
        urn,
        entity: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: 0,
        endTimeMillis: 4_000_000_000_000,
      });
      const values = (res.body as { value: { values: { aspect: { value: string } }[] } }).value.values;
      return values.map((v) => (JSON.parse(v.aspect.value) as { timestampMillis: number }).timestampMillis);
    };

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      env = {
        ...process.env,
        DATAHUB_TELEMETRY_ENABLED: 'false',
        DATAHUB_GMS_URL: catalog.baseUrl,
        DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
      };
      const res = await request(catalog.baseUrl, 'POST', '/aspects?action=ingestProposalBatch', {
        async: 'false',
        proposals: [
          proposal(hard, 'datasetProperties', { name: `${id}_hard`, description: 'to go' }),
          proposal(soft, 'datasetProperties', { name: `${id}_soft` }),
          proposal(profiled, 'datasetProperties', { name: `${id}_profiled` }),
          proposal(tag, 'tagProperties', { name: id }),
          proposal(tagged, 'globalTags', { tags: [{ tag }] }),
          ...[0, 100, 200].map((s) =>
            proposal(profiled, 'datasetProfile', { timestampMillis: (T0 + s) * 1000, rowCount: s }),
          ),
        ],
      });
      if (res.status !== 200) throw new Error(`setup: ${res.status} ${res.text}`);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('--hard -f removes the entity: datahub get finds nothing', async () => {
      expect(Object.keys(await getEntity(hard))).toContain('datasetProperties');
      const out = await datahub(['delete', '--urn', hard, '--hard', '-f']);
      expect(out).not.toMatch(/Traceback|Error/);
      const after = await getEntity(hard);
      expect(after['datasetProperties']).toBeUndefined();
      expect(after['datasetKey']).toBeUndefined();
    });

    it('--soft -f sets status removed: datahub get still shows the entity', async () => {
      await datahub(['delete', '--urn', soft, '--soft', '-f']);
      const after = await getEntity(soft);
      expect(after['status']).toEqual({ removed: true });
      expect((after['datasetProperties'] as { name: string }).name).toBe(`${id}_soft`);
    });

    it('--hard -a datasetProfile --start-time --end-time -f deletes the values in the range', async () => {
      expect(await profileTimes(profiled)).toHaveLength(3);
      await datahub([
        'delete',
        '--urn',
        profiled,
        '-a',
        'datasetProfile',
        '--hard',
        '--start-time',
        String(T0 + 50),
        '--end-time',
        String(T0 + 250),
        '-f',
      ]);
      expect(await profileTimes(profiled)).toEqual([T0 * 1000]);
      // The entity itself is untouched.
      expect(Object.keys(await getEntity(profiled))).toContain('datasetProperties');
    });

    it('--hard of a tag also removes the references to it', async () => {
      await datahub(['delete', '--urn', tag, '--hard', '-f']);
      expect((await getEntity(tag))['tagProperties']).toBeUndefined();
      const tags = (await getEntity(tagged))['globalTags'] as { tags: unknown[] } | undefined;
      expect(tags?.tags ?? []).toEqual([]);
    });
  });
}
