import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CATALOG_OWN_ENTITIES, entityRegistry } from '@catalog/model';
import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import {
  enc,
  get,
  post,
  personalAccessToken,
  startTestCatalog,
  waitUntil,
  type JsonResponse,
  type TestCatalog,
} from '../harness.js';
import { datahubCli, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The ecosystem's CLI, unchanged: `datahub ingest` with the `file` source and the `datahub-rest` sink,
 * its run reporting on (a pipeline name), over a file that the pinned SDK writes with its own classes:
 * one proposal for every entity type and every aspect its registry gives that entity, plus snapshots.
 */
const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

/** Aspects the structured-property write rules judge against definitions. */
const STRUCTURED_PROPERTY_ASPECTS = new Set(['structuredProperties', 'propertyDefinition']);

/** A JSON response body as an object. */
function bodyOf(res: JsonResponse): Record<string, unknown> {
  return res.body as Record<string, unknown>;
}

interface Sample {
  readonly urn: string;
  readonly aspect: string;
}

interface FileReport {
  readonly entities: readonly string[];
  readonly aspects: readonly string[];
  readonly proposals: number;
  readonly snapshots: number;
  readonly snapshotDataset: string;
  readonly snapshotUser: string;
  readonly samples: readonly Sample[];
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping datahub ingest on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(
    `datahub ingest (file source, datahub-rest sink) on ${family.name}`,
    () => {
      let catalog: TestCatalog;
      let dir: string;
      let file: FileReport;
      let output: string;
      let exitCode = 0;
      let env: NodeJS.ProcessEnv;
      let datahub: string;
      let tag: string;

      beforeAll(async () => {
        if ('skip' in found) return;
        catalog = await startTestCatalog(family.env());
        dir = await mkdtemp(join(tmpdir(), 'catalog-ingest-'));
        // The CLI authenticates with a personal access token, as users run it.
        env = {
          ...process.env,
          DATAHUB_TELEMETRY_ENABLED: 'false',
          DATAHUB_GMS_URL: catalog.baseUrl,
          DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
        };
        tag = Date.now().toString(36);
        const made = await run(
          found.python,
          [join(here, 'make_ingest_file.py'), join(dir, 'metadata.json'), tag, catalog.baseUrl],
          { env, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
        );
        file = JSON.parse(made.stdout.trim().split('\n').pop()!) as FileReport;
        const recipe = [
          `pipeline_name: compat-file-${tag}`,
          'source:',
          '  type: file',
          '  config:',
          `    path: ${join(dir, 'metadata.json')}`,
          'sink:',
          '  type: datahub-rest',
          '  config:',
          `    server: ${catalog.baseUrl}`,
          '    token: ${DATAHUB_GMS_TOKEN}',
        ].join('\n');
        await writeFile(join(dir, 'recipe.yml'), recipe);
        datahub = datahubCli(found.python);
        try {
          const result = await run(datahub, ['ingest', '-c', join(dir, 'recipe.yml')], {
            env,
            timeout: 300_000,
            maxBuffer: 64 * 1024 * 1024,
          });
          output = result.stdout + result.stderr;
        } catch (error) {
          const failed = error as { code?: number; stdout?: string; stderr?: string };
          exitCode = failed.code ?? 1;
          output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
        }
      }, 600_000);

      afterAll(async () => {
        await catalog?.dispose();
        if (dir) await rm(dir, { recursive: true, force: true });
      });

      it('covers at least 15 entity types and 40 aspects, as proposals and snapshots', () => {
        expect(file.entities.length).toBeGreaterThanOrEqual(15);
        expect(file.aspects.length).toBeGreaterThanOrEqual(40);
        expect(file.snapshots).toBeGreaterThan(0);
        // Every entity type of the ecosystem's registry that carries an aspect besides its key is in the
        // file (the SDK writes it with its own classes: it knows none of the catalog's own entities).
        const expected = entityRegistry
          .entities()
          .filter((e) => e.aspects.size > 1 && !CATALOG_OWN_ENTITIES.has(e.name))
          .map((e) => e.name);
        expect([...file.entities].sort()).toEqual(expected.sort());
      });

      it('ends with 0 failures and exit code 0', () => {
        expect(output, output.slice(-4000)).toContain('Pipeline finished successfully');
        expect(exitCode).toBe(0);
      });

      it('makes every versioned aspect readable through entitiesV2', async () => {
        const byUrn = new Map<string, Set<string>>();
        for (const sample of file.samples) {
          const entity = entityRegistry.getEntity(sample.urn.split(':')[2] ?? '');
          if (entity?.aspects.get(sample.aspect)?.kind !== 'versioned') continue;
          // The structured-property write rules refuse the generator's made-up values (a corpuser urn
          // as propertyUrn, an unknown valueType), as the ecosystem's validators do; those writes are
          // covered by structured-properties-writes.e2e.test.ts.
          if (STRUCTURED_PROPERTY_ASPECTS.has(sample.aspect)) continue;
          byUrn.set(sample.urn, (byUrn.get(sample.urn) ?? new Set()).add(sample.aspect));
        }
        // The sink writes asynchronously (the SDK's default emit mode): wait until persistence caught up.
        const missingNow = async (): Promise<string[]> => {
          const missing: string[] = [];
          for (const [urn, aspects] of byUrn) {
            const res = await get(catalog.baseUrl, `/entitiesV2/${enc(urn)}`);
            expect(res.status, urn).toBe(200);
            const stored = Object.keys((bodyOf(res)['aspects'] ?? {}) as Record<string, unknown>);
            for (const aspect of aspects) if (!stored.includes(aspect)) missing.push(`${urn} ${aspect}`);
          }
          return missing;
        };
        const missing = await waitUntil(missingNow, (m) => m.length === 0, 60_000).catch(() => missingNow());
        expect(missing).toEqual([]);
      });

      it('stores time-series aspects and the snapshots', async () => {
        const profiled = file.samples.find((s) => s.aspect === 'datasetProfile');
        expect(profiled).toBeDefined();
        const values = await waitUntil(
          async () => {
            const res = await post(catalog.baseUrl, '/aspects?action=getTimeseriesAspectValues', {
              urn: profiled!.urn,
              entity: 'dataset',
              aspect: 'datasetProfile',
              startTimeMillis: 0,
              endTimeMillis: Date.now() + 86_400_000,
            });
            return (bodyOf(res)['value'] as { values?: unknown[] } | undefined)?.values ?? [];
          },
          (v) => v.length > 0,
          30_000,
        );
        expect(values).toHaveLength(1);
        const dataset = await get(catalog.baseUrl, `/entitiesV2/${enc(file.snapshotDataset)}`);
        expect(bodyOf(dataset)['aspects']).toMatchObject({
          datasetProperties: { value: { description: 'from a snapshot', customProperties: { k: 'v' } } },
          globalTags: { value: { tags: [{ tag: expect.stringMatching(/^urn:li:tag:mce_/) }] } },
        });
        const user = await get(catalog.baseUrl, `/entitiesV2/${enc(file.snapshotUser)}`);
        expect(bodyOf(user)['aspects']).toMatchObject({
          corpUserInfo: { value: { displayName: 'Snapshot User' } },
        });
      });

      it("stores the run reporter's execution request and indexes what the run wrote", async () => {
        const search = async (entity: string, input: string): Promise<string[]> => {
          const res = await post(catalog.baseUrl, '/entities?action=search', {
            entity,
            input,
            start: 0,
            count: 50,
          });
          return (bodyOf(res)['value'] as { entities?: string[] } | undefined)?.entities ?? [];
        };
        const requests = await waitUntil(
          () => search('dataHubExecutionRequest', '*'),
          (urns) => urns.some((u) => u.includes(':file-')),
          30_000,
        );
        expect(requests.some((u) => u.includes(':file-'))).toBe(true);
        const found = await waitUntil(
          () => search('dataset', 'snapshot'),
          (urns) => urns.includes(file.snapshotDataset),
          30_000,
        );
        expect(found).toContain(file.snapshotDataset);
      });

      it('lists the run with its status through `datahub ingest list-source-runs`', async () => {
        // The run reporter's source is `[CLI] file [<pipeline name>]`; the CLI filters sources by name.
        const listed = await waitUntil(
          async () =>
            (await run(datahub, ['ingest', 'list-source-runs', '--source', `compat-file-${tag}`], { env }))
              .stdout,
          (out) => out.includes('SUCCESS'),
          30_000,
        );
        expect(listed).toContain(`[CLI] file [compat-file-${tag}]`);
        const row = listed.split('\n').find((line) => line.includes('SUCCESS')) ?? '';
        // runId | source | startTime | status | URN, with the start time printed from startTimeMs.
        expect(row).toMatch(
          /file-\S+\s*\|\s*\[CLI\] file .*\|\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\s*\|\s*SUCCESS\s*\|\s*urn:li:dataHubIngestionSource:/,
        );
      });

      it('deploys a recipe as an ingestion source with `datahub ingest deploy`, and redeploys it', async () => {
        const recipe = join(dir, 'deploy.yml');
        const name = `compat-deploy-${tag}`;
        const deploy = async (schedule: string) => {
          await writeFile(
            recipe,
            ['source:', '  type: file', '  config:', `    path: ${join(dir, 'metadata.json')}`].join('\n'),
          );
          return run(datahub, ['ingest', 'deploy', '--name', name, '-c', recipe, '--schedule', schedule], {
            env,
          });
        };
        const first = await deploy('0 5 * * *');
        expect(first.stdout).toContain(
          `Successfully wrote data ingestion source metadata for recipe ${name}`,
        );
        const urn = /urn:li:dataHubIngestionSource:deploy-[0-9a-f]+/.exec(first.stdout)?.[0];
        expect(urn, first.stdout).toBeDefined();
        await deploy('0 6 * * *');
        const res = await post(catalog.baseUrl, '/api/graphql', {
          query:
            'query($urn: String!) { ingestionSource(urn: $urn) { name schedule { interval timezone } config { recipe executorId } } }',
          variables: { urn },
        });
        const source = (bodyOf(res)['data'] as { ingestionSource: Record<string, unknown> }).ingestionSource;
        expect(source).toMatchObject({
          name,
          schedule: { interval: '0 6 * * *', timezone: 'UTC' },
          config: { executorId: 'default' },
        });
        expect(JSON.parse((source['config'] as { recipe: string }).recipe)).toMatchObject({
          source: { type: 'file' },
        });
      });
    },
  );
}
