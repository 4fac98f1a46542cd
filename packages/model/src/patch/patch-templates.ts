/**
 * The ecosystem's patch templates as data: which arrays of an aspect become maps while a patch applies
 * (keyed by the named fields, nested one level per key; no key fields means an array of strings keyed by
 * each string), the same inside map entries (`children`), and the value patched when the aspect is
 * absent. Aspects without a template patch their stored value, or an empty record, by the patch's own
 * `arrayPrimaryKeys` (the ecosystem's generic path).
 */
export interface ArrayKeys {
  /** Field path from the enclosing record, e.g. `['globalTags', 'tags']`. */
  readonly path: readonly string[];
  /** Key fields of an element; `␟` separates a path into the element (`attribution␟source`). */
  readonly keys: readonly string[];
  readonly children?: readonly ArrayKeys[];
}

export interface PatchTemplate {
  readonly arrays: readonly ArrayKeys[];
  /** The value a patch starts from when the aspect is not stored (before validation fills defaults). */
  readonly defaultValue: (now: number) => Record<string, unknown>;
}

const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';
const DEFAULT_VALUE_TYPE = 'urn:li:dataType:datahub.string';
const stamp = (now: number) => ({ time: now, actor: SYSTEM_ACTOR });
const edges = (...fields: string[]): ArrayKeys[] =>
  fields.map((f) => ({ path: [f], keys: ['destinationUrn'] }));
const strings = (...fields: string[]): ArrayKeys[] => fields.map((f) => ({ path: [f], keys: [] }));

const TAGS: ArrayKeys = { path: ['globalTags', 'tags'], keys: ['tag'] };
const TERMS: ArrayKeys = { path: ['glossaryTerms', 'terms'], keys: ['urn'] };

export const PATCH_TEMPLATES: Readonly<Record<string, PatchTemplate>> = {
  globalTags: { arrays: [{ path: ['tags'], keys: ['tag'] }], defaultValue: () => ({ tags: [] }) },
  glossaryTerms: {
    arrays: [{ path: ['terms'], keys: ['urn'] }],
    defaultValue: (now) => ({ terms: [], auditStamp: stamp(now) }),
  },
  ownership: {
    arrays: [{ path: ['owners'], keys: ['owner', 'type'] }],
    defaultValue: (now) => ({ owners: [], lastModified: stamp(now) }),
  },
  upstreamLineage: {
    arrays: [{ path: ['upstreams'], keys: ['dataset'] }],
    defaultValue: () => ({ upstreams: [] }),
  },
  datasetProperties: { arrays: strings('tags'), defaultValue: () => ({ tags: [], customProperties: {} }) },
  editableSchemaMetadata: {
    arrays: [{ path: ['editableSchemaFieldInfo'], keys: ['fieldPath'], children: [TAGS, TERMS] }],
    defaultValue: (now) => ({ created: stamp(now), lastModified: stamp(now), editableSchemaFieldInfo: [] }),
  },
  structuredProperties: {
    arrays: [{ path: ['properties'], keys: ['propertyUrn'] }],
    defaultValue: () => ({ properties: [] }),
  },
  institutionalMemory: {
    arrays: [{ path: ['elements'], keys: ['url'] }],
    defaultValue: () => ({ elements: [] }),
  },
  domains: { arrays: strings('domains'), defaultValue: () => ({ domains: [] }) },
  dataProductProperties: { arrays: edges('assets'), defaultValue: () => ({ assets: [] }) },
  dataJobInputOutput: {
    arrays: [
      ...strings('inputDatasets', 'outputDatasets', 'inputDatajobs'),
      ...edges('inputDatasetEdges', 'outputDatasetEdges', 'inputDatajobEdges'),
    ],
    defaultValue: () => ({ inputDatasets: [], outputDatasets: [] }),
  },
  chartInfo: { arrays: edges('inputEdges'), defaultValue: () => ({}) },
  dashboardInfo: {
    arrays: [...strings('charts', 'datasets'), ...edges('chartEdges', 'datasetEdges')],
    defaultValue: () => ({}),
  },
  dataFlowInfo: { arrays: [], defaultValue: () => ({}) },
  dataJobInfo: { arrays: [], defaultValue: () => ({}) },
  // The SDK's StructuredPropertyPatchBuilder adds `/entityTypes/<urn>` and `/allowedValues/<value>`; every
  // other path it emits (qualifiedName, displayName, valueType, typeQualifier, cardinality, description,
  // immutable, version) sets a whole field. The default is the ecosystem's template default.
  propertyDefinition: {
    arrays: [...strings('entityTypes'), { path: ['allowedValues'], keys: ['value'] }],
    defaultValue: () => ({ qualifiedName: '', valueType: DEFAULT_VALUE_TYPE, entityTypes: [] }),
  },
};
