import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isSkipped, kafkaForTests, skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from '../child-catalog.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, enc, get, ingest, proposal, waitUntil } from '../harness.js';
import { pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The ecosystem's Kafka emitter (acryl-datahub DatahubKafkaEmitter, confluent_kafka) against gateway and
 * persistence running as separate processes on real Kafka: the emitter registers its MCP schema with the
 * gateway's schema registry, writes to the proposal topic, and the aspect becomes readable over Rest.li.
 */

const kafka = await kafkaForTests();
const python = isSkipped(kafka) ? undefined : await pythonWithKafkaEmitter();
const skip = skipUnlessCi(
  isSkipped(kafka) ? kafka.skip : python && 'skip' in python ? python.skip : undefined,
);
if (skip) console.warn(`[kafka-emitter.e2e] skipped: ${skip}`);

const run = promisify(execFile);
const script = resolve(dirname(fileURLToPath(import.meta.url)), 'kafka_emit.py');
const PROPS = 'com.linkedin.dataset.DatasetProperties';

describe.skipIf(skip !== undefined)(`Python Kafka emitter${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const prefix = `compat-${randomUUID().slice(0, 8)}.`;
  const topics = {
    METADATA_CHANGE_PROPOSAL_TOPIC_NAME: `${prefix}MetadataChangeProposal_v1`,
    FAILED_METADATA_CHANGE_PROPOSAL_TOPIC_NAME: `${prefix}FailedMetadataChangeProposal_v1`,
    METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME: `${prefix}MetadataChangeLog_Versioned_v1`,
    METADATA_CHANGE_LOG_TIMESERIES_TOPIC_NAME: `${prefix}MetadataChangeLog_Timeseries_v1`,
    PLATFORM_EVENT_TOPIC_NAME: `${prefix}PlatformEvent_v1`,
    DATAHUB_UPGRADE_HISTORY_TOPIC_NAME: `${prefix}DataHubUpgradeHistory_v1`,
    METADATA_CHANGE_PROPOSAL_OUTCOME_TOPIC_NAME: `${prefix}MetadataChangeProposalOutcome_v1`,
    CATALOG_SCHEMAS_TOPIC_NAME: `${prefix}CatalogSchemas_v1`,
  };
  const children: ChildService[] = [];
  let dataDir = '';
  let base = '';
  let brokers = '';

  beforeAll(async () => {
    if (isSkipped(kafka)) return;
    brokers = kafka.brokers.join(',');
    dataDir = mkdtempSync(join(tmpdir(), 'catalog-kafka-compat-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Both processes share the data directory: the embedded aspect store is one SQLite file.
    const env = {
      ...topics,
      KAFKA_BOOTSTRAP_SERVER: brokers,
      CATALOG_DATA_DIR: dataDir,
      PERSISTENCE_GROUP_ID: `${prefix}persistence`,
      INDEXER_GROUP_ID: `${prefix}indexer`,
    };
    const persistence = spawnService('services/persistence/src/main.ts', { ...env, LOG_LEVEL: 'info' });
    children.push(persistence);
    const gateway = spawnService('services/gateway/src/main.ts', {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    children.push(gateway);
    await waitForHealth(base, gateway);
    await waitUntil(
      async () => {
        if (persistence.process.exitCode !== null)
          throw new Error(`persistence exited:\n${persistence.output()}`);
        return persistence.output().includes('persistence consuming');
      },
      (ready) => ready,
      60_000,
    );
  });

  afterAll(async () => {
    for (const child of children) child.process.kill('SIGTERM');
    await Promise.all(children.map((c) => c.exited));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function emit(urn: string, description: string, extended = false): Promise<Record<string, unknown>> {
    if (!python || 'skip' in python) throw new Error('no python');
    const args = [
      script,
      '--bootstrap',
      brokers,
      '--registry',
      `${base}/schema-registry/api`,
      '--topic',
      topics.METADATA_CHANGE_PROPOSAL_TOPIC_NAME,
      '--urn',
      urn,
      '--description',
      description,
      ...(extended ? ['--extended'] : []),
    ];
    const { stdout } = await run(python.python, args, { timeout: 60_000 });
    return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
  }

  async function readDescription(urn: string): Promise<string | undefined> {
    const res = await get(base, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`);
    if (res.status === 404) return undefined;
    const aspect = (res.body as { aspect?: Record<string, { description?: string }> }).aspect;
    return aspect?.[PROPS]?.description;
  }

  it('registers the SDK schema under our fixed MCP id and the written aspect becomes readable', async () => {
    const urn = datasetUrn(`${prefix}kafka_emitter`);
    const delivered = await emit(urn, 'written by DatahubKafkaEmitter');
    expect(delivered).toMatchObject({ delivered: true, topic: topics.METADATA_CHANGE_PROPOSAL_TOPIC_NAME });
    const subject = `${topics.METADATA_CHANGE_PROPOSAL_TOPIC_NAME}-value`;
    const versions = await fetch(`${base}/schema-registry/api/subjects/${subject}/versions`, {
      headers: SYSTEM_AUTH_HEADERS,
    });
    expect(await versions.json()).toEqual([1]);
    const description = await waitUntil(
      () => readDescription(urn),
      (d) => d !== undefined,
      30_000,
    );
    expect(description).toBe('written by DatahubKafkaEmitter');
  });

  it('gives a newer producer schema its own id and still reads its records', async () => {
    const urn = datasetUrn(`${prefix}extended_schema`);
    expect(await emit(urn, 'written with one field more', true)).toMatchObject({ delivered: true });
    const subject = `${topics.METADATA_CHANGE_PROPOSAL_TOPIC_NAME}-value`;
    const latest = (await (
      await fetch(`${base}/schema-registry/api/subjects/${subject}/versions/latest`, {
        headers: SYSTEM_AUTH_HEADERS,
      })
    ).json()) as { id: number; version: number };
    expect(latest.version).toBe(2);
    expect(latest.id).toBeGreaterThanOrEqual(100);
    const description = await waitUntil(
      () => readDescription(urn),
      (d) => d !== undefined,
      30_000,
    );
    expect(description).toBe('written with one field more');
  });

  it('answers a synchronous Rest.li write once persistence has applied it over Kafka', async () => {
    const urn = datasetUrn(`${prefix}sync_write`);
    const res = await ingest(base, proposal(urn, 'datasetProperties', { description: 'sync over kafka' }));
    expect(res.status).toBe(200);
    expect(await readDescription(urn)).toBe('sync over kafka');
  });
});
