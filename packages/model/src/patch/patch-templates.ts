/**
 * The ecosystem's patch templates as data. While a patch applies, each keyed array of a template is a map
 * (keyed by the named fields, nested one level per key; no key fields means an array of strings keyed by
 * each string); fields of each element may have templates of their own (a schema field's tags and terms);
 * fine-grained lineages are keyed by transform operation, downstream, query and upstream. The template
 * also names the value patched when the aspect is absent, and fields it puts back when missing. Aspects
 * without a template patch their stored value, or an empty record, by the patch's own `arrayPrimaryKeys`
 * (the ecosystem's generic path).
 */
export interface KeyedArray {
  /** Field path from the record the template applies to, e.g. `['actors', 'users']`; parents are created. */
  readonly path: readonly string[];
  /** Key fields of an element; `␟` separates a path into the element (`attribution␟source`). */
  readonly keys: readonly string[];
  /**
   * Keyed only when present: an absent field stays absent. Otherwise an absent field is patched as an
   * empty map and comes back as an array (`[]` when the patch removed it), as the ecosystem's templates do.
   */
  readonly onlyWhenPresent?: boolean;
  /** Templates of fields of each element, applied where the element has that field. */
  readonly elementFields?: Readonly<Record<string, PatchTemplate>>;
}

export interface PatchTemplate {
  readonly arrays: readonly KeyedArray[];
  /** Fields holding fine-grained lineages, keyed `/<transformOperation>/<downstream>/<query>/<upstream>`. */
  readonly fineGrainedLineages?: readonly string[];
  /**
   * The value a patch starts from when the aspect is not stored (before validation fills defaults);
   * absent when the template has none, and then a patch needs a stored value.
   */
  readonly defaultValue?: (now: number) => Record<string, unknown>;
  /** Fields put back when missing, before and after the operations apply (a required audit stamp). */
  readonly restored?: (now: number) => Record<string, unknown>;
}

const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';
const DEFAULT_VALUE_TYPE = 'urn:li:dataType:datahub.string';
const stamp = (now: number) => ({ time: now, actor: SYSTEM_ACTOR });
const edges = (...fields: string[]): KeyedArray[] =>
  fields.map((f) => ({ path: [f], keys: ['destinationUrn'] }));
const strings = (...fields: string[]): KeyedArray[] => fields.map((f) => ({ path: [f], keys: [] }));
const identity = (defaultValue: (now: number) => Record<string, unknown>): PatchTemplate => ({
  arrays: [],
  defaultValue,
});

const GLOBAL_TAGS: PatchTemplate = {
  arrays: [{ path: ['tags'], keys: ['tag'] }],
  defaultValue: () => ({ tags: [] }),
};
const GLOSSARY_TERMS: PatchTemplate = {
  arrays: [{ path: ['terms'], keys: ['urn'] }],
  defaultValue: (now) => ({ terms: [], auditStamp: stamp(now) }),
  restored: (now) => ({ auditStamp: stamp(now) }),
};

/** The templates the ecosystem registers, by aspect name (SnapshotEntityRegistry's template map). */
export const PATCH_TEMPLATES: Readonly<Record<string, PatchTemplate>> = {
  ownership: {
    arrays: [{ path: ['owners'], keys: ['owner', 'type'] }],
    defaultValue: (now) => ({ owners: [], lastModified: stamp(now) }),
  },
  datasetProperties: { arrays: strings('tags'), defaultValue: () => ({ tags: [], customProperties: {} }) },
  upstreamLineage: {
    arrays: [{ path: ['upstreams'], keys: ['dataset'] }],
    fineGrainedLineages: ['fineGrainedLineages'],
    defaultValue: () => ({ upstreams: [], fineGrainedLineages: [] }),
  },
  documentation: {
    arrays: [{ path: ['documentations'], keys: ['attribution\u241fsource'] }],
    defaultValue: () => ({ documentations: [] }),
  },
  globalTags: GLOBAL_TAGS,
  editableSchemaMetadata: {
    arrays: [
      {
        path: ['editableSchemaFieldInfo'],
        keys: ['fieldPath'],
        elementFields: { globalTags: GLOBAL_TAGS, glossaryTerms: GLOSSARY_TERMS },
      },
    ],
    defaultValue: (now) => ({ created: stamp(now), lastModified: stamp(now), editableSchemaFieldInfo: [] }),
  },
  glossaryTerms: GLOSSARY_TERMS,
  dataFlowInfo: identity(() => ({ customProperties: {} })),
  dataJobInfo: identity(() => ({ customProperties: {} })),
  dataProductProperties: {
    arrays: [{ path: ['assets'], keys: ['destinationUrn'] }],
    defaultValue: () => ({ assets: [] }),
  },
  chartInfo: {
    arrays: [...edges('inputEdges'), ...strings('inputs')],
    defaultValue: (now) => ({
      description: '',
      title: '',
      lastModified: { created: stamp(now), lastModified: stamp(now) },
      inputEdges: [],
      inputs: [],
    }),
  },
  dashboardInfo: {
    arrays: [...edges('chartEdges', 'datasetEdges', 'dashboards'), ...strings('datasets', 'charts')],
    defaultValue: (now) => ({
      title: '',
      description: '',
      lastModified: { created: stamp(now), lastModified: stamp(now) },
      chartEdges: [],
      datasetEdges: [],
      datasets: [],
      charts: [],
    }),
  },
  dataJobInputOutput: {
    arrays: [
      ...edges('inputDatajobEdges', 'inputDatasetEdges', 'outputDatasetEdges'),
      ...strings('inputDatasetFields', 'outputDatasetFields'),
    ],
    fineGrainedLineages: ['fineGrainedLineages'],
    defaultValue: () => ({
      inputDatajobEdges: [],
      inputDatasetEdges: [],
      outputDatasetEdges: [],
      fineGrainedLineages: [],
      inputDatasetFields: [],
      outputDatasetFields: [],
      inputDatajobs: [],
      inputDatasets: [],
      outputDatasets: [],
    }),
  },
  structuredProperties: {
    arrays: [{ path: ['properties'], keys: ['propertyUrn'] }],
    defaultValue: () => ({ properties: [] }),
  },
  // The SDK's StructuredPropertyPatchBuilder adds `/entityTypes/<urn>` and `/allowedValues/<value>`; every
  // other path it emits sets a whole field. An allowed value is keyed by its union member's value.
  propertyDefinition: {
    arrays: [
      ...strings('entityTypes'),
      { path: ['allowedPlatforms'], keys: [], onlyWhenPresent: true },
      { path: ['allowedValues'], keys: ['value'], onlyWhenPresent: true },
    ],
    defaultValue: () => ({ qualifiedName: '', valueType: DEFAULT_VALUE_TYPE, entityTypes: [] }),
  },
  formInfo: {
    arrays: [
      { path: ['prompts'], keys: ['id'] },
      { path: ['actors', 'users'], keys: [] },
      { path: ['actors', 'groups'], keys: [] },
    ],
    defaultValue: () => ({ name: '' }),
  },
  // No sensible default: a version set must be named, so a patch needs a stored value.
  versionProperties: { arrays: [] },
  siblings: { arrays: strings('siblings'), defaultValue: () => ({ siblings: [], primary: false }) },
  status: identity(() => ({ removed: false })),
  domains: { arrays: strings('domains'), defaultValue: () => ({ domains: [] }) },
  editableDatasetProperties: identity(() => ({})),
  editableContainerProperties: identity(() => ({})),
  editableMlModelGroupProperties: identity(() => ({})),
  // Not a template of the ecosystem (its SDK sends `arrayPrimaryKeys` for links): links keyed by url.
  institutionalMemory: {
    arrays: [{ path: ['elements'], keys: ['url'] }],
    defaultValue: () => ({ elements: [] }),
  },
};
