import { describe, expect, it } from 'vitest';
import { valuesAtPath } from './values-at-path.js';

describe('valuesAtPath', () => {
  const value = {
    tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }, {}],
    ownerTypes: { 'urn:li:ownershipType:x': ['urn:li:corpuser:1'], 'urn:li:ownershipType:y': [] },
    edges: { first: { destinationUrn: 'urn:li:dataset:1' }, second: { destinationUrn: 'urn:li:dataset:2' } },
    paths: ['/a', '/b'],
  };

  it('walks every array element at *', () => {
    expect(valuesAtPath(value, 'tags/*/tag')).toEqual(['urn:li:tag:a', 'urn:li:tag:b']);
    expect(valuesAtPath(value, 'paths/*')).toEqual(['/a', '/b']);
    expect(valuesAtPath(value, 'paths')).toEqual(['/a', '/b']);
  });

  it('walks every map value at * and every map key at $key', () => {
    expect(valuesAtPath(value, 'edges/*/destinationUrn')).toEqual(['urn:li:dataset:1', 'urn:li:dataset:2']);
    expect(valuesAtPath(value, 'ownerTypes/$key')).toEqual([
      'urn:li:ownershipType:x',
      'urn:li:ownershipType:y',
    ]);
  });

  it('yields nothing for absent steps or a step into a scalar', () => {
    expect(valuesAtPath(value, 'nosuch/*/tag')).toEqual([]);
    expect(valuesAtPath(value, 'paths/*/x')).toEqual([]);
    expect(valuesAtPath(null, 'a')).toEqual([]);
  });
});
