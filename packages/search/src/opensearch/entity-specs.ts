import type { SearchFieldType } from '@catalog/model';
import type { EntityIndexSpec, FieldMapping } from '../port.js';
import type { AliasedIndices } from './aliased-index.js';
import { fieldPaths, META_FIELD, undeclaredFieldPaths, type FieldPaths } from './field-paths.js';
import type { IndexNames } from './index-names.js';
import { isObject } from './narrow.js';

/** An entity index as the query builders see it: its alias and the paths of every field name. */
export interface ResolvedSpec {
  readonly spec: EntityIndexSpec;
  readonly alias: string;
  /** Declared fields and aliases (resolved to their target's paths). */
  readonly paths: ReadonlyMap<string, FieldPaths>;
  /**
   * Whether the index mapping has the sort aliases (SORT_PATH): an index created before them gets them
   * on its next ensureIndex; until then sorts read the fields' own paths.
   */
  readonly sortAliases: boolean;
}

/** The paths of a field name in one index: declared, alias, or undeclared (dynamic keyword). */
export function pathsOf(resolved: ResolvedSpec, name: string): FieldPaths {
  return resolved.paths.get(name) ?? undeclaredFieldPaths(name);
}

/**
 * The specs of the entity indices, known from ensureIndex or read back from the index mapping's _meta,
 * so a reader process that never ensured an index still knows its fields.
 */
export class EntitySpecs {
  private readonly known = new Map<string, ResolvedSpec>();

  constructor(
    private readonly names: IndexNames,
    private readonly indices: AliasedIndices,
  ) {}

  /** The spec of an index just ensured (so with every mapping this adapter writes). */
  remember(spec: EntityIndexSpec, sortAliases = true): ResolvedSpec {
    const resolved = resolveSpec(spec, this.names.entity(spec.entityType), sortAliases);
    this.known.set(spec.entityType, resolved);
    return resolved;
  }

  forget(entityType: string): void {
    this.known.delete(entityType);
  }

  /** The spec of the entity type's index, or null when the index does not exist. */
  async get(entityType: string): Promise<ResolvedSpec | null> {
    const cached = this.known.get(entityType);
    if (cached !== undefined) return cached;
    const mapping = await this.indices.mapping(this.names.entity(entityType));
    if (mapping === null) return null;
    const spec = specFromMeta(mapping['_meta']);
    if (spec === null) {
      throw new Error(`index ${this.names.entity(entityType)} has no catalog spec in its mapping _meta`);
    }
    return this.remember(spec, hasSortAliases(mapping));
  }
}

function hasSortAliases(mapping: Record<string, unknown>): boolean {
  const properties = mapping['properties'];
  if (!isObject(properties) || !isObject(properties[META_FIELD])) return false;
  const meta = properties[META_FIELD]['properties'];
  return isObject(meta) && isObject(meta['sort']);
}

/** A spec with the paths of its fields in the index behind `alias`. */
export function resolveSpec(spec: EntityIndexSpec, alias: string, sortAliases: boolean): ResolvedSpec {
  const byName = new Map(spec.fields.map((field) => [field.name, field]));
  const paths = new Map<string, FieldPaths>();
  for (const field of spec.fields) {
    const target = field.aliasOf === undefined ? field : byName.get(field.aliasOf);
    // An alias filters, sorts and aggregates like its target, but adds nothing to full text.
    if (target === field) paths.set(field.name, fieldPaths(field));
    else if (target !== undefined)
      paths.set(field.name, { ...fieldPaths(target), name: field.name, boost: 0 });
  }
  return { spec, alias, paths, sortAliases };
}

const FIELD_TYPES: ReadonlySet<string> = new Set<SearchFieldType>([
  'TEXT',
  'TEXT_PARTIAL',
  'WORD_GRAM',
  'KEYWORD',
  'URN',
  'URN_PARTIAL',
  'BOOLEAN',
  'COUNT',
  'DATETIME',
  'DOUBLE',
  'BROWSE_PATH',
  'OBJECT',
]);

function specFromMeta(meta: unknown): EntityIndexSpec | null {
  if (!isObject(meta) || !isObject(meta['catalog'])) return null;
  const spec = meta['catalog']['spec'];
  if (!isObject(spec) || typeof spec['entityType'] !== 'string' || !Array.isArray(spec['fields']))
    return null;
  const fields: FieldMapping[] = [];
  for (const raw of spec['fields']) {
    if (!isObject(raw) || typeof raw['name'] !== 'string' || typeof raw['type'] !== 'string') return null;
    if (!FIELD_TYPES.has(raw['type'])) return null;
    fields.push({
      name: raw['name'],
      type: raw['type'] as SearchFieldType,
      ...(typeof raw['boost'] === 'number' ? { boost: raw['boost'] } : {}),
      ...(raw['autocomplete'] === true ? { autocomplete: true } : {}),
      ...(typeof raw['aliasOf'] === 'string' ? { aliasOf: raw['aliasOf'] } : {}),
    });
  }
  return { entityType: spec['entityType'], fields };
}
