import type {
  AvroJson,
  RegistryAspectData,
  RegistryData,
  RegistryEntityData,
} from '../src/registry/registry-data.js';
import type { RelationshipAnnotation, SearchableField, SearchFieldType } from '../src/types.js';

/**
 * Turns the ecosystem's published aspect schemas (`datahub/metadata/schemas/*.avsc` of the
 * `acryl-datahub` wheel) into the registry data the model package builds its registry from. Pure and
 * deterministic: the same files, in any order, give the same data.
 *
 * - Names become wire names (`com.linkedin.pegasus2avro.x` → `com.linkedin.x`), always fully qualified.
 * - Each named type is defined at its first use (files in name order) and referenced after that; a
 *   second, different definition under one name is an error.
 * - `doc`s and annotations leave the schema; URN fields (`Urn` annotation) become strings with the
 *   `urn` logical type, restricted to one entity type where the ecosystem's typed URN class is.
 * - `Searchable` and `Relationship` annotations, on a field or keyed by a sub-path (`/*\/tag`), become
 *   flat annotations with full paths inside the aspect; an annotation on an outer field overrides the
 *   one a nested record declares at the same path, as the ecosystem's annotation processor does.
 */
export function registryFromAvsc(
  files: ReadonlyMap<string, string>,
  source: RegistryData['source'],
): RegistryData {
  const names = [...files.keys()].sort();
  const parsed = names.map((file) => ({ file, schema: JSON.parse(files.get(file) as string) as unknown }));
  const emitter = new SchemaEmitter();
  const aspects: RegistryAspectData[] = [];
  const keys: { entity: string; aspect: string; recordName: string; category?: string; aspects: string[] }[] =
    [];
  let changeEvent: ResolvedNamed | undefined;

  for (const { file, schema } of parsed) {
    const defs = new Map<string, ResolvedNamed>();
    const resolved = resolve(schema, '', defs);
    if (!isNamed(resolved) || resolved.type !== 'record') continue;
    if (resolved.name === 'com.linkedin.mxe.MetadataChangeEvent') changeEvent = resolved;
    const annotation = resolved.props['Aspect'] as AspectAnnotation | undefined;
    if (annotation === undefined) continue;
    if (typeof annotation.name !== 'string') throw new Error(`${file}: Aspect annotation without a name`);
    const collector = new AnnotationCollector(defs);
    collector.walk(resolved, [], new Set());
    aspects.push({
      name: annotation.name,
      recordName: resolved.name,
      kind: annotation.type === 'timeseries' ? 'timeseries' : 'versioned',
      ...(typeof annotation.schemaVersion === 'number' ? { schemaVersion: annotation.schemaVersion } : {}),
      schema: emitter.emit(resolved, typeof annotation.keyForEntity === 'string'),
      searchable: collector.searchable,
      relationships: collector.relationships,
    });
    if (typeof annotation.keyForEntity === 'string') {
      keys.push({
        entity: annotation.keyForEntity,
        aspect: annotation.name,
        recordName: resolved.name,
        ...(typeof annotation.entityCategory === 'string' ? { category: annotation.entityCategory } : {}),
        aspects: (annotation.entityAspects ?? []).map(String),
      });
    }
  }

  const aspectNames = new Set<string>();
  for (const aspect of aspects) {
    if (aspectNames.has(aspect.name)) throw new Error(`Two schemas declare aspect ${aspect.name}`);
    aspectNames.add(aspect.name);
  }
  const snapshots = changeEvent === undefined ? new Map<string, string>() : snapshotsByKey(changeEvent);
  const entities: RegistryEntityData[] = keys
    .map((key) => {
      const unknown = key.aspects.filter((a) => !aspectNames.has(a));
      if (unknown.length > 0)
        throw new Error(`Entity ${key.entity} names aspects without a schema: ${unknown.join(', ')}`);
      const snapshotName = snapshots.get(key.recordName);
      return {
        name: key.entity,
        keyAspect: key.aspect,
        ...(key.category === undefined ? {} : { category: key.category }),
        aspects: key.aspects.filter((a) => a !== key.aspect),
        ...(snapshotName === undefined ? {} : { snapshotName }),
      };
    })
    .sort((a, b) => compare(a.name, b.name));
  return { source, aspects, entities };
}

interface AspectAnnotation {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly keyForEntity?: unknown;
  readonly entityCategory?: unknown;
  readonly entityAspects?: readonly unknown[];
  readonly schemaVersion?: unknown;
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED_KINDS = new Set(['record', 'error', 'enum', 'fixed']);

/**
 * The ecosystem's typed URN classes and the entity type each one requires (its Java class rejects any
 * other); a plain `Urn` accepts any entity type.
 */
const TYPED_URNS: Readonly<Record<string, string>> = {
  BusinessAttributeUrn: 'businessAttribute',
  ChartUrn: 'chart',
  CorpGroupUrn: 'corpGroup',
  CorpuserUrn: 'corpuser',
  DashboardUrn: 'dashboard',
  DataFlowUrn: 'dataFlow',
  DataJobUrn: 'dataJob',
  DataPlatformUrn: 'dataPlatform',
  DataProcessUrn: 'dataProcess',
  DatasetFieldUrn: 'datasetField',
  DatasetUrn: 'dataset',
  GlossaryNodeUrn: 'glossaryNode',
  GlossaryTermUrn: 'glossaryTerm',
  MLFeatureUrn: 'mlFeature',
  MLModelUrn: 'mlModel',
  TagUrn: 'tag',
};

/** A schema with full wire names everywhere; annotations kept in `props`. */
type Resolved = string | Resolved[] | ResolvedNamed | ResolvedContainer | ResolvedPrimitive;

interface ResolvedNamed {
  readonly kind: 'named';
  readonly type: 'record' | 'error' | 'enum' | 'fixed';
  readonly name: string;
  readonly props: Readonly<Record<string, unknown>>;
  readonly fields?: readonly ResolvedField[];
  readonly symbols?: readonly string[];
  readonly size?: number;
}

interface ResolvedField {
  readonly name: string;
  readonly type: Resolved;
  readonly props: Readonly<Record<string, unknown>>;
  readonly default?: unknown;
}

interface ResolvedContainer {
  readonly kind: 'container';
  readonly type: 'array' | 'map';
  readonly inner: Resolved;
}

interface ResolvedPrimitive {
  readonly kind: 'primitive';
  readonly type: string;
}

function isNamed(type: Resolved): type is ResolvedNamed {
  return typeof type === 'object' && !Array.isArray(type) && type.kind === 'named';
}

export function wireName(name: string): string {
  return name.replace(/^com\.linkedin\.pegasus2avro\./, 'com.linkedin.');
}

function fullName(name: string, namespace: string): string {
  if (name.includes('.') || namespace === '') return wireName(name);
  return wireName(`${namespace}.${name}`);
}

function namespaceOf(full: string): string {
  const dot = full.lastIndexOf('.');
  return dot < 0 ? '' : full.slice(0, dot);
}

/** Avro name resolution (enclosing namespaces), with the file's named definitions recorded in `defs`. */
function resolve(schema: unknown, namespace: string, defs: Map<string, ResolvedNamed>): Resolved {
  if (typeof schema === 'string') return PRIMITIVES.has(schema) ? schema : fullName(schema, namespace);
  if (Array.isArray(schema)) return schema.map((member) => resolve(member, namespace, defs));
  if (typeof schema !== 'object' || schema === null) throw new Error(`Not an avro schema: ${String(schema)}`);
  const object = schema as Record<string, unknown>;
  const type = object['type'];
  if (typeof type !== 'string') return resolve(type, namespace, defs);
  if (type === 'array') return { kind: 'container', type, inner: resolve(object['items'], namespace, defs) };
  if (type === 'map') return { kind: 'container', type, inner: resolve(object['values'], namespace, defs) };
  if (!NAMED_KINDS.has(type)) {
    if (!PRIMITIVES.has(type)) return fullName(type, namespace);
    return { kind: 'primitive', type };
  }
  const declaredNamespace = typeof object['namespace'] === 'string' ? object['namespace'] : namespace;
  const name = fullName(String(object['name']), declaredNamespace);
  const inner = namespaceOf(name);
  const props = propsOf(object, ['type', 'name', 'namespace', 'fields', 'symbols', 'size', 'doc']);
  const named: ResolvedNamed = {
    kind: 'named',
    type: type as ResolvedNamed['type'],
    name,
    props,
    ...(Array.isArray(object['symbols']) ? { symbols: (object['symbols'] as unknown[]).map(String) } : {}),
    ...(typeof object['size'] === 'number' ? { size: object['size'] } : {}),
  };
  // Registered before the fields resolve, so that a recursive reference finds it.
  defs.set(name, named);
  if (Array.isArray(object['fields'])) {
    const fields = (object['fields'] as Record<string, unknown>[]).map((field) => ({
      name: String(field['name']),
      type: resolve(field['type'], inner, defs),
      props: propsOf(field, ['name', 'type', 'default', 'doc']),
      ...('default' in field ? { default: field['default'] } : {}),
    }));
    (named as { fields?: readonly ResolvedField[] }).fields = fields;
  }
  return named;
}

function propsOf(object: Record<string, unknown>, skip: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (!skip.includes(key)) props[key] = value;
  return props;
}

/**
 * Emits schemas for one shared avsc registry: a named type's first emission defines it, later ones
 * reference it by name. A later definition that differs from the first is an error.
 */
class SchemaEmitter {
  private readonly defined = new Map<string, string>();

  private keyRecord: string | undefined;

  /** A key aspect's URN parts are checked as the ecosystem's typed URN classes check them. */
  emit(type: Resolved, isKey: boolean): AvroJson {
    this.keyRecord = isKey && isNamed(type) ? type.name : undefined;
    return this.emitType(type, undefined);
  }

  private urnOf(owner: ResolvedNamed, field: ResolvedField): UrnRule {
    return urnOfField(field, owner.name === this.keyRecord);
  }

  private emitType(type: Resolved, urn: UrnRule): AvroJson {
    if (typeof type === 'string') {
      if (type === 'string' && urn !== undefined) return urnSchema(urn);
      return type;
    }
    if (Array.isArray(type)) return type.map((member) => this.emitType(member, urn));
    if (type.kind === 'primitive') {
      if (type.type === 'string' && urn !== undefined) return urnSchema(urn);
      return type.type;
    }
    if (type.kind === 'container') {
      const inner = this.emitType(type.inner, urn);
      return type.type === 'array' ? { type: 'array', items: inner } : { type: 'map', values: inner };
    }
    const definition = this.definitionOf(type);
    const text = JSON.stringify(definition);
    const earlier = this.defined.get(type.name);
    if (earlier !== undefined) {
      if (earlier !== text) throw new Error(`Two different definitions of ${type.name}`);
      return type.name;
    }
    this.defined.set(type.name, text);
    if (type.fields === undefined) return definition;
    // Fields emit after the name is taken, so a recursive reference stays a reference.
    return {
      ...definition,
      fields: wireFields(type).map((field) => ({
        name: field.name,
        type: this.emitType(field.type, this.urnOf(type, field)),
        ...('default' in field ? { default: field.default } : {}),
      })),
    };
  }

  /** The definition without nested emission, for the equality check (nested names by reference). */
  private definitionOf(type: ResolvedNamed): Record<string, unknown> {
    const base: Record<string, unknown> = { type: type.type, name: type.name };
    if (type.symbols !== undefined) base['symbols'] = type.symbols;
    if (type.size !== undefined) base['size'] = type.size;
    if (type.fields !== undefined)
      base['fields'] = wireFields(type).map((field) => ({
        name: field.name,
        type: shallow(field.type, this.urnOf(type, field)),
        ...('default' in field ? { default: field.default } : {}),
      }));
    return base;
  }
}

/**
 * A record's fields as JSON carries them. A Pegasus union with aliases becomes, in Avro, a record of
 * optional members plus a required `fieldDiscriminator` enum naming the member set; on the wire (the
 * SDK's JSON, the server's reads) only the member is written, so the discriminator is left out.
 */
function wireFields(type: ResolvedNamed): readonly ResolvedField[] {
  const fields = type.fields ?? [];
  return fields.filter((field) => !isAliasDiscriminator(field, fields));
}

function isAliasDiscriminator(field: ResolvedField, fields: readonly ResolvedField[]): boolean {
  if (field.name !== 'fieldDiscriminator' || typeof field.type !== 'object' || Array.isArray(field.type))
    return false;
  const symbols = field.type.kind === 'named' ? (field.type.symbols ?? []) : [];
  return symbols.length > 0 && symbols.every((symbol) => fields.some((f) => f.name === symbol));
}

function shallow(type: Resolved, urn: UrnRule): AvroJson {
  if (typeof type === 'string') return type === 'string' && urn !== undefined ? urnSchema(urn) : type;
  if (Array.isArray(type)) return type.map((member) => shallow(member, urn));
  if (type.kind === 'primitive')
    return type.type === 'string' && urn !== undefined ? urnSchema(urn) : type.type;
  if (type.kind === 'container')
    return type.type === 'array'
      ? { type: 'array', items: shallow(type.inner, urn) }
      : { type: 'map', values: shallow(type.inner, urn) };
  return type.name;
}

/** undefined: not a URN field; null: any URN; a list: URNs of those entity types only. */
type UrnRule = readonly string[] | undefined | null;

/**
 * A field's URN rule. In a key, a part's entity types are the declared ones, and a `platform` part is
 * a data platform (the ecosystem's typed URNs built from keys, such as DatasetUrn, require it).
 */
function urnOfField(field: ResolvedField, inKey: boolean): UrnRule {
  const annotation = field.props['Urn'];
  if (typeof annotation !== 'string') return undefined;
  const typed = TYPED_URNS[annotation];
  if (typed !== undefined) return [typed];
  if (!inKey) return null;
  const declared = field.props['entityTypes'];
  if (Array.isArray(declared) && declared.length > 0) return declared.map(String);
  return field.name === 'platform' ? ['dataPlatform'] : null;
}

function urnSchema(entityTypes: readonly string[] | null): AvroJson {
  return entityTypes === null
    ? { type: 'string', logicalType: 'urn' }
    : { type: 'string', logicalType: 'urn', entityTypes };
}

/** Collects the Searchable and Relationship annotations of one aspect, with full paths. */
class AnnotationCollector {
  readonly searchable: SearchableField[] = [];
  readonly relationships: RelationshipAnnotation[] = [];
  private readonly searchPaths = new Set<string>();
  private readonly relationshipPaths = new Set<string>();

  constructor(private readonly defs: ReadonlyMap<string, ResolvedNamed>) {}

  walk(type: Resolved, prefix: readonly string[], ancestors: ReadonlySet<string>): void {
    if (typeof type === 'string') {
      const def = this.defs.get(type);
      if (def !== undefined) this.walk(def, prefix, ancestors);
      return;
    }
    if (Array.isArray(type)) {
      for (const member of type) this.walk(member, prefix, ancestors);
      return;
    }
    if (type.kind === 'primitive') return;
    if (type.kind === 'container') {
      this.walk(type.inner, [...prefix, '*'], ancestors);
      return;
    }
    if (type.fields === undefined || ancestors.has(type.name)) return;
    const inside = new Set(ancestors).add(type.name);
    for (const field of type.fields) {
      const path = [...prefix, field.name];
      for (const [sub, annotation] of annotationsOf(field.props['Searchable']))
        this.addSearchable(path, sub, annotation, field.type);
      for (const [sub, annotation] of annotationsOf(field.props['Relationship']))
        this.addRelationship([...path, ...sub], annotation);
      this.walk(field.type, path, inside);
    }
  }

  private addSearchable(
    fieldPath: readonly string[],
    sub: readonly string[],
    annotation: Record<string, unknown>,
    fieldType: Resolved,
  ): void {
    const path = [...fieldPath, ...sub];
    const key = path.join('/');
    if (this.searchPaths.has(key)) return;
    this.searchPaths.add(key);
    const found = this.descend(fieldType, sub);
    const target = found === undefined ? undefined : this.unwrap(found);
    let type =
      (annotation['fieldType'] as SearchFieldType | 'BROWSE_PATH_V2' | 'MAP_ARRAY' | undefined) ??
      defaultFieldType(target);
    let segments = path;
    if (type === 'BROWSE_PATH_V2') {
      // The index joins a browsePathsV2 value's entry ids into one path itself: it takes the entries.
      type = 'BROWSE_PATH';
      segments = trimTrailing(segments, ['*', 'id']);
    } else if (type === 'MAP_ARRAY') {
      type = 'KEYWORD';
      segments = trimTrailing(segments, ['$key']);
    } else if (sub.at(-1) === '*' && this.unwrapAt(fieldType, sub.slice(0, -1))?.type === 'map') {
      // A map's `/*` annotation indexes its entries, which the document holds as `key=value`.
      segments = segments.slice(0, -1);
    }
    const named = path.filter((s) => s !== '*' && s !== '$key');
    const fieldName = typeof annotation['fieldName'] === 'string' ? annotation['fieldName'] : named.at(-1);
    if (fieldName === undefined) throw new Error(`Searchable annotation at ${key} has no field name`);
    const field: Record<string, unknown> = { fieldName, path: segments.join('/'), type };
    copy(annotation, field, 'boostScore', 'boost');
    copy(annotation, field, 'filterNameOverride', 'filterName');
    copy(annotation, field, 'hasValuesFieldName');
    copy(annotation, field, 'numValuesFieldName');
    copy(annotation, field, 'addToFilters');
    copy(annotation, field, 'queryByDefault');
    copy(annotation, field, 'enableAutocomplete');
    copy(annotation, field, 'fieldNameAliases');
    this.searchable.push(field as unknown as SearchableField);
  }

  private addRelationship(path: string[], annotation: Record<string, unknown>): void {
    const key = path.join('/');
    if (this.relationshipPaths.has(key)) return;
    this.relationshipPaths.add(key);
    if (typeof annotation['name'] !== 'string') throw new Error(`Relationship at ${key} has no name`);
    const relationship: Record<string, unknown> = {
      name: annotation['name'],
      path: key,
      entityTypes: Array.isArray(annotation['entityTypes']) ? annotation['entityTypes'].map(String) : [],
    };
    if (annotation['isLineage'] === true) relationship['isLineage'] = true;
    if (annotation['isUpstream'] === false) relationship['isUpstream'] = false;
    this.relationships.push(relationship as unknown as RelationshipAnnotation);
  }

  private unwrapAt(type: Resolved, segments: readonly string[]): ReturnType<AnnotationCollector['unwrap']> {
    const found = this.descend(type, segments);
    return found === undefined ? undefined : this.unwrap(found);
  }

  private descend(type: Resolved, segments: readonly string[]): Resolved | undefined {
    let current: Resolved | undefined = type;
    for (const segment of segments) {
      const unwrapped: ReturnType<AnnotationCollector['unwrap']> =
        current === undefined ? undefined : this.unwrap(current);
      if (unwrapped === undefined) return undefined;
      if (unwrapped.kind === 'container') {
        current = segment === '$key' ? 'string' : unwrapped.inner;
      } else if (unwrapped.kind === 'named') {
        current = unwrapped.fields?.find((f) => f.name === segment)?.type;
      } else {
        return undefined;
      }
    }
    return current;
  }

  /** The non-null member of an optional union, with references looked up. */
  private unwrap(type: Resolved): ResolvedNamed | ResolvedContainer | ResolvedPrimitive | undefined {
    if (typeof type === 'string') {
      if (PRIMITIVES.has(type)) return { kind: 'primitive', type };
      return this.defs.get(type);
    }
    if (Array.isArray(type)) {
      const members = type.filter((m) => m !== 'null');
      return members.length === 1 && members[0] !== undefined ? this.unwrap(members[0]) : undefined;
    }
    return type;
  }
}

/** `{fieldType…}` on the field itself, or `{"/sub/path": {…}}` keyed by sub-paths. */
function annotationsOf(value: unknown): [string[], Record<string, unknown>][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const entries = Object.entries(value as Record<string, unknown>);
  const keyed: [string[], Record<string, unknown>][] =
    entries.length > 0 && entries.every(([key]) => key.startsWith('/'))
      ? entries
          .sort(([a], [b]) => compare(a, b))
          .map(([key, annotation]) => [
            key.split('/').filter((s) => s !== ''),
            annotation as Record<string, unknown>,
          ])
      : [[[], value as Record<string, unknown>]];
  // An annotation with only a `v3` part belongs to the ecosystem's next search engine, not to this one.
  return keyed.filter(([, annotation]) => !isOnlyV3(annotation));
}

function isOnlyV3(annotation: Record<string, unknown>): boolean {
  const keys = Object.keys(annotation);
  return keys.length === 1 && keys[0] === 'v3';
}

/** The ecosystem's default field type when an annotation names none. */
function defaultFieldType(type: Resolved | undefined): SearchFieldType {
  const name = typeof type === 'string' ? type : Array.isArray(type) ? undefined : type?.type;
  switch (name) {
    case 'int':
    case 'long':
      return 'COUNT';
    case 'float':
    case 'double':
      return 'DOUBLE';
    case 'boolean':
      return 'BOOLEAN';
    case 'map':
      return 'KEYWORD';
    default:
      return 'TEXT';
  }
}

function trimTrailing(segments: readonly string[], tail: readonly string[]): string[] {
  const end = segments.slice(segments.length - tail.length);
  return end.join('/') === tail.join('/') ? segments.slice(0, segments.length - tail.length) : [...segments];
}

function copy(from: Record<string, unknown>, to: Record<string, unknown>, key: string, as = key): void {
  if (from[key] !== undefined) to[as] = from[key];
}

/** Snapshot record name by the key aspect record its aspects union carries. */
function snapshotsByKey(changeEvent: ResolvedNamed): Map<string, string> {
  const result = new Map<string, string>();
  const proposed = changeEvent.fields?.find((f) => f.name === 'proposedSnapshot');
  const members = Array.isArray(proposed?.type) ? proposed.type : [];
  const defs = new Map<string, ResolvedNamed>();
  collectNamed(changeEvent, defs);
  for (const member of members) {
    const snapshot = typeof member === 'string' ? defs.get(member) : isNamed(member) ? member : undefined;
    const aspectsField = snapshot?.fields?.find((f) => f.name === 'aspects');
    const container = aspectsField?.type;
    if (snapshot === undefined || typeof container !== 'object' || Array.isArray(container)) continue;
    if (container.kind !== 'container' || !Array.isArray(container.inner)) continue;
    for (const aspect of container.inner) {
      const name = typeof aspect === 'string' ? aspect : isNamed(aspect) ? aspect.name : undefined;
      if (name?.startsWith('com.linkedin.metadata.key.')) result.set(name, snapshot.name);
    }
  }
  return result;
}

function collectNamed(type: Resolved, defs: Map<string, ResolvedNamed>): void {
  if (typeof type === 'string') return;
  if (Array.isArray(type)) {
    for (const member of type) collectNamed(member, defs);
    return;
  }
  if (type.kind === 'container') collectNamed(type.inner, defs);
  if (type.kind !== 'named' || defs.has(type.name)) return;
  defs.set(type.name, type);
  for (const field of type.fields ?? []) collectNamed(field.type, defs);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
