import { execFile } from 'node:child_process';
import { personalAccessToken } from '../harness.js';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * A Python with acryl-datahub and its Kafka extra (confluent_kafka): CATALOG_PYTHON when set, else the
 * venv of infra/local/python-sdk.sh; otherwise why there is none (the suite then skips and says so).
 */
export async function pythonWithKafkaEmitter(): Promise<{ python: string } | { skip: string }> {
  let python = process.env['CATALOG_PYTHON'];
  if (!python) {
    const script = resolve(repoRoot, 'infra/local/python-sdk.sh');
    if (!existsSync(script)) return { skip: 'no CATALOG_PYTHON and no infra/local/python-sdk.sh' };
    try {
      const { stdout } = await run('bash', [script], { timeout: 600_000 });
      python = resolve(stdout.trim(), 'bin/python');
    } catch (error) {
      return { skip: `infra/local/python-sdk.sh failed: ${(error as Error).message.split('\n')[0]}` };
    }
  }
  try {
    await run(python, ['-c', 'import confluent_kafka, datahub.emitter.kafka_emitter'], { timeout: 60_000 });
    return { python };
  } catch {
    return {
      skip: `${python} lacks the Kafka emitter: pip install 'acryl-datahub[datahub-kafka]' there, or set CATALOG_PYTHON`,
    };
  }
}

/**
 * Runs one of this folder's Python scripts with `args` (the first is the catalog's URL) and returns the
 * JSON its last stdout line holds (the scripts print their report there), with the SDK's telemetry off.
 * The SDK authenticates as users do: with a personal access token of the root user, minted for the run
 * and handed over in DATAHUB_GMS_TOKEN.
 */
export async function pythonReport<T>(python: string, script: string, args: readonly string[]): Promise<T> {
  const token = await personalAccessToken(args[0]!);
  const { stdout } = await run(python, [resolve(dirname(fileURLToPath(import.meta.url)), script), ...args], {
    timeout: 240_000,
    env: { ...process.env, DATAHUB_TELEMETRY_ENABLED: 'false', DATAHUB_GMS_TOKEN: token },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}
