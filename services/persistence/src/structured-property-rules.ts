import {
  checkPropertyDefinition,
  checkStructuredPropertyValues,
  DEFINITION_MESSAGES,
  definitionOf,
  propertyUrnsOf,
  propertyUrnsOfPatch,
  searchFieldNameOf,
  VALUE_MESSAGES,
  type CheckedProposal,
  type CollidingProperty,
  type PropertyState,
  type StructuredPropertySettings,
} from '@catalog/model';
import type { ApplyResult, AspectStore, AspectWrite } from '@catalog/store';

const PROPERTY_URN_PREFIX = 'urn:li:structuredProperty:';
const DEFINITION = 'propertyDefinition';
const STATUS = 'status';
const VALUES = 'structuredProperties';
const SCAN_PAGE = 1000;

type WriteFunction = NonNullable<AspectWrite['patch']>;

/**
 * Who else holds a qualified name besides the stored definitions: the search side's definitions view,
 * which keeps hard-deleted properties (`retired`) while their index mappings remain, and may still
 * hold a property whose hard delete it has not consumed yet. The SearchIndex port satisfies it.
 */
export interface PropertyNameHolders {
  structuredPropertyNameHolders(normalizedNames: readonly string[]): Promise<
    readonly {
      readonly urn: string;
      readonly qualifiedName: string;
      readonly normalizedName: string;
      readonly state: 'active' | 'removed' | 'retired';
    }[]
  >;
}

/** Where dropped orphan assignments are reported (pino's warn). */
export interface RulesLogger {
  warn(details: object, message: string): void;
}

interface StoredState {
  definition?: Readonly<Record<string, unknown>>;
  removed: boolean;
}

/**
 * The structured-property write rules of one batch of proposals, enforced on every route's writes:
 * definitions (`propertyDefinition` of a structuredProperty) and values (`structuredProperties` of any
 * entity) are judged by the pure rules of @catalog/model inside the store's atomic write, against the
 * value they replace (also a PATCH's result), so nothing is stored when they fail (status INVALID,
 * outcome VALIDATION).
 *
 * What the rules need beyond that value is read once per batch (load): the definitions and status of
 * every property the batch names (getLatestMany), the stored values the batch's value writes replace
 * (for the properties they name), and, when the batch creates a property, every stored definition's
 * qualified name (for the search-field collision). A definition or status written earlier in the
 * batch is seen by the writes after it: the batch is cut after such writes (readsAfterWrite), and
 * observe() takes what they stored.
 */
export class StructuredPropertyRules {
  private readonly states = new Map<string, StoredState>();
  /** Normalized qualified name → the properties that have it. */
  private readonly names = new Map<string, CollidingProperty[]>();
  private readonly valueTargets = new Set<string>();
  private readonly namedProperties = new Set<string>();
  private readonly definitionTargets = new Set<string>();
  private readonly previousValues = new Map<string, Readonly<Record<string, unknown>>>();
  /** Qualified names the batch's definition writes may create, for the name-holder lookup. */
  private readonly candidateNames = new Set<string>();
  /** Normalized name → a hard-deleted property whose mappings remain (from the name holders). */
  private readonly retiredNames = new Map<string, CollidingProperty>();
  /** The properties whose definition the store holds (read with the names, before the batch). */
  private readonly storedDefinitions = new Set<string>();
  private readonly lookup = (urn: string): PropertyState | undefined => {
    const state = this.states.get(urn);
    if (state === undefined) return undefined;
    return {
      removed: state.removed,
      ...(state.definition === undefined ? {} : { definition: definitionOf(state.definition) }),
    };
  };

  constructor(
    private readonly settings: StructuredPropertySettings,
    private readonly logger: RulesLogger,
    private readonly holders?: PropertyNameHolders,
  ) {}

  /**
   * The write a proposal makes, with the rules bound to it when it writes a definition or values:
   * its value (or patch result, or conditional check) is computed by `base` inside the atomic write,
   * then judged. Also notes what load() must read for it.
   */
  bind(proposal: CheckedProposal, write: AspectWrite): AspectWrite {
    if (proposal.aspect.kind !== 'versioned') return write;
    const isValues = proposal.aspect.name === VALUES;
    const isDefinition = proposal.aspect.name === DEFINITION && isPropertyUrn(write.urn);
    // A hard delete (of the entity or its definition) is judged against the property's status.
    if (
      isPropertyUrn(write.urn) &&
      (write.mode === 'DELETE_ENTITY' || (isDefinition && write.mode === 'DELETE'))
    )
      this.namedProperties.add(write.urn);
    if (!isValues && !isDefinition) return write;
    if (write.mode === 'DELETE' || write.mode === 'DELETE_ENTITY') {
      if (isValues && write.mode === 'DELETE') this.valueTargets.add(write.urn);
      return write;
    }
    const base = baseValue(write);
    if (isDefinition) {
      this.definitionTargets.add(write.urn);
      this.namedProperties.add(write.urn);
      for (const name of qualifiedNamesOf(proposal)) this.candidateNames.add(searchFieldNameOf(name));
      return { ...write, patch: this.definitionRule(write.urn, base) };
    }
    this.valueTargets.add(write.urn);
    const named =
      proposal.patch === undefined ? propertyUrnsOf(proposal.value) : propertyUrnsOfPatch(proposal.patch);
    for (const urn of named) if (isPropertyUrn(urn)) this.namedProperties.add(urn);
    return { ...write, patch: this.valuesRule(proposal, base) };
  }

  /** Reads what the bound writes need; does nothing for a batch without any. */
  async load(store: AspectStore): Promise<void> {
    if (this.valueTargets.size > 0) {
      const stored = await store.getLatestMany([...this.valueTargets], [VALUES]);
      for (const [urn, aspects] of stored) {
        const value = aspects.find((a) => a.aspect === VALUES)?.value;
        if (value === undefined) continue;
        this.previousValues.set(urn, value);
        for (const propertyUrn of propertyUrnsOf(value))
          if (isPropertyUrn(propertyUrn)) this.namedProperties.add(propertyUrn);
      }
    }
    if (this.namedProperties.size === 0) return;
    const properties = await store.getLatestMany([...this.namedProperties], [DEFINITION, STATUS]);
    for (const [urn, aspects] of properties) {
      const definition = aspects.find((a) => a.aspect === DEFINITION)?.value;
      const status = aspects.find((a) => a.aspect === STATUS)?.value;
      this.states.set(urn, {
        ...(definition === undefined ? {} : { definition }),
        removed: status?.['removed'] === true,
      });
    }
    // Any definition write may create a property (also one this batch deletes first): the qualified
    // names of the others are read for the collision check. Definitions are few and rarely written.
    if (this.definitionTargets.size > 0) {
      await this.loadNames(store);
      await this.loadHolders();
    }
  }

  /** True when the write is judged against definitions (so must see those written before it). */
  reads(write: AspectWrite): boolean {
    if (write.mode !== 'UPSERT' && write.mode !== 'CREATE') return false;
    return write.aspect === VALUES || (write.aspect === DEFINITION && isPropertyUrn(write.urn));
  }

  /** True when the write changes what the rules know of a property (its definition, status or entity). */
  writes(write: AspectWrite): boolean {
    if (!isPropertyUrn(write.urn)) return false;
    return write.mode === 'DELETE_ENTITY' || write.aspect === DEFINITION || write.aspect === STATUS;
  }

  /** Takes what a write of a definition or status stored, for the writes after it in the batch. */
  observe(write: AspectWrite, result: ApplyResult): void {
    if (!this.writes(write)) return;
    const urn = write.urn;
    const state: StoredState = { ...(this.states.get(urn) ?? { removed: false }) };
    if (write.mode === 'DELETE_ENTITY') {
      if (result.status !== 'DELETED') return;
      this.forgetName(urn);
      this.states.set(urn, { removed: false });
      return;
    }
    const stored =
      result.status === 'CREATED' || result.status === 'UPDATED' || result.status === 'UNCHANGED';
    if (write.aspect === DEFINITION) {
      if (stored && result.current !== undefined) {
        state.definition = result.current.value;
        this.forgetName(urn);
        this.rememberName(urn, result.current.value);
      } else if (result.status === 'DELETED') {
        delete state.definition;
        this.forgetName(urn);
      } else return;
    } else if (write.aspect === STATUS) {
      if (stored && result.current !== undefined) state.removed = result.current.value['removed'] === true;
      else if (result.status === 'DELETED') state.removed = false;
      else return;
    }
    this.states.set(urn, state);
  }

  /**
   * Why a delete is refused; undefined when it may go ahead:
   * - a hard delete (of the entity, or of its definition) of an active structured property (spec 3.2:
   *   soft delete first), unless the catalog makes it itself (`systemOperation`: rollback, internal
   *   operations);
   * - a DELETE of a `structuredProperties` aspect that would remove values of immutable properties
   *   (judged against the value read at load).
   */
  deleteRefusal(write: AspectWrite, systemOperation = false): readonly string[] | undefined {
    if (write.mode !== 'DELETE' && write.mode !== 'DELETE_ENTITY') return undefined;
    if (isPropertyUrn(write.urn) && (write.mode === 'DELETE_ENTITY' || write.aspect === DEFINITION)) {
      const state = this.states.get(write.urn);
      const active = state?.definition !== undefined && !state.removed;
      return active && !systemOperation ? [DEFINITION_MESSAGES.hardDeleteActive(write.urn)] : undefined;
    }
    if (write.mode !== 'DELETE' || write.aspect !== VALUES) return undefined;
    const previous = this.previousValues.get(write.urn);
    const frozen = propertyUrnsOf(previous).filter((urn) => this.lookup(urn)?.definition?.immutable === true);
    return frozen.length === 0 ? undefined : frozen.map((urn) => VALUE_MESSAGES.immutableDeleted(urn));
  }

  private definitionRule(urn: string, base: WriteFunction): WriteFunction {
    return (current, stored) => {
      const next = base(current, stored);
      checkPropertyDefinition({
        urn,
        next,
        previous: current,
        removed: this.states.get(urn)?.removed === true,
        collidingWith: (normalized) =>
          this.retiredNames.get(normalized) ?? this.names.get(normalized)?.find((p) => p.urn !== urn),
      });
      return next;
    };
  }

  private valuesRule(proposal: CheckedProposal, base: WriteFunction): WriteFunction {
    const entityUrn = proposal.urn.raw;
    return (current, stored) => {
      const { value, dropped } = checkStructuredPropertyValues({
        entityUrn,
        entityType: proposal.entity.name,
        next: base(current, stored),
        previous: current,
        lookup: this.lookup,
        settings: this.settings,
        // A patch's result keeps what the patch did not touch: only its own changes are judged.
        changedOnly: proposal.changeType === 'PATCH',
      });
      for (const propertyUrn of dropped)
        this.logger.warn(
          { entityUrn, propertyUrn },
          `Dropping structured property assignment for non-existent definition ${propertyUrn} on ${entityUrn}`,
        );
      return value;
    };
  }

  /** Every stored definition's qualified name, for the collision check of a property's creation. */
  private async loadNames(store: AspectStore): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const page = await store.scan({ aspect: DEFINITION, limit: SCAN_PAGE, ...(after ? { after } : {}) });
      for (const item of page.items) {
        if (!isPropertyUrn(item.urn)) continue;
        this.storedDefinitions.add(item.urn);
        this.rememberName(item.urn, item.value);
      }
      if (page.next === undefined || page.items.length === 0) break;
      after = page.next;
    }
  }

  /**
   * What the search side's definitions view holds under the names the batch may create: hard-deleted
   * properties whose mappings remain (they block the name, spec 3.2, even for their own urn). A
   * property the view still holds as active or soft-deleted while the store no longer has its
   * definition is one too: hard-deleted, its delete not yet consumed by the indexer (the distributed
   * family's view lags the store), so its mappings certainly remain.
   */
  private async loadHolders(): Promise<void> {
    if (this.holders === undefined || this.candidateNames.size === 0) return;
    const holders = await this.holders.structuredPropertyNameHolders([...this.candidateNames]);
    for (const holder of holders) {
      const other = { urn: holder.urn, qualifiedName: holder.qualifiedName };
      if (holder.state === 'retired' || !this.storedDefinitions.has(holder.urn))
        this.retiredNames.set(holder.normalizedName, { ...other, retired: true });
    }
  }

  private rememberName(urn: string, definition: Readonly<Record<string, unknown>>): void {
    const qualifiedName = definition['qualifiedName'];
    if (typeof qualifiedName !== 'string') return;
    const key = searchFieldNameOf(qualifiedName);
    const owners = this.names.get(key) ?? [];
    if (!owners.some((p) => p.urn === urn)) this.names.set(key, [...owners, { urn, qualifiedName }]);
  }

  private forgetName(urn: string): void {
    for (const [key, owners] of this.names) {
      const rest = owners.filter((p) => p.urn !== urn);
      if (rest.length === 0) this.names.delete(key);
      else if (rest.length !== owners.length) this.names.set(key, rest);
    }
  }
}

/** The value a write stores before the rules judge it: its patch's result, or its own value. */
function baseValue(write: AspectWrite): WriteFunction {
  if (write.patch !== undefined) return write.patch;
  const value = write.value ?? {};
  return () => value;
}

/**
 * The qualified names a definition proposal may store: its value's (UPSERT, CREATE), or what a patch
 * sets at `/qualifiedName` (a create by patch). Other patches keep the stored name, which is immutable.
 */
function qualifiedNamesOf(proposal: CheckedProposal): string[] {
  if (proposal.patch === undefined) {
    const name = (proposal.value as Readonly<Record<string, unknown>> | undefined)?.['qualifiedName'];
    return typeof name === 'string' ? [name] : [];
  }
  return proposal.patch.operations.flatMap((op) => {
    if (!('value' in op)) return [];
    const value: unknown = op.value;
    if (op.path === '/qualifiedName') return typeof value === 'string' ? [value] : [];
    if (op.path !== '' || typeof value !== 'object' || value === null) return [];
    const name = (value as Record<string, unknown>)['qualifiedName'];
    return typeof name === 'string' ? [name] : [];
  });
}

function isPropertyUrn(urn: string): boolean {
  return urn.startsWith(PROPERTY_URN_PREFIX);
}
