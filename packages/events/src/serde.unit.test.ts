import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import type { MetadataChangeLog, MetadataChangeProposal } from './event-types.js';
import { genericAspectFromJson, genericAspectToJson } from './generic-aspect.js';
import { eventSchemas, SchemaIds } from './schemas/event-schemas.js';
import { SerdeError } from './serde-error.js';
import {
  createEventDecoder,
  decodeFailedMcp,
  decodeMcl,
  decodeMcp,
  decodePlatformEvent,
  decodeUpgradeHistory,
  encodeFailedMcp,
  encodeMcl,
  encodeMcp,
  encodePlatformEvent,
  encodeUpgradeHistory,
} from './serde.js';

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)';

const fullMcp: MetadataChangeProposal = {
  auditHeader: { time: 1, server: 'host', appName: 'app', messageId: Buffer.alloc(16, 7), auditVersion: 1 },
  entityType: 'dataset',
  entityUrn: urn,
  entityKeyAspect: genericAspectFromJson({ name: 'db.table' }),
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: genericAspectFromJson({ description: 'héllo ✓', customProperties: { a: 'b' } }),
  systemMetadata: {
    lastObserved: 1_700_000_000_000,
    runId: 'run-1',
    lastRunId: 'run-0',
    pipelineName: 'p',
    properties: { clientId: 'x' },
    version: '3',
    schemaVersion: 1,
    aspectCreated: { time: 5, actor: 'urn:li:corpuser:a' },
    aspectModified: { time: 6, actor: 'urn:li:corpuser:b', impersonator: 'urn:li:corpuser:c', message: 'm' },
  },
  headers: { 'X-Request-Id': 'r1' },
};

/** Avro's zig-zag varint for int and long (spec §"Binary Encoding"). */
function varint(n: number): number[] {
  let z = BigInt(n) >= 0n ? BigInt(n) * 2n : -BigInt(n) * 2n - 1n;
  const out: number[] = [];
  do {
    let byte = Number(z & 0x7fn);
    z >>= 7n;
    if (z > 0n) byte |= 0x80;
    out.push(byte);
  } while (z > 0n);
  return out;
}
const str = (s: string): number[] => [...varint(Buffer.byteLength(s)), ...Buffer.from(s, 'utf8')];

describe('event serde', () => {
  it('round-trips a proposal with every field', () => {
    const buf = encodeMcp(fullMcp);
    expect([...buf.subarray(0, 5)]).toEqual([0, 0, 0, 0, 0]);
    expect(decodeMcp(buf)).toEqual(fullMcp);
  });

  it('omits absent optionals on decode and fills schema defaults for system metadata', () => {
    const decoded = decodeMcp(encodeMcp({ entityType: 'dataset', changeType: 'DELETE', systemMetadata: {} }));
    expect(decoded).toEqual({
      entityType: 'dataset',
      changeType: 'DELETE',
      systemMetadata: { lastObserved: 0, runId: 'no-run-id-provided', lastRunId: 'no-run-id-provided' },
    });
  });

  it('decodes a proposal built byte by byte from the Avro spec (field order and encoding)', () => {
    // One segment per field, in schema order.
    const segments: number[][] = [
      [0x00, 0x00, 0x00, 0x00, 0x00], // magic byte, schema id 0
      [0x00], // auditHeader: union branch 0 (null)
      str('dataset'), // entityType
      [0x02, ...str(urn)], // entityUrn: branch 1 (string)
      [0x00], // entityKeyAspect: null
      [0x0a], // changeType: enum index 5 = RESTATE
      [0x02, ...str('status')], // aspectName
      [0x02, ...str('{"removed":false}'), ...str('application/json')], // aspect: {value, contentType}
      [0x02], // systemMetadata: branch 1 (record)
      [0x00, ...varint(1_700_000_000_000)], // lastObserved: branch 0 (long)
      [0x00, ...str('run-1')], // runId: branch 0 (string)
      [0x00, ...str('run-0')], // lastRunId: branch 0 (string)
      [0x00, 0x00, 0x00], // pipelineName, registryName, registryVersion: null
      [0x02, ...varint(1), ...str('k'), ...str('v'), 0x00], // properties: one block of one entry, end
      [0x00, 0x00, 0x00, 0x00], // version, schemaVersion, aspectCreated, aspectModified: null
      [0x02, ...varint(1), ...str('traceparent'), ...str('00-ab'), 0x00], // headers
    ];
    const bytes = segments.flat();
    const decoded = decodeMcp(Buffer.from(bytes));
    expect(decoded).toEqual({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'RESTATE',
      aspectName: 'status',
      aspect: { value: Buffer.from('{"removed":false}'), contentType: 'application/json' },
      systemMetadata: {
        lastObserved: 1_700_000_000_000,
        runId: 'run-1',
        lastRunId: 'run-0',
        properties: { k: 'v' },
      },
      headers: { traceparent: '00-ab' },
    });
    expect(genericAspectToJson(decoded.aspect!)).toEqual({ removed: false });
    // And our encoder writes exactly those bytes.
    expect([...encodeMcp(decoded)]).toEqual(bytes);
  });

  it('round-trips change logs under both ids', () => {
    const mcl: MetadataChangeLog = {
      ...fullMcp,
      previousAspectValue: genericAspectFromJson({ description: 'old' }),
      previousSystemMetadata: { lastObserved: 1, runId: 'r', lastRunId: 'r' },
      created: { time: 9, actor: 'urn:li:corpuser:datahub' },
    };
    for (const id of [SchemaIds.metadataChangeLog, SchemaIds.metadataChangeLogTimeseries]) {
      const buf = encodeMcl(mcl, id);
      expect(buf.readInt32BE(1)).toBe(id);
      expect(decodeMcl(buf)).toEqual(mcl);
    }
  });

  it('round-trips failed proposals, platform events and upgrade history', () => {
    const failed = { metadataChangeProposal: fullMcp, error: 'boom' };
    expect(decodeFailedMcp(encodeFailedMcp(failed))).toEqual(failed);
    const event = {
      header: { timestampMillis: 42 },
      name: 'entityChangeEvent',
      payload: genericAspectFromJson({ a: 1 }),
    };
    expect(decodePlatformEvent(encodePlatformEvent(event))).toEqual(event);
    const upgrade = { version: 'v1.0.0-1', systemMetadata: { lastObserved: 3, runId: 'a', lastRunId: 'b' } };
    const buf = encodeUpgradeHistory(upgrade);
    expect(buf.readInt32BE(1)).toBe(8);
    expect(decodeUpgradeHistory(buf)).toEqual(upgrade);
  });

  it('rejects invalid events with the offending path', () => {
    const bad = { entityType: 'dataset', changeType: 'MERGE' } as unknown as MetadataChangeProposal;
    expect(() => encodeMcp(bad)).toThrow(
      expect.objectContaining({ reason: 'invalid-event', message: expect.stringContaining('changeType') }),
    );
  });

  it.each([
    ['empty', Buffer.alloc(0), 'truncated'],
    ['bad magic byte', Buffer.from([1, 0, 0, 0, 0, 0]), 'bad-magic-byte'],
    ['short header', Buffer.from([0, 0, 0]), 'truncated'],
    ['unknown schema id', Buffer.from([0, 0, 0, 0, 99, 0]), 'unknown-schema-id'],
    [
      'an MCL id for an MCP',
      Buffer.concat([Buffer.from([0, 0, 0, 0, 2]), encodeMcp(fullMcp).subarray(5)]),
      'unknown-schema-id',
    ],
    ['truncated body', encodeMcp(fullMcp).subarray(0, 40), 'truncated'],
    ['trailing bytes', Buffer.concat([encodeMcp(fullMcp), Buffer.from([1, 2])]), 'trailing-bytes'],
    ['bad union index', Buffer.from([0, 0, 0, 0, 0, 0x08]), 'malformed'],
  ])('rejects garbage: %s', (_name, buf, reason) => {
    let error: unknown;
    try {
      decodeMcp(buf);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SerdeError);
    expect((error as SerdeError).reason).toBe(reason);
  });

  it('rejects random bytes quickly with a SerdeError, never another error', () => {
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) & 0xff;
    const started = Date.now();
    for (let i = 0; i < 2000; i++) {
      const body = Buffer.from(Array.from({ length: 1 + (i % 64) }, next));
      const buf = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), body]);
      try {
        decodeMcp(buf);
      } catch (e) {
        expect(e).toBeInstanceOf(SerdeError);
      }
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('decodes a foreign writer schema through the resolver (older MCP without headers)', async () => {
    const mcpJson = JSON.parse(eventSchemas[0]!.schema) as { fields: { name: string }[] };
    const older = avro.Type.forSchema({
      ...mcpJson,
      fields: mcpJson.fields.filter((f) => f.name !== 'headers'),
    } as avro.Schema);
    const body = older.toBuffer({ entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT' });
    const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, 42]), body]);
    expect(() => decodeMcp(framed)).toThrow(SerdeError);
    const decoder = createEventDecoder(async (id) => (id === 42 ? older : undefined));
    await expect(decoder.decode('metadataChangeProposal', framed)).resolves.toEqual({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
    });
    await expect(decoder.decode('metadataChangeProposal', encodeMcp(fullMcp))).resolves.toEqual(fullMcp);
    const unknown = Buffer.concat([Buffer.from([0, 0, 0, 0, 43]), body]);
    await expect(decoder.decode('metadataChangeProposal', unknown)).rejects.toMatchObject({
      reason: 'unknown-schema-id',
    });
  });

  it('publishes every schema with its fixed id, record name and subject topic', () => {
    expect(eventSchemas.map((s) => [s.id, s.name, s.topic])).toEqual([
      [0, 'com.linkedin.pegasus2avro.mxe.MetadataChangeProposal', 'metadataChangeProposal'],
      [1, 'com.linkedin.pegasus2avro.mxe.FailedMetadataChangeProposal', 'failedMetadataChangeProposal'],
      [2, 'com.linkedin.pegasus2avro.mxe.MetadataChangeLog', 'metadataChangeLogVersioned'],
      [3, 'com.linkedin.pegasus2avro.mxe.MetadataChangeLog', 'metadataChangeLogTimeseries'],
      [4, 'com.linkedin.pegasus2avro.mxe.PlatformEvent', 'platformEvent'],
      [8, 'com.linkedin.pegasus2avro.mxe.DataHubUpgradeHistoryEvent', 'upgradeHistory'],
    ]);
    const mcl = JSON.parse(eventSchemas[2]!.schema) as { fields: { name: string }[] };
    expect(mcl.fields.map((f) => f.name)).toEqual([
      'auditHeader',
      'entityType',
      'entityUrn',
      'entityKeyAspect',
      'changeType',
      'aspectName',
      'aspect',
      'systemMetadata',
      'headers',
      'previousAspectValue',
      'previousSystemMetadata',
      'created',
    ]);
    for (const s of eventSchemas)
      expect(avro.Type.forSchema(JSON.parse(s.schema) as avro.Schema).name).toBe(s.name);
  });
});
