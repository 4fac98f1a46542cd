import { describe, expect, it } from 'vitest';
import type { ChangeCategory } from './change-event.js';
import { computeTimeline, type AspectVersion } from './timeline.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,orders,PROD)';
const ACTOR = 'urn:li:corpuser:datahub';

/** The versions a store holds after writing `values` of one aspect at times 1000, 2000, … */
function history(
  aspect: string,
  values: readonly Record<string, unknown>[],
  times?: readonly number[],
): AspectVersion[] {
  return values.map((value, i) => ({
    aspect,
    value,
    createdOn: times?.[i] ?? 1000 * (i + 1),
    createdBy: ACTOR,
    version: i === values.length - 1 ? 0 : i + 1,
  }));
}
const timeline = (
  versions: AspectVersion[],
  categories: ChangeCategory[],
  range: { startTime?: number; endTime?: number } = {},
) =>
  computeTimeline({
    entityUrn: URN,
    entityType: 'dataset',
    categories: new Set(categories),
    versions,
    startTime: range.startTime ?? 0,
    endTime: range.endTime ?? Number.MAX_SAFE_INTEGER,
  });
const tags = (...urns: string[]) => ({ tags: urns.map((tag) => ({ tag })) });
const field = (fieldPath: string, nativeDataType = 'string') => ({
  fieldPath,
  nativeDataType,
  type: { type: {} },
});

describe('computeTimeline', () => {
  it('starts at 0.0.0 and bumps the minor version for each tag change', () => {
    const result = timeline(
      history('globalTags', [
        tags('urn:li:tag:a'),
        tags('urn:li:tag:a', 'urn:li:tag:b'),
        tags('urn:li:tag:c'),
      ]),
      ['TAG'],
    );
    expect(result.map((t) => [t.semVer, t.semVerChange, t.changeEvents.length])).toEqual([
      ['0.0.0-computed', 'MINOR', 1],
      ['0.1.0-computed', 'MINOR', 1],
      ['0.2.0-computed', 'MINOR', 3],
    ]);
    expect(result.map((t) => t.timestamp)).toEqual([1000, 2000, 3000]);
    expect(result[0]).toMatchObject({ actor: ACTOR, versionStamp: 'globalTags:1' });
    expect(result[2]?.versionStamp).toBe('globalTags:0');
    // Who wrote the version and when is the transaction's, not repeated on each change (as the ecosystem).
    expect(result[1]?.changeEvents[0]?.auditStamp).toBeUndefined();
  });

  it('bumps the major version for a removed field, the patch version for a field description edit', () => {
    const schema = (fields: unknown[]) => ({ fields });
    const described = (text: string) => ({ ...field('a'), description: text });
    const result = timeline(
      history('schemaMetadata', [
        schema([described('x'), field('b')]),
        schema([described('x')]),
        schema([described('y')]),
      ]),
      ['TECHNICAL_SCHEMA', 'DOCUMENTATION'],
    );
    expect(result.map((t) => [t.semVer, t.semVerChange])).toEqual([
      ['0.0.0-computed', 'MINOR'],
      ['1.0.0-computed', 'MAJOR'],
      ['1.0.1-computed', 'PATCH'],
    ]);
  });

  it('merges the changes of several aspects written at the same time into one transaction', () => {
    const versions = [
      ...history('globalTags', [tags('urn:li:tag:a')]),
      ...history('ownership', [{ owners: [{ owner: 'urn:li:corpuser:x', type: 'DATAOWNER' }] }]),
      ...history('status', [{ removed: false }]),
    ];
    const [only, ...rest] = timeline(versions, ['TAG', 'OWNERSHIP']);
    expect(rest).toEqual([]);
    expect(only?.changeEvents.map((e) => e.category).sort()).toEqual(['OWNERSHIP', 'TAG']);
    expect(only?.versionStamp).toBe('globalTags:0;ownership:0;status:0');
  });

  it('leaves out categories not asked for, and a write time without events still takes a version', () => {
    const versions = [
      ...history(
        'schemaMetadata',
        [{ fields: [field('a')] }, { fields: [field('a'), field('b')] }],
        [1000, 2000],
      ),
      ...history('globalTags', [tags('urn:li:tag:a')], [3000]),
    ];
    const result = timeline(versions, ['TAG']);
    // The schema writes carry no tag change, yet the first takes 0.0.0 (the second keeps it).
    expect(result.map((t) => [t.timestamp, t.semVer])).toEqual([[3000, '0.1.0-computed']]);
  });

  it('diffs the first version in the range with the one before it, not with nothing', () => {
    const versions = history('globalTags', [tags('urn:li:tag:a'), tags('urn:li:tag:a', 'urn:li:tag:b')]);
    const result = timeline(versions, ['TAG'], { startTime: 1500 });
    expect(result).toHaveLength(1);
    expect(result[0]?.changeEvents.map((e) => e.modifier)).toEqual(['urn:li:tag:b']);
    expect(timeline(versions, ['TAG'], { startTime: 0, endTime: 1500 })).toHaveLength(1);
    expect(timeline(versions, ['TAG'], { startTime: 5000 })).toEqual([]);
  });

  it('adds the JSON patch of each transaction when raw is asked for', () => {
    const [first] = computeTimeline({
      entityUrn: URN,
      entityType: 'dataset',
      categories: new Set(['TAG']),
      versions: history('globalTags', [tags('urn:li:tag:a')]),
      startTime: 0,
      endTime: Number.MAX_SAFE_INTEGER,
      raw: true,
    });
    expect(first?.rawDiff).toEqual([{ op: 'add', path: '/tags', value: [{ tag: 'urn:li:tag:a' }] }]);
  });

  it('a glossary term reports its definition as documentation and its related terms as terms', () => {
    const versions = [
      ...history('glossaryTermInfo', [
        { name: 't', definition: 'one' },
        { name: 't', definition: 'two' },
      ]),
      ...history('glossaryRelatedTerms', [{ isRelatedTerms: ['urn:li:glossaryTerm:a'] }], [5000]),
    ];
    const result = computeTimeline({
      entityUrn: 'urn:li:glossaryTerm:t',
      entityType: 'glossaryTerm',
      categories: new Set(['DOCUMENTATION', 'GLOSSARY_TERM']),
      versions,
      startTime: 0,
      endTime: Number.MAX_SAFE_INTEGER,
    });
    expect(result.map((t) => t.changeEvents.map((e) => `${e.category} ${e.operation}`))).toEqual([
      ['DOCUMENTATION ADD', 'DOCUMENTATION ADD'],
      ['DOCUMENTATION MODIFY'],
      ['GLOSSARY_TERM ADD'],
    ]);
  });
});
