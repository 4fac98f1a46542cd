import { describe, expect, it } from 'vitest';
import { aspectChangeEvents, type AspectChange } from './aspect-diff.js';
import type { ChangeCategory } from './change-event.js';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:kafka,orders,PROD)';
const diff = (aspect: string, previous: unknown, current: unknown, extra: Partial<AspectChange> = {}) =>
  aspectChangeEvents({
    entityUrn: DATASET,
    aspect,
    previous: previous as AspectChange['previous'],
    current: current as AspectChange['current'],
    ...extra,
  });
const summary = (events: ReturnType<typeof aspectChangeEvents>) =>
  events.map((e) => `${e.category} ${e.operation} ${e.modifier ?? ''} ${e.semVerChange}`.replace('  ', ' '));

describe('aspectChangeEvents, per category', () => {
  it('TAG: a swapped tag is a removal and an addition, in tag urn order, with the tag in the parameters', () => {
    const events = diff(
      'globalTags',
      { tags: [{ tag: 'urn:li:tag:PII' }] },
      { tags: [{ tag: 'urn:li:tag:Confidential', context: 'ctx' }] },
    );
    expect(summary(events)).toEqual([
      'TAG ADD urn:li:tag:Confidential MINOR',
      'TAG REMOVE urn:li:tag:PII MINOR',
    ]);
    expect(events[0]).toMatchObject({
      entityUrn: DATASET,
      parameters: { tagUrn: 'urn:li:tag:Confidential', context: 'ctx', sourceDetails: '{}' },
      description: `Tag 'Confidential' added to entity '${DATASET}'.`,
    });
  });

  it('TAG: an unchanged value has no events, whatever the order of its tags', () => {
    const tags = [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }];
    expect(diff('globalTags', { tags }, { tags: [...tags].reverse() })).toEqual([]);
  });

  it('GLOSSARY_TERM: terms added to an entity that had none, and removed again', () => {
    const terms = {
      terms: [{ urn: 'urn:li:glossaryTerm:a' }],
      auditStamp: { time: 1, actor: 'urn:li:corpuser:x' },
    };
    expect(summary(diff('glossaryTerms', undefined, terms))).toEqual([
      'GLOSSARY_TERM ADD urn:li:glossaryTerm:a MINOR',
    ]);
    expect(summary(diff('glossaryTerms', terms, { ...terms, terms: [] }))).toEqual([
      'GLOSSARY_TERM REMOVE urn:li:glossaryTerm:a MINOR',
    ]);
  });

  it('OWNERSHIP: owners added and removed per type; moving an owner to another type is both', () => {
    const before = { owners: [{ owner: 'urn:li:corpuser:alice', type: 'TECHNICAL_OWNER' }] };
    const after = {
      owners: [
        { owner: 'urn:li:corpuser:alice', type: 'DATA_STEWARD' },
        { owner: 'urn:li:corpuser:bob', type: 'DATA_STEWARD' },
      ],
    };
    const events = diff('ownership', before, after);
    expect(summary(events).sort()).toEqual([
      'OWNERSHIP ADD urn:li:corpuser:alice MINOR',
      'OWNERSHIP ADD urn:li:corpuser:bob MINOR',
      'OWNERSHIP REMOVE urn:li:corpuser:alice MINOR',
    ]);
    expect(events.find((e) => e.modifier === 'urn:li:corpuser:bob')).toMatchObject({
      parameters: { ownerUrn: 'urn:li:corpuser:bob', ownerType: 'DATA_STEWARD' },
      description: `'bob' added as a \`DATA_STEWARD\` of '${DATASET}'.`,
    });
  });

  it('DOCUMENTATION: a description added is MINOR ADD, changed MINOR MODIFY with the previous text', () => {
    expect(summary(diff('editableDatasetProperties', undefined, { description: 'one' }))).toEqual([
      'DOCUMENTATION ADD MINOR',
    ]);
    const [changed] = diff('datasetProperties', { description: 'one' }, { description: 'two' });
    expect(changed).toMatchObject({
      operation: 'MODIFY',
      semVerChange: 'MINOR',
      parameters: { description: 'two', previousDescription: 'one' },
    });
  });

  it('DOCUMENTATION: links matched by url; a changed link text is a PATCH; a url listed twice counts twice', () => {
    const link = (url: string, description: string) => ({
      url,
      description,
      createStamp: { time: 0, actor: 'urn:li:corpuser:x' },
    });
    expect(
      summary(
        diff(
          'institutionalMemory',
          { elements: [link('https://a', 'A')] },
          { elements: [link('https://a', 'A2')] },
        ),
      ),
    ).toEqual(['DOCUMENTATION MODIFY https://a PATCH']);
    const events = diff(
      'institutionalMemory',
      { elements: [link('https://www.linkedin.com', 'L'), link('https://www.google.com', 'G')] },
      {
        elements: [link('https://docs', 'D'), link('https://docs', 'D'), link('https://www.google.com', 'G')],
      },
    );
    expect(summary(events)).toEqual([
      'DOCUMENTATION ADD https://docs MINOR',
      'DOCUMENTATION ADD https://docs MINOR',
      'DOCUMENTATION REMOVE https://www.linkedin.com MINOR',
    ]);
  });

  it('DOCUMENTATION: a domain, data product or glossary term renamed or redescribed', () => {
    expect(
      summary(diff('domainProperties', { name: 'a', description: 'x' }, { name: 'b', description: 'y' })),
    ).toEqual(['DOCUMENTATION MODIFY MINOR', 'DOCUMENTATION MODIFY MINOR']);
    expect(
      summary(
        diff(
          'glossaryTermInfo',
          { name: 't', definition: 'd1', termSource: 'INTERNAL' },
          { name: 't', definition: 'd2', termSource: 'INTERNAL' },
        ),
      ),
    ).toEqual(['DOCUMENTATION MODIFY MINOR']);
    expect(summary(diff('dataProductProperties', undefined, { name: 'p', description: 'd' }))).toEqual([
      'DOCUMENTATION ADD MINOR',
      'DOCUMENTATION ADD MINOR',
    ]);
  });

  it('TECHNICAL_SCHEMA: an added field is MINOR, a removed one or a native type change MAJOR', () => {
    const field = (fieldPath: string, nativeDataType = 'string', description?: string) => ({
      fieldPath,
      nativeDataType,
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      nullable: false,
      ...(description === undefined ? {} : { description }),
    });
    const schema = (...fields: unknown[]) => ({
      schemaName: 's',
      platform: 'urn:li:dataPlatform:kafka',
      version: 0,
      hash: '',
      fields,
    });
    const only = new Set<ChangeCategory>(['TECHNICAL_SCHEMA']);
    expect(
      summary(
        diff('schemaMetadata', schema(field('a')), schema(field('a'), field('b', 'int')), {
          categories: only,
        }),
      ),
    ).toEqual([`TECHNICAL_SCHEMA ADD urn:li:schemaField:(${DATASET},b) MINOR`]);
    expect(
      summary(
        diff('schemaMetadata', schema(field('a'), field('b')), schema(field('a', 'int')), {
          categories: only,
        }),
      ),
    ).toEqual([
      `TECHNICAL_SCHEMA MODIFY urn:li:schemaField:(${DATASET},a) MAJOR`,
      `TECHNICAL_SCHEMA REMOVE urn:li:schemaField:(${DATASET},b) MAJOR`,
    ]);
    const [renamed] = diff(
      'schemaMetadata',
      schema(field('old', 'string', 'same')),
      schema(field('new', 'string', 'same')),
      { categories: only },
    );
    expect(renamed).toMatchObject({
      operation: 'MODIFY',
      semVerChange: 'MINOR',
      parameters: { modificationCategory: 'RENAME', fieldPath: 'old' },
    });
  });

  it('TECHNICAL_SCHEMA: a v2 column whose type moved its path is one type change, named by its plain path', () => {
    const v2 = (type: string) => ({
      fieldPath: `[version=2.0].[type=${type}].amount`,
      nativeDataType: type,
      type: { type: {} },
    });
    const events = diff(
      'schemaMetadata',
      { fields: [v2('int')] },
      { fields: [v2('long')] },
      { categories: new Set(['TECHNICAL_SCHEMA']) },
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      operation: 'MODIFY',
      semVerChange: 'MAJOR',
      description:
        "A backwards incompatible change due to native datatype of the field 'amount' changed from 'int' to 'long'.",
    });
  });

  it('schemaMetadata: field descriptions, tags and terms come as their categories, bound to the field', () => {
    const base = { fields: [{ fieldPath: 'a', nativeDataType: 'string', description: 'one' }] };
    const target = {
      fields: [
        {
          fieldPath: 'a',
          nativeDataType: 'string',
          description: 'two',
          globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
        },
      ],
    };
    const events = diff('schemaMetadata', base, target);
    expect(summary(events)).toEqual(['DOCUMENTATION MODIFY PATCH', 'TAG ADD urn:li:tag:pii MINOR']);
    expect(events[1]).toMatchObject({
      entityUrn: `urn:li:schemaField:(${DATASET},a)`,
      parameters: { fieldPath: 'a', parentUrn: DATASET, tagUrn: 'urn:li:tag:pii' },
    });
    expect(diff('schemaMetadata', base, target, { categories: new Set(['TAG']) })).toHaveLength(1);
  });

  it('editableSchemaMetadata: a field documented, then its documentation changed (PATCH), with its terms', () => {
    const info = (description: string, terms: string[] = []) => ({
      editableSchemaFieldInfo: [
        {
          fieldPath: 'a',
          description,
          glossaryTerms: {
            terms: terms.map((urn) => ({ urn })),
            auditStamp: { time: 0, actor: 'urn:li:corpuser:x' },
          },
        },
      ],
    });
    expect(summary(diff('editableSchemaMetadata', undefined, info('doc')))).toEqual([
      'DOCUMENTATION ADD a MINOR',
    ]);
    expect(
      summary(diff('editableSchemaMetadata', info('doc'), info('doc2', ['urn:li:glossaryTerm:t']))),
    ).toEqual(['DOCUMENTATION MODIFY a PATCH', 'GLOSSARY_TERM ADD urn:li:glossaryTerm:t MINOR']);
  });

  it('DOMAIN: setting a domain is an ADD; replacing it a REMOVE and an ADD', () => {
    const eng = 'urn:li:domain:eng';
    const mkt = 'urn:li:domain:mkt';
    expect(summary(diff('domains', undefined, { domains: [eng] }))).toEqual([`DOMAIN ADD ${eng} MINOR`]);
    expect(summary(diff('domains', { domains: [eng] }, { domains: [mkt] }))).toEqual([
      `DOMAIN REMOVE ${eng} MINOR`,
      `DOMAIN ADD ${mkt} MINOR`,
    ]);
    expect(diff('domains', { domains: [eng] }, { domains: [] })[0]).toMatchObject({
      operation: 'REMOVE',
      parameters: { domainUrn: eng },
    });
  });

  it('STRUCTURED_PROPERTY: assigned, given another value, removed; values in the parameters as JSON', () => {
    const prop = 'urn:li:structuredProperty:io.acryl.p';
    const assigned = (values: unknown[]) => ({ properties: [{ propertyUrn: prop, values }] });
    const [added] = diff('structuredProperties', undefined, assigned([{ string: 'alpha' }]));
    expect(added).toMatchObject({
      operation: 'ADD',
      parameters: { propertyUrn: prop, propertyValues: '["alpha"]' },
    });
    expect(
      summary(diff('structuredProperties', assigned([{ string: 'alpha' }]), assigned([{ string: 'beta' }]))),
    ).toEqual([`STRUCTURED_PROPERTY MODIFY ${prop} MINOR`]);
    expect(summary(diff('structuredProperties', assigned([{ double: 1 }]), { properties: [] }))).toEqual([
      `STRUCTURED_PROPERTY REMOVE ${prop} MINOR`,
    ]);
  });

  it('APPLICATION and ASSET_MEMBERSHIP: members added and removed', () => {
    expect(
      summary(
        diff(
          'applications',
          { applications: ['urn:li:application:a'] },
          { applications: ['urn:li:application:b'] },
        ),
      ),
    ).toEqual([
      'APPLICATION REMOVE urn:li:application:a MINOR',
      'APPLICATION ADD urn:li:application:b MINOR',
    ]);
    const assets = (urn: string) => ({ name: 'p', assets: [{ destinationUrn: urn }] });
    expect(
      summary(
        diff('dataProductProperties', assets('urn:li:dataset:a'), assets('urn:li:dataset:b'), {
          categories: new Set(['ASSET_MEMBERSHIP']),
        }),
      ),
    ).toEqual([
      'ASSET_MEMBERSHIP REMOVE urn:li:dataset:a MINOR',
      'ASSET_MEMBERSHIP ADD urn:li:dataset:b MINOR',
    ]);
  });

  it('GLOSSARY_TERM of a term: related terms added and removed, with the relationship named', () => {
    const events = diff(
      'glossaryRelatedTerms',
      { isRelatedTerms: ['urn:li:glossaryTerm:a'] },
      { isRelatedTerms: ['urn:li:glossaryTerm:b'] },
    );
    expect(summary(events)).toEqual([
      'GLOSSARY_TERM REMOVE urn:li:glossaryTerm:a MINOR',
      'GLOSSARY_TERM ADD urn:li:glossaryTerm:b MINOR',
    ]);
    expect(events[1]?.parameters).toEqual({ termUrn: 'urn:li:glossaryTerm:b', relationshipType: 'Is A' });
  });

  it('VERSIONING: a version created (MINOR), then its tag changed (PATCH)', () => {
    const version = (tag: string) => ({
      versionSet: 'urn:li:versionSet:(s,dataset)',
      version: { versionTag: tag },
      sortId: '01',
    });
    expect(diff('versionProperties', undefined, version('1.0.0'))[0]).toMatchObject({
      operation: 'ADD',
      semVerChange: 'MINOR',
      parameters: { versionTag: '1.0.0', versionSetUrn: 'urn:li:versionSet:(s,dataset)', isLatest: 'false' },
    });
    expect(summary(diff('versionProperties', version('1.0.0'), version('1.0.1')))).toEqual([
      'VERSIONING MODIFY PATCH',
    ]);
  });

  it('LIFECYCLE and the rest of a document: created (whatever category), retitled, moved, related, published', () => {
    const doc = 'urn:li:document:d';
    const info = (extra: Record<string, unknown>) => ({
      title: 'Runbook',
      contents: { text: 'one' },
      ...extra,
    });
    const documentation = new Set<ChangeCategory>(['DOCUMENTATION']);
    const created = aspectChangeEvents({
      entityUrn: doc,
      aspect: 'documentInfo',
      current: info({}),
      categories: documentation,
    });
    expect(created).toEqual([
      {
        entityUrn: doc,
        category: 'LIFECYCLE',
        operation: 'CREATE',
        semVerChange: 'NONE',
        description: "Document 'Runbook' was created",
      },
    ]);
    const changes = aspectChangeEvents({
      entityUrn: doc,
      aspect: 'documentInfo',
      previous: info({ status: { state: 'UNPUBLISHED' } }),
      current: info({
        title: 'Runbook 2',
        parentDocument: { document: 'urn:li:document:p' },
        relatedAssets: [{ asset: DATASET }],
        status: { state: 'PUBLISHED' },
      }),
    });
    expect(changes.map((e) => `${e.category} ${e.operation} ${e.semVerChange}`)).toEqual([
      'DOCUMENTATION MODIFY NONE',
      'PARENT MODIFY NONE',
      'RELATED_ENTITIES ADD NONE',
      'LIFECYCLE MODIFY NONE',
    ]);
    expect(changes[3]?.parameters).toEqual({ oldState: 'UNPUBLISHED', newState: 'PUBLISHED' });
  });

  it('an aspect no diff knows, or a category it does not cover, has no events', () => {
    expect(diff('datasetUsageStatistics', { removed: false }, { removed: true })).toEqual([]);
    expect(
      diff(
        'globalTags',
        undefined,
        { tags: [{ tag: 'urn:li:tag:a' }] },
        { categories: new Set(['OWNERSHIP']) },
      ),
    ).toEqual([]);
  });

  it('carries the audit stamp when one is given (the change event stream), none otherwise (the timeline)', () => {
    const auditStamp = { time: 5, actor: 'urn:li:corpuser:x' };
    expect(
      diff('globalTags', undefined, { tags: [{ tag: 'urn:li:tag:a' }] }, { auditStamp })[0]?.auditStamp,
    ).toEqual(auditStamp);
    expect(diff('globalTags', undefined, { tags: [{ tag: 'urn:li:tag:a' }] })[0]).not.toHaveProperty(
      'auditStamp',
    );
  });
});
