import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { skipUnlessCi } from '@catalog/testkit';
import { personalAccessToken } from '../harness.js';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * CATALOG_PYTHON, a Python with acryl-datahub that `.ci/run` prepares (infra/local/python-sdk.sh), when
 * it is set and present; else `skip` says why the suite cannot run (and under CI=true this throws).
 */
export function sdkPython(): { python: string; skip?: undefined } | { python?: undefined; skip: string } {
  const python = process.env['CATALOG_PYTHON'];
  if (python && existsSync(python)) return { python };
  const skip = skipUnlessCi(
    'CATALOG_PYTHON (a Python with acryl-datahub; see infra/local/python-sdk.sh) is not set',
  );
  return { skip: skip! };
}

/** The `datahub` CLI installed beside that Python. */
export function datahubCli(python: string): string {
  return join(dirname(python), 'datahub');
}

/**
 * A Python with acryl-datahub and its Kafka extra (confluent_kafka): CATALOG_PYTHON, which `.ci/run`
 * prepares with infra/local/python-sdk.sh before the tests start. Tests never install packages
 * themselves; without it the suite says why it cannot run (and under CI=true fails).
 */
export async function pythonWithKafkaEmitter(): Promise<{ python: string } | { skip: string }> {
  const python = process.env['CATALOG_PYTHON'];
  if (!python) {
    return {
      skip: 'CATALOG_PYTHON (a Python with acryl-datahub[datahub-kafka]; see infra/local/python-sdk.sh) is not set',
    };
  }
  try {
    await run(python, ['-c', 'import confluent_kafka, datahub.emitter.kafka_emitter'], { timeout: 60_000 });
    return { python };
  } catch {
    return {
      skip: `${python} lacks the Kafka emitter: run infra/local/python-sdk.sh, or pip install 'acryl-datahub[datahub-kafka]' there`,
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
