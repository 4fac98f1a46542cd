import { entityRegistry } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { edgesFor } from './edges-for.js';
import { timeseriesDocumentId } from './timeseries-document-id.js';
import { valuesAtPath } from './values-at-path.js';

const dataset = entityRegistry.requireEntity('dataset');
const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)';

describe('edgesFor', () => {
  it('declares one edge per URN at the relationship path, with the created stamp', () => {
    const edges = edgesFor(
      dataset,
      urn,
      'ownership',
      { owners: [{ owner: 'urn:li:corpuser:alice' }, { owner: 'urn:li:corpGroup:eng' }] },
      { time: 5, actor: 'urn:li:corpuser:ingest' },
    );
    expect(edges).toEqual([
      {
        source: urn,
        relationship: 'OwnedBy',
        target: 'urn:li:corpuser:alice',
        aspect: 'ownership',
        createdAt: 5,
        createdActor: 'urn:li:corpuser:ingest',
      },
      {
        source: urn,
        relationship: 'OwnedBy',
        target: 'urn:li:corpGroup:eng',
        aspect: 'ownership',
        createdAt: 5,
        createdActor: 'urn:li:corpuser:ingest',
      },
    ]);
  });

  it('follows lineage and nested schema paths, skipping non-URNs and duplicates', () => {
    const upstream = 'urn:li:dataset:(urn:li:dataPlatform:hive,raw,PROD)';
    expect(
      edgesFor(dataset, urn, 'upstreamLineage', {
        upstreams: [{ dataset: upstream }, { dataset: upstream }, { dataset: 'x' }],
      }),
    ).toEqual([{ source: urn, relationship: 'DownstreamOf', target: upstream, aspect: 'upstreamLineage' }]);
    const schema = edgesFor(dataset, urn, 'schemaMetadata', {
      fields: [{ fieldPath: 'a', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }],
    });
    expect(schema.map((e) => [e.relationship, e.target])).toEqual([
      ['SchemaFieldTaggedWith', 'urn:li:tag:pii'],
    ]);
    expect(edgesFor(dataset, urn, 'nosuchAspect', {})).toEqual([]);
    expect(edgesFor(dataset, urn, 'status', { removed: true })).toEqual([]);
  });

  it('declares IsPartOf from a dataJob to its flow', () => {
    const job = entityRegistry.requireEntity('dataJob');
    const jobUrn = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)';
    const edges = edgesFor(job, jobUrn, 'dataJobKey', {
      flow: 'urn:li:dataFlow:(airflow,etl,prod)',
      jobId: 'load',
    });
    expect(edges.map((e) => [e.relationship, e.target])).toEqual([
      ['IsPartOf', 'urn:li:dataFlow:(airflow,etl,prod)'],
    ]);
  });
});

describe('valuesAtPath', () => {
  it('walks objects and arrays, * over elements, flattening a final array', () => {
    const value = { a: [{ b: [1, 2] }, { b: [3] }, { c: 1 }], m: { k: 'v' } };
    expect(valuesAtPath(value, 'a/*/b')).toEqual([1, 2, 3]);
    expect(valuesAtPath(value, 'a/*/b/*')).toEqual([1, 2, 3]);
    expect(valuesAtPath(value, 'm')).toEqual([{ k: 'v' }]);
    expect(valuesAtPath(value, 'nope/x')).toEqual([]);
  });
});

describe('timeseriesDocumentId', () => {
  const value = { timestampMillis: 10, rowCount: 5 };
  it('is stable for the same event and differs otherwise', () => {
    expect(timeseriesDocumentId(urn, 'datasetProfile', value)).toBe(
      timeseriesDocumentId(urn, 'datasetProfile', { rowCount: 5, timestampMillis: 10 }),
    );
    expect(timeseriesDocumentId(urn, 'datasetProfile', value)).not.toBe(
      timeseriesDocumentId(urn, 'datasetProfile', { ...value, rowCount: 6 }),
    );
    expect(timeseriesDocumentId(urn, 'datasetProfile', value)).not.toBe(
      timeseriesDocumentId(urn, 'operation', value),
    );
  });
  it('keys on the partition or message id when the value has one', () => {
    const a = { timestampMillis: 10, rowCount: 1, partitionSpec: { partition: 'p1' } };
    const b = { timestampMillis: 10, rowCount: 2, partitionSpec: { partition: 'p1' } };
    expect(timeseriesDocumentId(urn, 'datasetProfile', a)).toBe(
      timeseriesDocumentId(urn, 'datasetProfile', b),
    );
    expect(timeseriesDocumentId(urn, 'datasetProfile', a)).not.toBe(
      timeseriesDocumentId(urn, 'datasetProfile', { ...a, partitionSpec: { partition: 'p2' } }),
    );
    expect(timeseriesDocumentId(urn, 'x', { messageId: 'm', v: 1 }, 3)).toBe(
      timeseriesDocumentId(urn, 'x', { messageId: 'm', v: 2 }, 3),
    );
  });
});
