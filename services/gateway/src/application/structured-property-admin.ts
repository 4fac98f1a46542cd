import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { ConflictError, DEFINITION_MESSAGES, formatUrn, ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { pointer, writeDecided, type AspectChange } from './aspect-changes.js';
import { EDIT_PRIVILEGES, requireEdit } from './edit-privileges.js';
import { requireEntityUrn, type NamedEntity } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities, StoredValues } from './stored-entities.js';

/**
 * Structured properties: defining them (create, update, delete: MANAGE_STRUCTURED_PROPERTIES) and setting
 * their values on assets (EDIT_ENTITY_PROPERTIES or EDIT_ENTITY on the asset), each asked before anything
 * else. Every write is a proposal through the same path as the Rest.li and OpenAPI writes, so persistence
 * validates definitions and values for all of them alike; these operations check only what is theirs to
 * check (the input's shape, that the asset or property exists, the delete rule of spec 3.2).
 *
 * Changes to existing aspects are PATCH proposals applied by persistence to the latest stored value:
 * values are keyed by property URN, entity types and allowed values by themselves, so two writers that
 * change different properties (or add different entity types) at once both keep their change.
 */

const STRUCTURED_PROPERTY = 'structuredProperty';
const DEFINITION_ASPECT = 'propertyDefinition';
const SETTINGS_ASPECT = 'structuredPropertySettings';
const ASSIGNMENT_ASPECT = 'structuredProperties';

type Json = Readonly<Record<string, unknown>>;

/** What the operations below write with and read from. */
interface Deps {
  readonly stored: StoredEntities;
  readonly proposals: Proposals;
}

/** True when the entity's status says it is soft-deleted. */
function isSoftDeleted(values: StoredValues): boolean {
  return values.get('status')?.['removed'] === true;
}
type Op = Record<string, unknown>;

interface AllowedValueInput {
  readonly stringValue?: string | null;
  readonly numberValue?: number | null;
  readonly description?: string | null;
}

type ValueInput = Omit<AllowedValueInput, 'description'>;

const SETTING_FIELDS = [
  'isHidden',
  'showInSearchFilters',
  'showInAssetSummary',
  'hideInAssetSummaryWhenEmpty',
  'showAsAssetBadge',
  'showInColumnsTable',
] as const;
type SettingField = (typeof SETTING_FIELDS)[number];
type SettingsInput = { readonly [F in SettingField]?: boolean | null };
type FilterStatus = 'ENABLED' | 'DISABLED';

export interface CreateInput {
  readonly id?: string | null;
  readonly qualifiedName?: string | null;
  readonly displayName?: string | null;
  readonly description?: string | null;
  readonly immutable?: boolean | null;
  readonly valueType: string;
  readonly typeQualifier?: { readonly allowedTypes?: readonly string[] | null } | null;
  readonly allowedValues?: readonly AllowedValueInput[] | null;
  readonly cardinality?: 'SINGLE' | 'MULTIPLE' | null;
  readonly entityTypes: readonly string[];
  readonly settings?: SettingsInput | null;
  readonly filterStatus?: FilterStatus | null;
}

export interface UpdateInput {
  readonly urn: string;
  readonly displayName?: string | null;
  readonly description?: string | null;
  readonly immutable?: boolean | null;
  readonly typeQualifier?: { readonly newAllowedTypes?: readonly string[] | null } | null;
  readonly newAllowedValues?: readonly AllowedValueInput[] | null;
  readonly setCardinalityAsMultiple?: boolean | null;
  readonly newEntityTypes?: readonly string[] | null;
  readonly settings?: SettingsInput | null;
  readonly filterStatus?: FilterStatus | null;
}

export interface UpsertInput {
  readonly assetUrn: string;
  readonly structuredPropertyInputParams: readonly {
    readonly structuredPropertyUrn: string;
    readonly values: readonly ValueInput[];
  }[];
}

export interface RemoveInput {
  readonly assetUrn: string;
  readonly structuredPropertyUrns: readonly string[];
}

/** The ecosystem's messages (CreateStructuredPropertyResolver, StructuredPropertyUtils, the update one). */
export const ALREADY_EXISTS = 'A structured property already exists with this urn';
export const ID_MISMATCH = 'Qualified name and the ID of a structured property must match';
export const NO_DEFINITION = 'Attempting to update a structured property with no definition aspect.';
export const INVALID_SETTINGS =
  'Cannot have property isHidden = true while other display location settings are also true.';
const ONE_OF_VALUE = 'Each allowed value must provide exactly one of stringValue or numberValue.';

/** Array keys of the definition while a patch applies: entity types by themselves, values by value. */
const DEFINITION_KEYS = { entityTypes: [], allowedValues: ['value'] };
/** The SDK's keys of value entries (its patch builder's arrayPrimaryKeys): property, then source. */
const ASSIGNMENT_KEYS = { properties: ['propertyUrn', 'attribution\u241fsource'] };

const isSet = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/**
 * The id of a new property, as the ecosystem picks it (StructuredPropertyUtils.getPropertyId): the
 * qualified name, else the id, else a random UUID; both given must be equal.
 */
export function propertyIdOf(id?: string | null, qualifiedName?: string | null): string {
  if (isSet(id) && isSet(qualifiedName) && id !== qualifiedName) throw new ValidationError(ID_MISMATCH);
  return qualifiedName ?? id ?? randomUUID();
}

/** A primitive value (`{string}` or `{double}`) of an input with exactly one of its two members. */
function primitive(input: ValueInput, message: string): Json {
  const hasString = isSet(input.stringValue);
  if (hasString === isSet(input.numberValue)) throw new ValidationError(message);
  return hasString ? { string: input.stringValue } : { double: input.numberValue };
}

function allowedValue(input: AllowedValueInput): Json {
  return {
    value: primitive(input, ONE_OF_VALUE),
    ...(isSet(input.description) ? { description: input.description } : {}),
  };
}

/** The key the patch template gives an allowed value: its primitive's value. */
const allowedValueKey = (value: Json): string => String(Object.values(value['value'] as Json)[0]);

function requirePropertyRef(urn: string, field = 'urn'): NamedEntity {
  const ref = requireEntityUrn(urn);
  if (ref.entity !== STRUCTURED_PROPERTY)
    throw new ValidationError(`${field} must be a structured property urn, got ${JSON.stringify(urn)}`);
  return ref;
}

/** The settings an input sets; `filterStatus` (deprecated) stands for showInSearchFilters. */
function settingsChanges(
  input: SettingsInput | null | undefined,
  filterStatus: FilterStatus | null | undefined,
): Partial<Record<SettingField, boolean>> {
  const changes: Partial<Record<SettingField, boolean>> = {};
  for (const field of SETTING_FIELDS) {
    const value = input?.[field];
    if (isSet(value)) changes[field] = value;
  }
  if (changes.showInSearchFilters === undefined && isSet(filterStatus))
    changes.showInSearchFilters = filterStatus === 'ENABLED';
  // As the ecosystem's update: hiding the property in the summary also clears its dependent flag.
  if (changes.showInAssetSummary === false) changes.hideInAssetSummaryWhenEmpty = false;
  return changes;
}

/** The ecosystem's settings rule (validatePropertySettings): hidden means shown nowhere. */
function checkSettings(settings: Partial<Record<SettingField, boolean>>): void {
  if (
    settings.isHidden === true &&
    (settings.showInSearchFilters === true ||
      settings.showInAssetSummary === true ||
      settings.showAsAssetBadge === true ||
      settings.showInColumnsTable === true)
  )
    throw new ValidationError(INVALID_SETTINGS);
}

const stampOf = (ctx: RequestContext) => ({ time: Date.now(), actor: ctx.authentication.actorUrn });

function patch(ref: NamedEntity, aspect: string, operations: Op[], keys?: object): AspectChange {
  return {
    urn: ref.urn,
    entityType: ref.entity,
    aspect,
    changeType: 'PATCH',
    value: keys === undefined ? operations : { patch: operations, arrayPrimaryKeys: keys },
  };
}

async function createProperty(deps: Deps, ctx: RequestContext, input: CreateInput): Promise<NamedEntity> {
  const id = propertyIdOf(input.id, input.qualifiedName);
  const ref = requirePropertyRef(formatUrn(STRUCTURED_PROPERTY, [id]));
  const settings = settingsChanges(input.settings, input.filterStatus);
  checkSettings(settings);
  if ((await deps.stored.values(ref.urn)).size > 0) throw new ValidationError(ALREADY_EXISTS);
  const stamp = stampOf(ctx);
  const definition = {
    qualifiedName: id,
    valueType: input.valueType,
    entityTypes: [...new Set(input.entityTypes)],
    ...(isSet(input.displayName) ? { displayName: input.displayName } : {}),
    ...(isSet(input.description) ? { description: input.description } : {}),
    ...(isSet(input.immutable) ? { immutable: input.immutable } : {}),
    ...(isSet(input.typeQualifier?.allowedTypes)
      ? { typeQualifier: { allowedTypes: [...input.typeQualifier.allowedTypes] } }
      : {}),
    ...(isSet(input.allowedValues) ? { allowedValues: input.allowedValues.map(allowedValue) } : {}),
    ...(isSet(input.cardinality) ? { cardinality: input.cardinality } : {}),
    created: stamp,
    lastModified: stamp,
  };
  // A CREATE: of two creates of one urn at once, the second is refused by the store, not merged.
  try {
    await writeDecided(deps.proposals, ctx, [
      {
        urn: ref.urn,
        entityType: ref.entity,
        aspect: DEFINITION_ASPECT,
        changeType: 'CREATE',
        value: definition,
      },
    ]);
  } catch (error) {
    if (error instanceof ConflictError) throw new ValidationError(ALREADY_EXISTS, { cause: error });
    throw error;
  }
  // Settings only once the definition is stored, so a refused definition leaves no property behind.
  if (isSet(input.settings) || Object.keys(settings).length > 0)
    await writeDecided(deps.proposals, ctx, [
      {
        urn: ref.urn,
        entityType: ref.entity,
        aspect: SETTINGS_ASPECT,
        value: { ...settings, lastModified: stamp },
      },
    ]);
  return ref;
}

async function updateProperty(deps: Deps, ctx: RequestContext, input: UpdateInput): Promise<NamedEntity> {
  const ref = requirePropertyRef(input.urn);
  const stored = await deps.stored.values(ref.urn);
  const definition = stored.get(DEFINITION_ASPECT) as Json | undefined;
  if (definition === undefined) throw new ValidationError(NO_DEFINITION);
  const operations: Op[] = [];
  const set = (field: string, value: unknown) => operations.push({ op: 'add', path: `/${field}`, value });
  if (isSet(input.displayName)) set('displayName', input.displayName);
  if (isSet(input.description)) set('description', input.description);
  if (isSet(input.immutable)) set('immutable', input.immutable);
  const newTypes = input.typeQualifier?.newAllowedTypes;
  if (isSet(newTypes)) {
    // The qualifier is a map of lists, which patches cannot key: the ecosystem's append of the read one.
    const qualifier = (definition['typeQualifier'] ?? {}) as Readonly<Record<string, readonly string[]>>;
    const allowedTypes = [...new Set([...(qualifier['allowedTypes'] ?? []), ...newTypes])];
    set('typeQualifier', { ...qualifier, allowedTypes });
  }
  for (const value of (input.newAllowedValues ?? []).map(allowedValue))
    operations.push({ op: 'add', path: `/allowedValues/${pointer(allowedValueKey(value))}`, value });
  if (input.setCardinalityAsMultiple === true) set('cardinality', 'MULTIPLE');
  for (const entityType of input.newEntityTypes ?? [])
    operations.push({ op: 'add', path: `/entityTypes/${pointer(entityType)}`, value: entityType });

  const settingsStored = (stored.get(SETTINGS_ASPECT) ?? {}) as Partial<Record<SettingField, boolean>>;
  const changes = settingsChanges(input.settings, input.filterStatus);
  checkSettings({ ...settingsStored, ...changes });
  const stamp = stampOf(ctx);

  if (operations.length > 0) {
    set('lastModified', stamp);
    // allowedValues keyed only when values are added: keying it makes the patch write the list, and an
    // empty list where there was none reads as a restriction of what was allowed.
    const keys = operations.some((op) => String(op['path']).startsWith('/allowedValues/'))
      ? DEFINITION_KEYS
      : { entityTypes: DEFINITION_KEYS.entityTypes };
    await writeDecided(deps.proposals, ctx, [patch(ref, DEFINITION_ASPECT, operations, keys)]);
  }
  const settingOps: Op[] = Object.entries(changes).map(([field, value]) => ({
    op: 'add',
    path: `/${field}`,
    value,
  }));
  if (settingOps.length > 0) {
    const changed = Object.entries(changes).some(
      ([field, value]) => (settingsStored[field as SettingField] ?? false) !== value,
    );
    if (changed) settingOps.push({ op: 'add', path: '/lastModified', value: stamp });
    await writeDecided(deps.proposals, ctx, [patch(ref, SETTINGS_ASPECT, settingOps)]);
  }
  return ref;
}

/**
 * Hard delete, as the ecosystem's resolver does (the whole entity), but only of a soft-deleted property:
 * an active one is refused with what a hard delete would do (spec 3.2). Deleting what does not exist
 * succeeds, as the ecosystem's entity delete does.
 */
async function deleteProperty(deps: Deps, ctx: RequestContext, urn: string): Promise<boolean> {
  const ref = requirePropertyRef(urn);
  const stored = await deps.stored.values(ref.urn);
  if (stored.size === 0) return true;
  if (!isSoftDeleted(stored)) throw new ValidationError(DEFINITION_MESSAGES.hardDeleteActive(ref.urn));
  await writeDecided(deps.proposals, ctx, [
    { urn: ref.urn, entityType: ref.entity, aspect: 'structuredPropertyKey', changeType: 'DELETE' },
  ]);
  return true;
}

/** The asset, which must exist (a schema field need not: its values create it, as in the ecosystem). */
async function requireAsset(deps: Deps, urn: string, exemptSchemaField: boolean) {
  const ref = requireEntityUrn(urn);
  const stored = await deps.stored.values(ref.urn);
  if (stored.size === 0 && !(exemptSchemaField && ref.entity === 'schemaField'))
    throw new ValidationError(`Asset with provided urn ${ref.urn} does not exist`);
  return { ref, stored };
}

/**
 * Replaces the values of the listed properties and keeps the others (the ecosystem's resolver sets the
 * values of every entry of a listed property and appends the properties the asset lacks). Each change is
 * a patch of one entry's values and lastModified (and propertyUrn and created, for a new entry), keyed
 * as the SDK's patch builder keys entries (property urn, then attribution source), so an entry keeps its
 * other fields and a concurrent change of another property, or another source's entry, is kept.
 */
async function upsertValues(deps: Deps, ctx: RequestContext, input: UpsertInput) {
  const params = input.structuredPropertyInputParams.map((p) => ({
    property: requirePropertyRef(p.structuredPropertyUrn, 'structuredPropertyUrn'),
    values: p.values.map((v) =>
      primitive(v, 'Each value must provide exactly one of stringValue or numberValue.'),
    ),
  }));
  const { ref, stored } = await requireAsset(deps, input.assetUrn, true);
  if (params.length === 0) return ref;
  const sources = entrySources(stored.get(ASSIGNMENT_ASPECT) as Json | undefined);
  const stamp = stampOf(ctx);
  const operations = params.flatMap(({ property, values }) => {
    const existing = sources.get(property.urn);
    const entry = (source: string) => `/properties/${pointer(property.urn)}/${pointer(source)}`;
    if (existing === undefined)
      return [
        { op: 'add', path: `${entry('')}/propertyUrn`, value: property.urn },
        { op: 'add', path: `${entry('')}/values`, value: values },
        { op: 'add', path: `${entry('')}/created`, value: stamp },
        { op: 'add', path: `${entry('')}/lastModified`, value: stamp },
      ];
    return [...existing].flatMap((source) => [
      { op: 'add', path: `${entry(source)}/values`, value: values },
      { op: 'add', path: `${entry(source)}/lastModified`, value: stamp },
    ]);
  });
  await writeDecided(deps.proposals, ctx, [patch(ref, ASSIGNMENT_ASPECT, operations, ASSIGNMENT_KEYS)]);
  return ref;
}

/** The attribution sources of the stored entries of each property ('' for an entry without one). */
function entrySources(value: Json | undefined): Map<string, Set<string>> {
  const sources = new Map<string, Set<string>>();
  const entries = Array.isArray(value?.['properties']) ? (value['properties'] as Json[]) : [];
  for (const entry of entries) {
    const urn = entry['propertyUrn'];
    if (typeof urn !== 'string') continue;
    const source = (entry['attribution'] as Json | null | undefined)?.['source'];
    const set = sources.get(urn) ?? new Set<string>();
    set.add(typeof source === 'string' ? source : '');
    sources.set(urn, set);
  }
  return sources;
}

async function removeValues(deps: Deps, ctx: RequestContext, input: RemoveInput) {
  const properties = input.structuredPropertyUrns.map((urn) =>
    requirePropertyRef(urn, 'structuredPropertyUrns'),
  );
  const { ref } = await requireAsset(deps, input.assetUrn, false);
  if (properties.length > 0)
    await writeDecided(deps.proposals, ctx, [
      patch(
        ref,
        ASSIGNMENT_ASPECT,
        properties.map((p) => ({ op: 'remove', path: `/properties/${pointer(p.urn)}` })),
        ASSIGNMENT_KEYS,
      ),
    ]);
  return ref;
}

/** The structured-property use cases; see the file's header for what each decides. */
export class StructuredPropertyAdmin {
  private readonly deps: Deps;

  constructor(
    stored: StoredEntities,
    private readonly policy: AccessPolicy,
    proposals: Proposals,
  ) {
    this.deps = { stored, proposals };
  }

  /** Defines a new property (settings written once the definition is stored); returns it. */
  async create(ctx: RequestContext, input: CreateInput): Promise<NamedEntity> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.manageStructuredProperties);
    return createProperty(this.deps, ctx, input);
  }

  /** Widens a property's definition and changes its settings; returns it. */
  async update(ctx: RequestContext, input: UpdateInput): Promise<NamedEntity> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.manageStructuredProperties);
    return updateProperty(this.deps, ctx, input);
  }

  /** Hard-deletes a soft-deleted property (spec 3.2). */
  async delete(ctx: RequestContext, urn: string): Promise<void> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.manageStructuredProperties);
    await deleteProperty(this.deps, ctx, urn);
  }

  /** Sets the values of the listed properties on an asset, keeping the others; returns the asset. */
  async upsertValues(ctx: RequestContext, input: UpsertInput): Promise<NamedEntity> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.properties, [{ urn: input.assetUrn, column: false }]);
    return upsertValues(this.deps, ctx, input);
  }

  /** Removes the listed properties' values from an asset; returns the asset. */
  async removeValues(ctx: RequestContext, input: RemoveInput): Promise<NamedEntity> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.properties, [{ urn: input.assetUrn, column: false }]);
    return removeValues(this.deps, ctx, input);
  }
}
