import { entityRegistry } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { indexSpecFor, resolveField, URN_WORDS_BOOST } from './index-spec-for.js';
import type { EntityIndexSpec, FieldMapping } from './port.js';

const spec = (name: string): EntityIndexSpec => indexSpecFor(entityRegistry.requireEntity(name));
const field = (s: EntityIndexSpec, name: string): FieldMapping | undefined =>
  s.fields.find((f) => f.name === name);

describe('indexSpecFor', () => {
  const dataset = spec('dataset');

  it('maps dataset annotations with boosts, autocomplete and types', () => {
    expect(dataset.entityType).toBe('dataset');
    expect(field(dataset, 'name')).toEqual({
      name: 'name',
      type: 'WORD_GRAM',
      boost: 10,
      autocomplete: true,
    });
    expect(field(dataset, 'id')).toEqual({ name: 'id', type: 'WORD_GRAM', boost: 10, autocomplete: true });
    expect(field(dataset, 'description')).toEqual({ name: 'description', type: 'TEXT', boost: 1 });
    expect(field(dataset, 'tags')).toEqual({ name: 'tags', type: 'URN', boost: 0.5, filterable: true });
    expect(field(dataset, 'fieldPaths')?.type).toBe('TEXT');
    expect(field(dataset, 'origin')).toEqual({ name: 'origin', type: 'TEXT_PARTIAL', filterable: true });
    expect(field(dataset, 'owners')).toEqual({ name: 'owners', type: 'URN', filterable: true });
    expect(field(dataset, 'createdAt')).toEqual({ name: 'createdAt', type: 'DATETIME' });
  });

  it('adds hasX, the fixed fields, browse paths and aliases', () => {
    for (const name of ['hasDescription', 'hasTags', 'hasOwners', 'hasGlossaryTerms', 'hasUpstreams'])
      expect(field(dataset, name)).toEqual({ name, type: 'BOOLEAN' });
    expect(field(dataset, 'urn')).toEqual({ name: 'urn', type: 'URN', boost: URN_WORDS_BOOST });
    expect(field(dataset, '_entityType')).toEqual({ name: '_entityType', type: 'KEYWORD' });
    expect(field(dataset, 'removed')).toEqual({ name: 'removed', type: 'BOOLEAN' });
    expect(field(dataset, 'browsePaths')).toEqual({ name: 'browsePaths', type: 'BROWSE_PATH' });
    expect(field(dataset, 'customProperties')?.type).toBe('TEXT');
    expect(field(dataset, '_entityName')).toEqual({
      name: '_entityName',
      type: 'WORD_GRAM',
      aliasOf: 'name',
    });
    expect(resolveField(dataset, '_entityName')?.name).toBe('name');
    expect(new Set(dataset.fields.map((f) => f.name)).size).toBe(dataset.fields.length);
  });

  it('leaves time-series aspects out', () => {
    expect(field(dataset, 'rowCount')).toBeUndefined();
    expect(field(dataset, 'uniqueUserCount')).toBeUndefined();
  });

  it('maps chart, corpuser and dataJob annotations', () => {
    const chart = spec('chart');
    expect(field(chart, 'title')).toEqual({
      name: 'title',
      type: 'WORD_GRAM',
      boost: 10,
      autocomplete: true,
    });
    expect(field(spec('dataJob'), 'numInputDatasets')).toEqual({ name: 'numInputDatasets', type: 'COUNT' });
    expect(field(chart, '_entityName')?.aliasOf).toBe('title');
    expect(field(chart, 'tool')?.type).toBe('TEXT_PARTIAL');
    const corpuser = spec('corpuser');
    expect(field(corpuser, 'ldap')).toEqual({
      name: 'ldap',
      type: 'WORD_GRAM',
      boost: 2,
      autocomplete: true,
    });
    expect(field(corpuser, 'email')).toEqual({ name: 'email', type: 'KEYWORD', boost: 1 });
    expect(field(corpuser, 'active')).toEqual({ name: 'active', type: 'BOOLEAN' });
    expect(field(corpuser, 'browsePaths')).toBeUndefined();
    expect(field(corpuser, 'customProperties')?.type).toBe('TEXT');
    const dataJob = spec('dataJob');
    expect(field(dataJob, 'dataFlow')).toEqual({ name: 'dataFlow', type: 'URN_PARTIAL' });
    expect(field(dataJob, 'numInputDatasets')?.type).toBe('COUNT');
  });

  it('merges annotations sharing a field name', () => {
    const tag = spec('tag');
    expect(tag.fields.filter((f) => f.name === 'name')).toHaveLength(1);
    expect(field(dataset, 'platform')?.type).toBe('URN');
  });

  it('gives entities with structured properties the field of their assigned property urns', () => {
    expect(field(dataset, 'structuredPropertyUrns')).toEqual({
      name: 'structuredPropertyUrns',
      type: 'KEYWORD',
    });
    expect(field(spec('structuredProperty'), 'structuredPropertyUrns')).toBeUndefined();
  });
});
