import { entityRegistry } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { indexSpecFor } from './index-spec-for.js';
import type { Filter, StructuredPropertySearchDefinition } from './port.js';
import { resolveStructuredProperties, withoutStructuredProperties } from './resolve-structured-properties.js';
import { validateSearchRequest } from './validate-search-request.js';

const retention: StructuredPropertySearchDefinition = {
  urn: 'urn:li:structuredProperty:io.acryl.retention',
  qualifiedName: 'io.acryl.retention',
  valueType: 'number',
  removed: false,
};
const deprecation: StructuredPropertySearchDefinition = {
  urn: 'urn:li:structuredProperty:io.acryl.deprecation',
  qualifiedName: 'io.acryl.deprecation',
  valueType: 'date',
  version: '20240614080000',
  versionSince: 1,
  removed: false,
};
const view = [
  retention,
  deprecation,
  { ...retention, urn: 'urn:li:structuredProperty:gone', qualifiedName: 'gone', removed: true },
];
const lookups: string[][] = [];
const byName = async (names: readonly string[]) => {
  lookups.push([...names]);
  return view.filter((d) => names.includes(d.qualifiedName.replaceAll('.', '_')));
};
const dataset = indexSpecFor(entityRegistry.requireEntity('dataset'));
const request = (filter: Filter | undefined, facets: string[] = []) => ({
  entityTypes: ['dataset'],
  input: '*',
  start: 0,
  count: 10,
  facets,
  ...(filter ? { filter } : {}),
});
const on = (field: string, condition: string, values: string[] = []) =>
  ({ or: [{ and: [{ field, condition, values }] }] }) as Filter;

describe('resolveStructuredProperties', () => {
  it('looks nothing up for a request without structured property names', async () => {
    lookups.length = 0;
    const resolved = await resolveStructuredProperties(request(on('tags', 'EXISTS')), byName);
    expect(lookups).toEqual([]);
    expect(resolved.fields).toEqual([]);
  });

  it('adds the document field and the requested name as its alias, so validation resolves both', async () => {
    const resolved = await resolveStructuredProperties(
      request(on('structuredProperties.io.acryl.retention.keyword', 'GREATER_THAN', ['45.0']), [
        'structuredProperties.io_acryl_retention',
      ]),
      byName,
    );
    expect(resolved.fields).toEqual([{ name: 'structuredProperties.io_acryl_retention', type: 'DOUBLE' }]);
    const search = validateSearchRequest(
      resolved.specs(() => dataset),
      resolved.request,
    );
    expect(search.filter?.or[0]?.and[0]?.field).toBe('structuredProperties.io_acryl_retention');
    expect(search.facets).toEqual([
      { name: 'structuredProperties.io_acryl_retention', field: 'structuredProperties.io_acryl_retention' },
    ]);
    expect(
      resolved.formatAggregations([
        { field: 'structuredProperties.io_acryl_retention', values: [{ value: '60', count: 2 }] },
      ]),
    ).toEqual([{ field: 'structuredProperties.io_acryl_retention', values: [{ value: '60.0', count: 2 }] }]);
  });

  it('turns date values into epoch millis, and refuses what is no date', async () => {
    const resolved = await resolveStructuredProperties(
      request(on('structuredProperties.io.acryl.deprecation', 'LESS_THAN', ['2020-10-01', '86400000'])),
      byName,
    );
    expect((resolved.request.filter as Filter).or[0]?.and[0]?.values).toEqual([
      String(Date.UTC(2020, 9, 1)),
      '86400000',
    ]);
    await expect(
      resolveStructuredProperties(
        request(on('structuredProperties.io.acryl.deprecation', 'EQUAL', ['01/10/2020'])),
        byName,
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('01/10/2020') });
  });

  it('refuses unknown and soft-deleted properties and older versions, as 400s naming them', async () => {
    await expect(
      resolveStructuredProperties(request(on('structuredProperties.io.nope', 'EXISTS')), byName),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('io.nope'),
    });
    await expect(
      resolveStructuredProperties(request(undefined, ['structuredProperties.gone']), byName),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'Cannot filter on deleted Structured Property [urn:li:structuredProperty:gone]',
    });
    await expect(
      resolveStructuredProperties(
        request(on('structuredProperties._versioned.io_acryl_deprecation.20230101000000.date', 'EXISTS')),
        byName,
      ),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('not the active version'),
    });
    const active = await resolveStructuredProperties(
      request(on('structuredProperties._versioned.io_acryl_deprecation.20240614080000.date', 'EXISTS')),
      byName,
    );
    expect(active.fields[0]?.name).toBe(
      'structuredProperties._versioned.io_acryl_deprecation.20240614080000.date',
    );
  });

  it('leaves the static part of a request for early checks', () => {
    const filter = {
      or: [
        {
          and: [
            { field: 'tags', condition: 'EXISTS', values: [] },
            { field: 'structuredProperties.a', condition: 'EXISTS', values: [] },
          ],
        },
      ],
    } as Filter;
    const stripped = withoutStructuredProperties({
      ...request(filter, ['platform', 'structuredProperties.a.keyword']),
      sort: [{ field: 'structuredProperties.a', order: 'ASCENDING' as const }],
    });
    expect(stripped.filter).toEqual({ or: [{ and: [{ field: 'tags', condition: 'EXISTS', values: [] }] }] });
    expect(stripped.facets).toEqual(['platform']);
    expect(stripped.sort).toEqual([]);
  });
});
