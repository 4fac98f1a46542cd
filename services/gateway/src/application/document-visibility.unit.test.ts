import { entityRegistry } from '@catalog/model';
import { buildEntityDocument, matchesFilter, type Filter } from '@catalog/search';
import { describe, expect, it } from 'vitest';
import {
  bothFilters,
  crossEntityDocumentFilter,
  documentCriteria,
  documentSearchFilter,
  DRAFT_STAGE,
  PUBLISHED_STAGE,
} from './document-visibility.js';

const OWNER = 'urn:li:corpuser:owner';
const GROUP = 'urn:li:corpGroup:writers';
const OTHER = 'urn:li:corpuser:other';
const PARENT = 'urn:li:document:parent';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)';

interface Doc {
  readonly state?: 'PUBLISHED' | 'UNPUBLISHED';
  readonly stage?: string;
  readonly global?: boolean;
  readonly owner?: string;
  readonly parent?: string;
  readonly subType?: string;
  readonly related?: string;
}

/** Whether the filter keeps a document stored with these aspects, judged on its real search document. */
function keeps(filter: Filter, doc: Doc, entity = 'document', urn = 'urn:li:document:d'): boolean {
  const aspects = new Map<string, Record<string, unknown>>();
  if (entity === 'document') {
    aspects.set('documentInfo', {
      title: 't',
      status: { state: doc.state ?? 'PUBLISHED' },
      contents: { text: 'x' },
      created: { time: 1, actor: OWNER },
      lastModified: { time: 1, actor: OWNER },
      ...(doc.parent === undefined ? {} : { parentDocument: { document: doc.parent } }),
      ...(doc.related === undefined ? {} : { relatedAssets: [{ asset: doc.related }] }),
    });
    aspects.set('documentSettings', { showInGlobalContext: doc.global ?? true });
    aspects.set('ownership', { owners: [{ owner: doc.owner ?? OWNER, type: 'TECHNICAL_OWNER' }] });
    if (doc.subType !== undefined) aspects.set('subTypes', { typeNames: [doc.subType] });
  }
  aspects.set('status', {
    removed: false,
    ...(doc.stage === undefined ? {} : { lifecycleStage: doc.stage }),
  });
  const fields = buildEntityDocument(entityRegistry.requireEntity(entity), urn, aspects).fields;
  return matchesFilter(filter, (field) => {
    const value = fields[field];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  });
}

const member = { actorAndGroups: [OTHER, GROUP], managesDocuments: false };
const stranger = { actorAndGroups: [OTHER], managesDocuments: false };
const manager = { actorAndGroups: [OTHER], managesDocuments: true };
const search = (viewer = stranger, criteria = documentCriteria({})) =>
  documentSearchFilter(criteria, viewer, { globalOnly: true });

describe('the document search filter', () => {
  it('shows a published document to anyone and an unpublished one only to its owners, their groups and document managers', () => {
    expect(keeps(search(), { state: 'PUBLISHED' })).toBe(true);
    expect(keeps(search(), { state: 'UNPUBLISHED' })).toBe(false);
    expect(keeps(search(member), { state: 'UNPUBLISHED', owner: GROUP })).toBe(true);
    expect(keeps(search(manager), { state: 'UNPUBLISHED' })).toBe(true);
  });

  it('lets the lifecycle stage decide over the state: PUBLISHED for anyone, another stage for owners, DRAFT for nobody', () => {
    expect(keeps(search(), { state: 'UNPUBLISHED', stage: PUBLISHED_STAGE })).toBe(true);
    expect(keeps(search(), { state: 'PUBLISHED', stage: 'urn:li:lifecycleStageType:IN_REVIEW' })).toBe(false);
    expect(keeps(search(member), { stage: 'urn:li:lifecycleStageType:IN_REVIEW', owner: GROUP })).toBe(true);
    expect(keeps(search(member), { stage: DRAFT_STAGE, owner: GROUP })).toBe(false);
    expect(keeps(search(manager), { stage: DRAFT_STAGE })).toBe(false);
  });

  it('leaves context-only documents out of the global search but not out of an asset page', () => {
    expect(keeps(search(), { global: false })).toBe(false);
    const related = documentSearchFilter(documentCriteria({ relatedAssets: [DATASET] }), stranger, {
      globalOnly: false,
    });
    expect(keeps(related, { global: false, related: DATASET })).toBe(true);
    expect(keeps(related, { global: false })).toBe(false);
  });

  it('narrows to one state when asked, ownership still applying to unpublished ones', () => {
    const published = documentSearchFilter([], member, { globalOnly: true, states: ['PUBLISHED'] });
    expect(keeps(published, { state: 'UNPUBLISHED', owner: GROUP })).toBe(false);
    const unpublished = documentSearchFilter([], member, { globalOnly: true, states: ['UNPUBLISHED'] });
    expect(keeps(unpublished, { state: 'PUBLISHED' })).toBe(false);
    expect(keeps(unpublished, { state: 'UNPUBLISHED', owner: GROUP })).toBe(true);
    expect(keeps(unpublished, { state: 'UNPUBLISHED' })).toBe(false);
  });

  it('filters by parent, root level and sub-type', () => {
    expect(keeps(search(stranger, documentCriteria({ parentDocuments: [PARENT] })), { parent: PARENT })).toBe(
      true,
    );
    expect(keeps(search(stranger, documentCriteria({ parentDocuments: [PARENT] })), {})).toBe(false);
    expect(keeps(search(stranger, documentCriteria({ rootOnly: true })), {})).toBe(true);
    expect(keeps(search(stranger, documentCriteria({ rootOnly: true })), { parent: PARENT })).toBe(false);
    expect(keeps(search(stranger, documentCriteria({ types: ['faq'] })), { subType: 'faq' })).toBe(true);
    expect(keeps(search(stranger, documentCriteria({ types: ['faq'] })), { subType: 'guide' })).toBe(false);
  });
});

describe('the document filter of searches across types', () => {
  it('keeps published global documents and entities of other types, and leaves out the rest', () => {
    const filter = crossEntityDocumentFilter(false);
    expect(keeps(filter, { state: 'PUBLISHED' })).toBe(true);
    expect(keeps(filter, { state: 'UNPUBLISHED' })).toBe(false);
    expect(keeps(filter, { state: 'PUBLISHED', global: false })).toBe(false);
    expect(keeps(filter, { state: 'PUBLISHED', stage: 'urn:li:lifecycleStageType:smoke' })).toBe(false);
    expect(keeps(filter, { state: 'UNPUBLISHED', stage: PUBLISHED_STAGE })).toBe(true);
    expect(keeps(filter, {}, 'dataset', DATASET)).toBe(true);
    expect(keeps(crossEntityDocumentFilter(true), { state: 'UNPUBLISHED' })).toBe(true);
  });

  it('combines with the caller filter as both at once', () => {
    const caller: Filter = { or: [{ and: [{ field: 'typeNames', values: ['faq'], condition: 'EQUAL' }] }] };
    const both = bothFilters(caller, crossEntityDocumentFilter(false));
    expect(keeps(both, { subType: 'faq' })).toBe(true);
    expect(keeps(both, { subType: 'guide' })).toBe(false);
    expect(keeps(both, { subType: 'faq', state: 'UNPUBLISHED' })).toBe(false);
    expect(bothFilters({ or: [] }, caller)).toEqual(caller);
  });
});
