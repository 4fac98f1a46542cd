import { describe, expect, it } from 'vitest';
import { encodeMcl, encodePlatformEvent, eventAsAvroJson } from './serde.js';

describe('records in Avro JSON encoding', () => {
  it('wraps a present union branch in its type name, leaves an absent one null and writes bytes one character each', () => {
    const json = JSON.parse(
      eventAsAvroJson(
        'metadataChangeLog',
        encodeMcl({
          entityType: 'dataset',
          entityUrn: 'urn:li:dataset:x',
          changeType: 'UPSERT',
          aspectName: 'status',
          aspect: { value: Buffer.from('{"removed":false}'), contentType: 'application/json' },
        }),
      ),
    ) as Record<string, unknown>;
    expect(json['entityUrn']).toEqual({ string: 'urn:li:dataset:x' });
    expect(json['changeType']).toBe('UPSERT');
    expect(json['previousAspectValue']).toBeNull();
    expect(json['aspect']).toEqual({
      'com.linkedin.pegasus2avro.mxe.GenericAspect': {
        value: '{"removed":false}',
        contentType: 'application/json',
      },
    });
  });

  it('gives a platform event the envelope the ecosystem polls: header, name and payload', () => {
    const json = JSON.parse(
      eventAsAvroJson(
        'platformEvent',
        encodePlatformEvent({
          header: { timestampMillis: 5 },
          name: 'entityChangeEvent',
          payload: { value: Buffer.from('{"a":"é"}'), contentType: 'application/json' },
        }),
      ),
    ) as Record<string, unknown>;
    expect(json).toEqual({
      header: { timestampMillis: 5 },
      name: 'entityChangeEvent',
      payload: { value: Buffer.from('{"a":"é"}').toString('latin1'), contentType: 'application/json' },
    });
  });
});
