import type { StoredAspect } from '@catalog/store';

/**
 * The fields an entity the actor may not read still shows, by aspect: the ones its display name is read
 * from. The ecosystem's view authorization answers such an entity, where a query reaches it (a direct
 * load, a parent, a lineage neighbour), as a stub: its urn, type and name kept, every other field
 * emptied (AuthorizationUtils.restrictEntity). Only data assets and what organises them are named here:
 * an administrative entity (a policy, a secret, a token, an ingestion source) shows nothing.
 */
const DISPLAY_NAME_FIELDS: Readonly<Record<string, readonly string[]>> = {
  applicationProperties: ['name'],
  chartInfo: ['title'],
  containerProperties: ['name'],
  dashboardInfo: ['title'],
  dataFlowInfo: ['name'],
  dataJobInfo: ['name'],
  dataProcessInstanceProperties: ['name'],
  dataProductProperties: ['name'],
  datasetProperties: ['name'],
  domainProperties: ['name'],
  glossaryNodeInfo: ['name'],
  glossaryTermInfo: ['name'],
  mlModelGroupProperties: ['name'],
  mlModelProperties: ['name'],
  notebookInfo: ['title'],
  tagProperties: ['name'],
};

/** The stamp a stub's aspects carry: who wrote them and when is not shown. */
const NO_STAMP = { time: 0, actor: 'urn:li:corpuser:unknown' } as const;

/**
 * The aspects of an entity the actor may not read, as its stub shows them: each display-name aspect
 * reduced to its name fields (no version, stamp or system metadata), nothing else.
 */
export function restrictedAspects(stored: readonly StoredAspect[]): Map<string, StoredAspect> {
  const shown = new Map<string, StoredAspect>();
  for (const aspect of stored) {
    const fields = DISPLAY_NAME_FIELDS[aspect.aspect];
    if (fields === undefined) continue;
    const value: Record<string, unknown> = {};
    for (const field of fields)
      if (typeof aspect.value[field] === 'string') value[field] = aspect.value[field];
    if (Object.keys(value).length === 0) continue;
    shown.set(aspect.aspect, {
      urn: aspect.urn,
      aspect: aspect.aspect,
      version: 0,
      value,
      systemMetadata: null,
      created: NO_STAMP,
    });
  }
  return shown;
}

/**
 * The parent links of the hierarchies an entity sits in (`aspect.field` → parent urn). The ecosystem
 * follows them whether or not the actor may read the entity (its parent resolvers read the aspect
 * directly): a parent is then shown as the actor may see it, as a stub when it may not read it.
 */
const PARENT_LINKS: readonly (readonly [string, string])[] = [
  ['container', 'container'],
  ['domainProperties', 'parentDomain'],
  ['glossaryTermInfo', 'parentNode'],
  ['glossaryNodeInfo', 'parentNode'],
];

/** The key of a parent link (see parentLinks). */
export function parentLinkKey(aspect: string, field: string): string {
  return `${aspect}.${field}`;
}

/** The parent links stored for an entity, keyed by parentLinkKey. */
export function parentLinks(stored: readonly StoredAspect[]): Map<string, string> {
  const links = new Map<string, string>();
  for (const [aspectName, field] of PARENT_LINKS) {
    const parent = stored.find((a) => a.aspect === aspectName)?.value[field];
    if (typeof parent === 'string') links.set(parentLinkKey(aspectName, field), parent);
  }
  return links;
}
