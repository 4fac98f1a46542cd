import {
  decodePlatformEvent,
  encodeMcl,
  encodePlatformEvent,
  genericAspectFromJson,
  type LogRecord,
  type MetadataChangeLog,
} from '@catalog/events';
import { describe, expect, it } from 'vitest';
import { changeEventsOf, type ProducibleChangeEvent } from './change-events-of.js';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const ACTOR = 'urn:li:corpuser:jdoe';

function record(
  mcl: Partial<MetadataChangeLog>,
  headers: Record<string, string> = { requestId: 'req-1' },
): LogRecord {
  const full: MetadataChangeLog = {
    entityType: 'dataset',
    entityUrn: DATASET,
    changeType: 'UPSERT',
    created: { time: 1_700_000_000_000, actor: ACTOR },
    ...mcl,
  };
  return {
    topic: 'MetadataChangeLog_Versioned_v1',
    partition: 0,
    offset: '7',
    key: DATASET,
    value: encodeMcl(full),
    headers,
    timestamp: 1_700_000_000_100,
  };
}

function events(r: LogRecord): readonly ProducibleChangeEvent[] {
  const result = changeEventsOf(r);
  if (result.kind !== 'events') throw new Error(result.reason);
  return result.events;
}

const tags = (...urns: string[]) => genericAspectFromJson({ tags: urns.map((tag) => ({ tag })) });
const field = (fieldPath: string) => ({
  fieldPath,
  nativeDataType: 'string',
  type: { type: { 'com.linkedin.schema.StringType': {} } },
});
const schema = (...paths: string[]) =>
  genericAspectFromJson({
    schemaName: 'orders',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: paths.map(field),
  });

describe('entity change events of a change log', () => {
  it('turns an added tag into a TAG ADD event with the tag as modifier, on the ecosystem envelope', () => {
    const [event, ...rest] = events(record({ aspectName: 'globalTags', aspect: tags('urn:li:tag:pii') }));
    expect(rest).toEqual([]);
    expect(event!.key).toBe(DATASET);
    expect(event!.event).toEqual({
      entityType: 'dataset',
      entityUrn: DATASET,
      category: 'TAG',
      operation: 'ADD',
      modifier: 'urn:li:tag:pii',
      parameters: expect.objectContaining({ tagUrn: 'urn:li:tag:pii' }) as unknown,
      auditStamp: { time: 1_700_000_000_000, actor: ACTOR },
      version: 0,
    });
    const platformEvent = decodePlatformEvent(encodePlatformEvent(event!.platformEvent));
    expect(platformEvent.name).toBe('entityChangeEvent');
    expect(platformEvent.header.timestampMillis).toBe(1_700_000_000_000);
    expect(platformEvent.payload.contentType).toBe('application/json');
    expect(JSON.parse(platformEvent.payload.value.toString('utf8'))).toEqual(event!.event);
  });

  it('diffs the previous value: only the tag that went away is a REMOVE', () => {
    const out = events(
      record({
        aspectName: 'globalTags',
        previousAspectValue: tags('urn:li:tag:pii', 'urn:li:tag:gold'),
        aspect: tags('urn:li:tag:gold'),
      }),
    );
    expect(out.map((e) => [e.event.category, e.event.operation, e.event.modifier])).toEqual([
      ['TAG', 'REMOVE', 'urn:li:tag:pii'],
    ]);
  });

  it('treats a DELETE change log as the removal of everything the aspect held', () => {
    const out = events(
      record({ aspectName: 'globalTags', changeType: 'DELETE', previousAspectValue: tags('urn:li:tag:pii') }),
    );
    expect(out.map((e) => [e.event.operation, e.event.modifier])).toEqual([['REMOVE', 'urn:li:tag:pii']]);
  });

  it('gives schema field additions and removals as TECHNICAL_SCHEMA events naming the field urn', () => {
    const schemaEvents = (previous: string[], current: string[]) =>
      events(
        record({
          aspectName: 'schemaMetadata',
          previousAspectValue: schema(...previous),
          aspect: schema(...current),
        }),
      )
        .map((e) => e.event)
        .filter((e) => e.category === 'TECHNICAL_SCHEMA')
        .map((e) => [e.operation, e.modifier]);
    expect(schemaEvents(['id'], ['id', 'added'])).toEqual([['ADD', `urn:li:schemaField:(${DATASET},added)`]]);
    expect(schemaEvents(['id', 'dropped'], ['id'])).toEqual([
      ['REMOVE', `urn:li:schemaField:(${DATASET},dropped)`],
    ]);
  });

  it('reports deprecation as DEPRECATION MODIFY with the status, and undeprecation as ACTIVE', () => {
    const deprecated = events(
      record({
        aspectName: 'deprecation',
        aspect: genericAspectFromJson({ deprecated: true, note: 'use v2', actor: ACTOR }),
      }),
    );
    expect(deprecated.map((e) => [e.event.category, e.event.operation, e.event.parameters])).toEqual([
      ['DEPRECATION', 'MODIFY', { status: 'DEPRECATED', note: 'use v2' }],
    ]);
    const active = events(
      record({
        aspectName: 'deprecation',
        previousAspectValue: genericAspectFromJson({ deprecated: true, note: 'use v2', actor: ACTOR }),
        aspect: genericAspectFromJson({ deprecated: false, note: '', actor: ACTOR }),
      }),
    );
    expect(active.map((e) => e.event.parameters)).toEqual([{ status: 'ACTIVE' }]);
  });

  it('reports lifecycle changes: a key written is a CREATE, a key deleted a HARD_DELETE, a removed status a SOFT_DELETE', () => {
    const lifecycle = (mcl: Partial<MetadataChangeLog>) =>
      events(record(mcl)).map((e) => [e.event.category, e.event.operation]);
    const key = genericAspectFromJson({
      platform: 'urn:li:dataPlatform:hive',
      name: 'db.orders',
      origin: 'PROD',
    });
    expect(lifecycle({ aspectName: 'datasetKey', changeType: 'UPSERT', aspect: key })).toEqual([
      ['LIFECYCLE', 'CREATE'],
    ]);
    expect(lifecycle({ aspectName: 'datasetKey', changeType: 'DELETE', previousAspectValue: key })).toEqual([
      ['LIFECYCLE', 'HARD_DELETE'],
    ]);
    expect(lifecycle({ aspectName: 'status', aspect: genericAspectFromJson({ removed: true }) })).toEqual([
      ['LIFECYCLE', 'SOFT_DELETE'],
    ]);
    expect(
      lifecycle({
        aspectName: 'status',
        previousAspectValue: genericAspectFromJson({ removed: true }),
        aspect: genericAspectFromJson({ removed: false }),
      }),
    ).toEqual([['LIFECYCLE', 'REINSTATE']]);
  });

  it('reports a completed assertion run as RUN COMPLETED with its result', () => {
    const assertion = 'urn:li:assertion:a1';
    const out = events(
      record({
        entityType: 'assertion',
        entityUrn: assertion,
        aspectName: 'assertionRunEvent',
        aspect: genericAspectFromJson({
          timestampMillis: 5,
          runId: 'run-1',
          asserteeUrn: DATASET,
          assertionUrn: assertion,
          status: 'COMPLETE',
          result: { type: 'FAILURE' },
        }),
      }),
    );
    expect(out.map((e) => e.event)).toEqual([
      expect.objectContaining({
        entityType: 'assertion',
        category: 'RUN',
        operation: 'COMPLETED',
        parameters: {
          runResult: 'COMPLETE',
          runId: 'run-1',
          asserteeUrn: DATASET,
          assertionResult: 'FAILURE',
        },
      }),
    ]);
  });

  it('gives the same ids for the same change log delivered again, or produced again for the same proposal', () => {
    const mcl = { aspectName: 'globalTags', aspect: tags('urn:li:tag:a', 'urn:li:tag:b') };
    const once = events(record(mcl)).map((e) => e.id);
    const again = events({ ...record(mcl), offset: '99' }).map((e) => e.id);
    expect(once).toHaveLength(2);
    expect(new Set(once).size).toBe(2);
    expect(again).toEqual(once);
    const otherProposal = events(record(mcl, { requestId: 'req-2' })).map((e) => e.id);
    expect(otherProposal.some((id) => once.includes(id))).toBe(false);
  });

  it('has no events for aspects no diff knows, and says why a change log cannot be diffed', () => {
    expect(
      events(record({ aspectName: 'status', aspect: genericAspectFromJson({ removed: false }) })),
    ).toEqual([]);
    const garbage = changeEventsOf({ ...record({}), value: Buffer.from('not avro') });
    expect(garbage.kind).toBe('unprocessable');
    const notJson = changeEventsOf(
      record({
        aspectName: 'globalTags',
        aspect: { value: Buffer.from('{oops'), contentType: 'application/json' },
      }),
    );
    expect(notJson).toMatchObject({
      kind: 'unprocessable',
      reason: expect.stringContaining('globalTags') as unknown,
    });
  });
});
