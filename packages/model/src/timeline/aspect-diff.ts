import type { ChangeAuditStamp, ChangeCategory, ChangeEvent } from './change-event.js';
import { record, text, type Json } from './aspect-values.js';
import {
  applicationChanges,
  assetMembershipChanges,
  domainChanges,
  relatedTermChanges,
  structuredPropertyChanges,
  versionChanges,
} from './association-diffs.js';
import {
  DATA_PRODUCT_DOCUMENTATION,
  descriptionChange,
  DOMAIN_DOCUMENTATION,
  GLOSSARY_TERM_DOCUMENTATION,
  institutionalMemoryChanges,
  namedDocumentationChanges,
} from './documentation-diffs.js';
import { deprecationChanges } from './deprecation-diff.js';
import { documentChanges } from './document-diff.js';
import { editableSchemaMetadataChanges } from './editable-schema-diff.js';
import { glossaryTermChanges, tagChanges } from './label-diffs.js';
import { entityKeyChanges, LIFECYCLE_KEY_ASPECTS, statusChanges } from './lifecycle-diffs.js';
import { ownershipChanges } from './ownership-diff.js';
import { assertionRunChanges } from './run-diffs.js';
import { schemaMetadataChanges } from './schema-diff.js';

/** Two versions of one aspect of one entity: what a diff compares. */
export interface AspectChange {
  readonly entityUrn: string;
  readonly aspect: string;
  /** The older value; absent when the aspect did not exist before. */
  readonly previous?: Json | undefined;
  /** The newer value; absent when the aspect was deleted. */
  readonly current?: Json | undefined;
  /** Who changed it and when, carried on each event (the timeline's only where stampedInTimeline says). */
  readonly auditStamp?: ChangeAuditStamp;
  /** Only events of these categories (default: every category the aspect's diff knows). */
  readonly categories?: ReadonlySet<ChangeCategory>;
}

type Diff = (
  previous: Json | undefined,
  current: Json | undefined,
  entityUrn: string,
  categories: ReadonlySet<ChangeCategory>,
  auditStamp: ChangeAuditStamp | undefined,
) => ChangeEvent[];

interface AspectDiffer {
  /** The categories this aspect's changes can fall in. */
  readonly categories: readonly ChangeCategory[];
  readonly diff: Diff;
  /**
   * Whether the diff decides itself which events the asked categories keep (a document's creation is
   * reported whatever category was asked for); otherwise only events of the asked categories are kept.
   */
  readonly selectsCategories?: boolean;
  /**
   * Whether the timeline's events of this aspect carry who changed it and when: the ecosystem's timeline
   * generators leave the stamp to the transaction except for documents (entity change events always
   * carry it).
   */
  readonly stampedInTimeline?: boolean;
}

const description = (value: Json | undefined) => text(value?.['description']);

/** Per aspect, the ecosystem's change event generator for it. */
const DIFFERS: Readonly<Record<string, AspectDiffer>> = {
  globalTags: { categories: ['TAG'], diff: (a, b, urn, _c, s) => tagChanges(a, b, urn, s) },
  glossaryTerms: {
    categories: ['GLOSSARY_TERM'],
    diff: (a, b, urn, _c, s) => glossaryTermChanges(a, b, urn, s),
  },
  ownership: { categories: ['OWNERSHIP'], diff: (a, b, urn, _c, s) => ownershipChanges(a, b, urn, s) },
  institutionalMemory: {
    categories: ['DOCUMENTATION'],
    diff: (a, b, urn, _c, s) => institutionalMemoryChanges(a, b, urn, s),
  },
  datasetProperties: {
    categories: ['DOCUMENTATION'],
    diff: (a, b, urn, _c, s) => descriptionChange(description(a), description(b), urn, s),
  },
  editableDatasetProperties: {
    categories: ['DOCUMENTATION'],
    diff: (a, b, urn, _c, s) => descriptionChange(description(a), description(b), urn, s),
  },
  schemaMetadata: {
    categories: ['DOCUMENTATION', 'TAG', 'TECHNICAL_SCHEMA', 'GLOSSARY_TERM'],
    diff: (a, b, urn, c, s) => schemaMetadataChanges(a, b, urn, c, s),
  },
  editableSchemaMetadata: {
    categories: ['DOCUMENTATION', 'TAG', 'GLOSSARY_TERM'],
    diff: (a, b, urn, c, s) => editableSchemaMetadataChanges(a, b, urn, c, s),
  },
  deprecation: {
    categories: ['DEPRECATION'],
    diff: (a, b, urn, _c, s) => deprecationChanges(a, b, urn, s),
  },
  domains: { categories: ['DOMAIN'], diff: (a, b, urn, _c, s) => domainChanges(a, b, urn, s) },
  structuredProperties: {
    categories: ['STRUCTURED_PROPERTY'],
    diff: (a, b, urn, _c, s) => structuredPropertyChanges(a, b, urn, s),
  },
  applications: { categories: ['APPLICATION'], diff: (a, b, urn, _c, s) => applicationChanges(a, b, urn, s) },
  dataProductProperties: {
    categories: ['DOCUMENTATION', 'ASSET_MEMBERSHIP'],
    diff: (a, b, urn, c, s) => [
      ...(c.has('DOCUMENTATION') && b !== undefined
        ? namedDocumentationChanges(a, b, urn, DATA_PRODUCT_DOCUMENTATION, s)
        : []),
      ...(c.has('ASSET_MEMBERSHIP') ? assetMembershipChanges(a, b, urn) : []),
    ],
  },
  domainProperties: {
    categories: ['DOCUMENTATION'],
    diff: (a, b, urn, _c, s) =>
      b === undefined ? [] : namedDocumentationChanges(a, b, urn, DOMAIN_DOCUMENTATION, s),
  },
  glossaryTermInfo: {
    categories: ['DOCUMENTATION'],
    diff: (a, b, urn, _c, s) =>
      b === undefined ? [] : namedDocumentationChanges(a, b, urn, GLOSSARY_TERM_DOCUMENTATION, s),
  },
  glossaryRelatedTerms: {
    categories: ['GLOSSARY_TERM'],
    diff: (a, b, urn) => (b === undefined ? [] : relatedTermChanges(a, b, urn)),
  },
  versionProperties: { categories: ['VERSIONING'], diff: (a, b, urn, _c, s) => versionChanges(a, b, urn, s) },
  assertionRunEvent: { categories: ['RUN'], diff: (a, b, urn, _c, s) => assertionRunChanges(a, b, urn, s) },
  status: { categories: ['LIFECYCLE'], diff: (a, b, urn, _c, s) => statusChanges(a, b, urn, s) },
  ...Object.fromEntries(
    LIFECYCLE_KEY_ASPECTS.map((aspect): [string, AspectDiffer] => [
      aspect,
      { categories: ['LIFECYCLE'], diff: (a, b, urn, _c, s) => entityKeyChanges(a, b, urn, s) },
    ]),
  ),
  documentInfo: {
    categories: ['LIFECYCLE', 'DOCUMENTATION', 'PARENT', 'RELATED_ENTITIES'],
    diff: (a, b, urn, c, s) => documentChanges(a, b, urn, c, s),
    selectsCategories: true,
    stampedInTimeline: true,
  },
};

/** Whether the timeline's events of `aspect` carry their audit stamp (see AspectDiffer.stampedInTimeline). */
export function stampedInTimeline(aspect: string): boolean {
  return DIFFERS[aspect]?.stampedInTimeline === true;
}

/** The categories an aspect's changes can fall in (none for an aspect no diff knows). */
export function aspectChangeCategories(aspect: string): readonly ChangeCategory[] {
  return DIFFERS[aspect]?.categories ?? [];
}

/**
 * The semantic changes between two versions of an aspect: a pure function of the two values, the one
 * diff both the timeline and entity change events are computed with. Events of categories outside
 * `categories` (when given) are left out; an aspect no diff knows has none.
 */
export function aspectChangeEvents(change: AspectChange): ChangeEvent[] {
  const differ = DIFFERS[change.aspect];
  if (differ === undefined) return [];
  const categories = new Set(
    differ.categories.filter((c) => change.categories === undefined || change.categories.has(c)),
  );
  if (categories.size === 0) return [];
  const events = differ.diff(
    record(change.previous),
    record(change.current),
    change.entityUrn,
    categories,
    change.auditStamp,
  );
  return differ.selectsCategories === true ? events : events.filter((e) => categories.has(e.category));
}
