import { describe, expect, it } from 'vitest';
import { mergedResults } from '../../application/test-evaluation.js';
import { testInfoOf, testMatches } from '../../application/metadata-tests.js';

const JSON_DEFINITION = JSON.stringify({
  on: { types: ['dataset'] },
  rules: { property: 'datasetProperties.description', operator: 'exists' },
});

describe('metadata tests slice', () => {
  it('stores the input as testInfo, with a JSON definition that must parse', () => {
    expect(testInfoOf({ name: 'n', category: 'c', definition: { json: JSON_DEFINITION } })).toEqual({
      name: 'n',
      category: 'c',
      definition: { type: 'JSON', json: JSON_DEFINITION },
    });
    expect(() => testInfoOf({ name: 'n', category: 'c', definition: { json: '{}' } })).toThrow(
      'Invalid test definition: on is required',
    );
    expect(() => testInfoOf({ name: 'n', category: 'c', definition: {} })).toThrow(
      'definition.json is required',
    );
    expect(() => testInfoOf({ name: ' ', category: 'c', definition: { json: JSON_DEFINITION } })).toThrow(
      'name',
    );
  });

  it('lists tests whose name, category, description or urn hold every query word', () => {
    const info = { name: 'PII is marked', category: 'Governance', description: 'Terms' };
    expect(testMatches('urn:li:test:pii', info, 'governance pii')).toBe(true);
    expect(testMatches('urn:li:test:pii', info, '*')).toBe(true);
    expect(testMatches('urn:li:test:pii', info, 'quality')).toBe(false);
  });

  it('replaces all results, or only those of the named tests', () => {
    const stored = {
      passing: [{ test: 'urn:li:test:a', type: 'SUCCESS' }],
      failing: [{ test: 'urn:li:test:b', type: 'FAILURE' }],
    };
    const fresh = { passing: [{ test: 'urn:li:test:b', type: 'SUCCESS' as const }], failing: [] };
    expect(mergedResults(stored, fresh, undefined)).toEqual(fresh);
    expect(mergedResults(stored, fresh, ['urn:li:test:b'])).toEqual({
      passing: [
        { test: 'urn:li:test:a', type: 'SUCCESS' },
        { test: 'urn:li:test:b', type: 'SUCCESS' },
      ],
      failing: [],
    });
  });
});
