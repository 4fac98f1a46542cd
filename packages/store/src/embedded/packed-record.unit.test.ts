import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApplyStatus } from '../port.js';
import { packRecord, unpackRecord } from './packed-record.js';
import { REMOVED, rowHash, type References, type RowReference } from './recorded-result.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,packed.orders,PROD)';
const NAMES = ['datasetKey', 'datasetProperties', 'browsePathsV2', 'ownership'];
const ids = { urnId: 70_001, aspectId: (name: string) => NAMES.indexOf(name) + 1 };
const texts = {
  urn: (id: number) => (id === 70_001 ? URN : undefined),
  aspect: (id: number) => NAMES[id - 1],
};

const digest = (seed: string) =>
  rowHash(
    {
      metadata: seed,
      system_metadata: null,
      created_on: 1,
      created_by: 'u',
      created_for: null,
      created_message: null,
    },
    false,
  );

describe('packed request records', () => {
  it('packs a new entity write in a few bytes besides its system metadata', () => {
    const system = JSON.stringify([{ version: '1' }, 'lastObserved', 'aspectCreated', 'aspectModified']);
    const references: References = {
      status: 'CREATED',
      systemTexts: [system],
      current: ['datasetProperties', 1, digest('a'), 0],
      keyCreated: ['datasetKey', 1, digest('b'), 0],
      defaultsCreated: [['browsePathsV2', 1, digest('c'), 0]],
    };
    const packed = packRecord(references, ids);
    // Status, fields, a 3-byte id, three 12-byte references, a list count, the substituted JSON.
    expect(packed.length).toBeLessThan(2 + 3 + 3 * 12 + 1 + 1 + 30);
    expect(unpackRecord(packed, texts)).toEqual({
      status: 'CREATED',
      urn: URN,
      systemMetadata: [JSON.parse(system)],
      current: references.current,
      keyCreated: references.keyCreated,
      defaultsCreated: references.defaultsCreated,
    });
  });

  it('reads back every record it packs', () => {
    const reference = fc
      .tuple(
        fc.constantFrom(...NAMES),
        fc.oneof(fc.constant(REMOVED), fc.nat({ max: 100_000 })),
        fc.string().map(digest),
        fc.option(fc.nat({ max: 3 }), { nil: undefined }),
      )
      .map(([aspect, row, hash, index]): RowReference =>
        index === undefined ? [aspect, row, hash] : [aspect, row, hash, index],
      );
    const json = fc.jsonValue().map((value) => JSON.stringify(value));
    const record = fc.record(
      {
        status: fc.constantFrom<ApplyStatus>(
          'CREATED',
          'UPDATED',
          'UNCHANGED',
          'DELETED',
          'CONFLICT',
          'NOT_FOUND',
          'INVALID',
        ),
        // Texts long enough to be deflated, too.
        systemTexts: fc.array(
          fc.oneof(
            json,
            fc.string({ minLength: 600 }).map((t) => JSON.stringify({ t })),
          ),
        ),
        rejection: fc.record({ code: fc.string(), message: fc.string() }),
        previous: reference,
        current: reference,
        keyCreated: reference,
        defaultsCreated: fc.array(reference),
        removed: fc.array(reference),
      },
      { requiredKeys: ['status', 'systemTexts'] },
    );
    fc.assert(
      fc.property(record, (references) => {
        const { systemTexts, ...rest } = references;
        const unpacked = unpackRecord(packRecord(references, ids), texts);
        expect(unpacked).toEqual({
          ...rest,
          urn: URN,
          ...(systemTexts.length === 0 ? {} : { systemMetadata: systemTexts.map((t) => JSON.parse(t)) }),
        });
      }),
    );
  });

  it('reads a record naming an id the file no longer has as no record', () => {
    const packed = packRecord(
      { status: 'DELETED', systemTexts: [], previous: ['ownership', REMOVED, digest('x')] },
      ids,
    );
    expect(unpackRecord(packed, { ...texts, urn: () => undefined })).toBeUndefined();
  });
});
