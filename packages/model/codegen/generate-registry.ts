import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { fetchWheel, filesInWheel, type PinnedWheel } from './fetch-wheel.js';
import { registryFromAvsc } from './registry-from-avsc.js';
import { renderRegistryModule } from './render-registry-module.js';

/**
 * `pnpm registry:generate` writes `packages/model/src/generated/registry-data.ts` from the pinned
 * `acryl-datahub` wheel's Avro schemas; with `--check` it only compares and exits 1 when the committed
 * file differs from what the generator makes. The version is the one infra/local/python-sdk.sh pins.
 */
const WHEEL: PinnedWheel = {
  project: 'acryl-datahub',
  version: '1.7.0.17',
  sha256: 'b59787604fd6a68493a7976d60f86247ae798f62da2987a4b40e82d70b56b797',
};
const SCHEMAS = 'datahub/metadata/schemas/';
const TARGET = fileURLToPath(new URL('../src/generated/registry-data.ts', import.meta.url));

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const files = filesInWheel(await fetchWheel(WHEEL), SCHEMAS, '.avsc');
  if (files.size === 0) throw new Error(`The wheel has no ${SCHEMAS}*.avsc`);
  const data = registryFromAvsc(files, {
    package: WHEEL.project,
    version: WHEEL.version,
    sha256: WHEEL.sha256,
  });
  const text = renderRegistryModule(data);
  const summary = `${data.entities.length} entities, ${data.aspects.length} aspects`;
  if (check) {
    const committed = await readFile(TARGET, 'utf8').catch(() => '');
    if (committed !== text) {
      process.stderr.write(
        `${TARGET} is not what the generator makes (${summary}): run pnpm registry:generate\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`registry data is current (${summary})\n`);
    return;
  }
  await writeFile(TARGET, text);
  process.stdout.write(`wrote ${TARGET} (${summary})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
