import { describe, expect, it } from 'vitest';
import { checkProposal } from './proposal.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';

function aspect(value: unknown): { value: string; contentType: string } {
  return { value: JSON.stringify(value), contentType: 'application/json' };
}

describe('checkProposal with changeType CREATE_ENTITY', () => {
  it('takes a non-key aspect with its value, as the ecosystem does', () => {
    const checked = checkProposal({
      entityType: 'dataset',
      entityUrn: URN,
      changeType: 'CREATE_ENTITY',
      aspectName: 'datasetProperties',
      aspect: aspect({ description: 'd' }),
    });
    expect(checked.changeType).toBe('CREATE_ENTITY');
    expect(checked.aspect.name).toBe('datasetProperties');
    expect(checked.aspect.isKey).toBe(false);
    expect(checked.value).toMatchObject({ description: 'd' });
  });

  it('needs the value of a non-key aspect (only the key aspect is derived from the urn)', () => {
    expect(() =>
      checkProposal({
        entityType: 'dataset',
        entityUrn: URN,
        changeType: 'CREATE_ENTITY',
        aspectName: 'datasetProperties',
      }),
    ).toThrow('proposal.aspect is required');
  });

  it('defaults to the key aspect, derived from the urn, when no aspect is named', () => {
    const checked = checkProposal({ entityType: 'dataset', entityUrn: URN, changeType: 'CREATE_ENTITY' });
    expect(checked.aspect.name).toBe('datasetKey');
    expect(checked.value).toEqual({ platform: 'urn:li:dataPlatform:hive', name: 'db.t', origin: 'PROD' });
  });

  it('refuses a time-series aspect, which only takes UPSERT', () => {
    expect(() =>
      checkProposal({
        entityType: 'dataset',
        entityUrn: URN,
        changeType: 'CREATE_ENTITY',
        aspectName: 'datasetProfile',
        aspect: aspect({ timestampMillis: 1 }),
      }),
    ).toThrow('only takes changeType UPSERT');
  });
});
