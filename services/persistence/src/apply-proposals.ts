import type { CheckedProposal, EntitySpec } from '@catalog/model';
import {
  applyAspectPatch,
  DEFAULT_STRUCTURED_PROPERTY_SETTINGS,
  defaultAspectsFor,
  entityRegistry,
  isDomainError,
  PreconditionError,
  StructuredPropertyRuleError,
  ValidationError,
  type DomainError,
  type ErrorCode,
  type StructuredPropertySettings,
  withOwnerTypes,
} from '@catalog/model';
import type { EventDecoder, LogRecord, MetadataChangeLog, MetadataChangeProposal } from '@catalog/events';
import type {
  ApplyResult,
  AspectStore,
  AspectWrite,
  AspectWriteMode,
  StoredAspect,
  SystemMetadata,
} from '@catalog/store';
import type { ProposalOutcome } from '@catalog/runtime';
import {
  changeLogForStored,
  changeLogForTimeseries,
  changeLogForTimeseriesDelete,
  systemMetadataFor,
  undecodableProposal,
} from '@catalog/runtime';
import { DOMAINS_ASPECT, syncDomains } from './domains-sync.js';
import { decodeProposalRecord, type DecodedProposal } from './proposal-record.js';
import type { RetentionResolver } from './retention-policies.js';
import { storedVersionProperties, versionSetWrites } from './version-set-effects.js';
import {
  StructuredPropertyRules,
  type PropertyNameHolders,
  type RulesLogger,
} from './structured-property-rules.js';

/**
 * With value `*` on a CREATE (CREATE_ENTITY): drop the write silently when the aspect (the entity's key
 * aspect) exists, a conditional write.
 */
const IF_NONE_MATCH = 'If-None-Match';
/**
 * With a version: write only when the aspect is at that version: its stored systemMetadata `version`
 * (the number of values it has had; the count of versions for data stored without one), "-1" when absent.
 */
const IF_VERSION_MATCH = 'If-Version-Match';
/** ISO-8601 instants: write only when the aspect was modified after (or, unmodified, not after) them. */
const IF_MODIFIED_SINCE = 'If-Modified-Since';
const IF_UNMODIFIED_SINCE = 'If-Unmodified-Since';

export interface FailedProposal {
  readonly key: string;
  readonly mcp: MetadataChangeProposal;
  readonly error: string;
}

/** Everything one batch of proposals produces, to be made durable before the batch is committed. */
/** A change log and the proposal it came from, so its log position can be reported with the outcome. */
export interface OwnedChangeLog {
  readonly requestId: string;
  readonly mcl: MetadataChangeLog;
  /** The user agent of the request that sent the proposal, when it named one. */
  readonly userAgent?: string;
  /** The id of the HTTP request that sent the proposal (PROPOSAL_HEADERS.httpRequestId), when known. */
  readonly httpRequestId?: string;
}

export interface ProposalEffects {
  readonly versioned: OwnedChangeLog[];
  readonly timeseries: OwnedChangeLog[];
  readonly failed: FailedProposal[];
  readonly outcomes: ProposalOutcome[];
}

type Checked = Extract<DecodedProposal, { kind: 'checked' }>;

/** What applying proposals takes besides the records and the store. */
export interface ApplyOptions {
  /** The structured-property settings (persistence config); the ecosystem's defaults when absent. */
  readonly structuredProperties?: StructuredPropertySettings;
  /** Where rule warnings go (dropped orphan assignments); nowhere when absent. */
  readonly logger?: RulesLogger;
  /**
   * The search side's holders of qualified names (hard-deleted properties whose index mappings
   * remain block their names); without it only the stored definitions are checked.
   */
  readonly propertyNames?: PropertyNameHolders;
  /**
   * The retention of each aspect's history (the ecosystem's dataHubRetention policies), given to every
   * write that may make a new version; without it every version is kept.
   */
  readonly retention?: RetentionResolver;
}

const SILENT: RulesLogger = { warn: () => undefined };

/** The ecosystem's messages (CreateIfNotExistsValidator) for a create of what exists. */
export const CREATE_CONFLICT_MESSAGE = 'Cannot perform CREATE since the aspect already exists.';
export const CREATE_ENTITY_CONFLICT_MESSAGE =
  'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.';

/** One store write a proposal makes, in batch order. */
interface Step {
  readonly owner: Checked;
  readonly write: AspectWrite;
  /**
   * Set on the entity check of a CREATE_ENTITY of a non-key aspect (`write` is then a CREATE of the key
   * aspect): the proposal's own write, made in the next round once that CREATE has stored the key.
   */
  readonly then?: AspectWrite;
  /**
   * Set on the key-aspect CREATE a time-series write makes (see materialization): its CONFLICT (the
   * entity exists) is no failure and it reports no outcome; the proposal's outcome is the time-series one.
   */
  readonly materializes?: true;
}

interface AppliedStep {
  readonly step: Step;
  readonly result: ApplyResult;
}

/**
 * Applies a batch of proposal records, in order, to the store. Versioned aspects go to the store in one
 * applyBatch (one more after each CREATE_ENTITY of a non-key aspect, see applySteps), then the default
 * aspects of the entities the batch created in another; time-series aspects skip the store. Writes of
 * structured-property definitions and values are judged by the structured-property rules inside the
 * store's atomic write (see StructuredPropertyRules), whatever route they came by. Rejections become
 * failed proposals with their reason.
 * A redelivered record returns its recorded store result, so the same change logs are emitted again and
 * no second version is made.
 */
export async function applyProposals(
  records: readonly LogRecord[],
  store: AspectStore,
  decoder?: EventDecoder,
  options: ApplyOptions = {},
): Promise<ProposalEffects> {
  const effects: ProposalEffects = { versioned: [], timeseries: [], failed: [], outcomes: [] };
  const rules = new StructuredPropertyRules(
    options.structuredProperties ?? DEFAULT_STRUCTURED_PROPERTY_SETTINGS,
    options.logger ?? SILENT,
    options.propertyNames,
  );
  const decoded = await Promise.all(records.map((r) => decodeProposalRecord(r, decoder)));

  const steps: Step[] = [];
  const materialized = new Set<string>();
  for (const [i, item] of decoded.entries()) {
    if (item.kind === 'undecodable') {
      const record = records[i]!;
      const error = `Undecodable proposal at ${record.topic}/${record.partition}/${record.offset}: ${item.reason}`;
      effects.failed.push({ key: record.key || 'unknown', mcp: undecodableProposal(record.value), error });
      effects.outcomes.push({ requestId: item.requestId, ok: false, code: 'VALIDATION', message: error });
      continue;
    }
    if (item.kind === 'rejected') {
      effects.failed.push({ key: item.mcp.entityUrn ?? 'unknown', mcp: item.mcp, error: item.error.message });
      effects.outcomes.push({
        requestId: item.requestId,
        ok: false,
        code: item.error.code,
        message: item.error.message,
      });
      continue;
    }
    const { proposal } = item;
    const created = { time: item.time, actor: item.actor };
    if (proposal.aspect.kind === 'timeseries') {
      // A DELETE is a change log with the range to delete, for the indexer: idempotent, so 'DELETED'
      // whether or not there were values in that range (the store holds none to look at).
      const deletes = proposal.changeType === 'DELETE';
      const toChangeLog = deletes ? changeLogForTimeseriesDelete : changeLogForTimeseries;
      const systemMetadata = systemMetadataFor(proposal, item.time);
      effects.timeseries.push(own(item, toChangeLog(proposal, systemMetadata, created)));
      effects.outcomes.push(success(item, deletes ? 'DELETED' : 'TIMESERIES'));
      if (!deletes && !materialized.has(proposal.urn.raw)) {
        materialized.add(proposal.urn.raw);
        steps.push(materialization(item, systemMetadata));
      }
      continue;
    }
    let write: AspectWrite;
    try {
      write = rules.bind(proposal, toWrite(item));
    } catch (error) {
      // A proposal this write cannot be made of (a malformed condition header) is refused, not retried.
      if (!isDomainError(error)) throw error;
      refuse(item, error, effects);
      continue;
    }
    steps.push(entityCheck(item, write) ?? { owner: item, write });
  }

  if (steps.length > 0) {
    await rules.load(store);
    const allowed = steps.filter((step) => {
      const refusal = rules.deleteRefusal(step.write, step.owner.systemOperation);
      if (refusal === undefined) return true;
      refuse(step.owner, new StructuredPropertyRuleError(refusal), effects);
      return false;
    });
    const retention = options.retention;
    const prepared = withEntityDefaults(allowed);
    const applied = await applySteps(
      retention === undefined ? prepared : withRetention(prepared, retention),
      store,
      effects,
      rules,
    );
    recordDefaultsCreated(applied, effects);
    await applyVersionSetEffects(applied, store, effects, options.retention);
  }
  return effects;
}

/**
 * The versioning side effects of the `versionProperties` the batch stored (see versionSetWrites), one
 * stored version at a time in batch order, each owned by the proposal that caused it: their change
 * logs go out with its own, its outcome stays the one of its write.
 */
async function applyVersionSetEffects(
  applied: readonly AppliedStep[],
  store: AspectStore,
  effects: ProposalEffects,
  retention: RetentionResolver | undefined,
): Promise<void> {
  for (const { step, result } of applied) {
    const stored = storedVersionProperties(step.write, result);
    if (stored === undefined) continue;
    const owner = step.owner;
    const writes = await versionSetWrites(store, owner.proposal.entity.name, stored, step.write.requestId, {
      time: owner.time,
      actor: owner.actor,
    });
    if (writes.length === 0) continue;
    const results = await store.applyBatch(
      writes.map((w) => (retention === undefined ? w.write : retained(w.write, w.entityType, retention))),
    );
    results.forEach((r, i) => {
      if (r.current === undefined || (r.status !== 'CREATED' && r.status !== 'UPDATED')) return;
      effects.versioned.push(
        own(
          owner,
          changeLogForStored({
            entityType: writes[i]!.entityType,
            changeType: 'UPSERT',
            current: r.current,
            created: r.current.created,
          }),
        ),
      );
    });
  }
}

/** A proposal refused before it reached the store: a failed proposal and its outcome. */
function refuse(item: Checked, error: DomainError, effects: ProposalEffects): void {
  const { proposal } = item;
  effects.failed.push({ key: proposal.urn.raw, mcp: item.mcp, error: error.message });
  effects.outcomes.push({
    requestId: item.requestId,
    ok: false,
    code: error.code,
    message: error.message,
    urn: proposal.urn.raw,
    aspectName: proposal.aspect.name,
  });
}

/**
 * A CREATE_ENTITY of a non-key aspect writes the aspect only when the entity does not exist yet, which
 * is one store write of two aspects that no adapter makes atomically. So it is made in two: first a
 * CREATE of the key aspect (request id `<id>#entity`): its CONFLICT is the CREATE_ENTITY's failure (or,
 * with If-None-Match: *, its silent drop); once it has stored the key, the aspect itself is written as
 * an UPSERT under the proposal's request id. Both are idempotent by request id, so a redelivered batch
 * (also one whose first delivery stopped between the two) replays the key's CREATED and goes on to the
 * aspect, written once. A CREATE_ENTITY of the key aspect is a plain CREATE of it.
 */
function entityCheck(item: Checked, write: AspectWrite): Step | undefined {
  const { proposal } = item;
  const key = write.keyAspect;
  if (proposal.changeType !== 'CREATE_ENTITY' || proposal.aspect.isKey || key === undefined) return undefined;
  return {
    owner: item,
    write: {
      requestId: `${item.requestId}#entity`,
      mode: 'CREATE',
      urn: write.urn,
      aspect: key.name,
      value: key.value,
      systemMetadata: withSchemaVersion(
        write.systemMetadata,
        schemaVersionOf(proposal.entity, key.name),
        true,
      ),
      created: write.created,
      keyAspect: key,
    },
    then: write,
  };
}

/**
 * The entity a time-series write is about exists afterwards, as in the ecosystem (which upserts the key
 * aspect of every time-series write): a CREATE of its key aspect (request id `<id>#key`, idempotent), which
 * also stores the entity's default aspects (withEntityDefaults). An entity that exists already keeps its
 * key as it is (the CREATE's CONFLICT is dropped). One per entity and batch.
 */
function materialization(item: Checked, systemMetadata: AspectWrite['systemMetadata']): Step {
  const { proposal } = item;
  const key = entityRegistry.keyAspectFromUrn(proposal.urn);
  return {
    owner: item,
    write: {
      requestId: `${item.requestId}#key`,
      mode: 'CREATE',
      urn: proposal.urn.raw,
      aspect: key.name,
      value: key.value,
      systemMetadata: withSchemaVersion(systemMetadata, schemaVersionOf(proposal.entity, key.name), true),
      created: { time: item.time, actor: item.actor },
      keyAspect: {
        name: key.name,
        value: key.value,
        schemaVersion: schemaVersionOf(proposal.entity, key.name),
      },
    },
    materializes: true,
  };
}

/**
 * Applies the steps in order, in as few store batches as the entity checks allow: a batch ends at each
 * entity check, and the aspect write that follows a successful one opens the next batch, ahead of the
 * proposals after it, so a later proposal of the same aspect still applies after it (batch order is
 * proposal order). A batch also ends before a write the structured-property rules judge when it holds
 * a write of what they judge by (a property's definition or status): the store applies a batch's writes
 * to different entities independently, so the later write would not see it otherwise. Records each
 * proposal's result as it comes; returns every write made, in order.
 */
async function applySteps(
  steps: readonly Step[],
  store: AspectStore,
  effects: ProposalEffects,
  rules: StructuredPropertyRules,
): Promise<AppliedStep[]> {
  const applied: AppliedStep[] = [];
  // Entities a CREATE_ENTITY of this batch created: its other CREATE_ENTITY writes of them create them
  // too (the ecosystem validates them against the store as it was before the batch).
  const createdHere = new Set<string>();
  let next: Step[] = [];
  const flush = async (): Promise<void> => {
    const batch = next;
    next = [];
    if (batch.length === 0) return;
    const results = await store.applyBatch(batch.map((s) => s.write));
    results.forEach((result, i) => {
      const step = batch[i]!;
      applied.push({ step, result });
      rules.observe(step.write, result);
      if (step.materializes === true) {
        if (result.status === 'CREATED') recordEntityCreated(step.owner, result, effects);
      } else if (step.then !== undefined && result.status === 'CREATED') {
        createdHere.add(step.write.urn);
        recordEntityCreated(step.owner, result, effects);
        next.push({ owner: step.owner, write: step.then });
      } else if (step.then !== undefined && result.status === 'CONFLICT' && createdHere.has(step.write.urn)) {
        next.push({ owner: step.owner, write: step.then });
      } else {
        // A CONFLICT of an entity check is the CREATE_ENTITY's failure (or silent drop).
        recordResult(step.owner, result, effects);
      }
    });
  };
  for (const step of steps) {
    if (rules.reads(step.write) && next.some((s) => rules.writes(s.write))) await flush();
    next.push(step);
    if (step.then !== undefined) await flush();
  }
  // The aspect writes of the last entity checks, with the proposals after them; they end no batch.
  await flush();
  return applied;
}

/** The change log of the key aspect an entity check of a CREATE_ENTITY stored. */
function recordEntityCreated(item: Checked, result: ApplyResult, effects: ProposalEffects): void {
  if (result.current === undefined) return;
  effects.versioned.push(
    own(
      item,
      changeLogForStored({
        entityType: item.proposal.entity.name,
        changeType: 'UPSERT',
        current: result.current,
        created: result.current.created,
      }),
    ),
  );
}

/**
 * The aspects the ecosystem writes with a new entity (browsePathsV2, dataPlatformInstance), given to
 * every write that may create one (AspectWrite.entityDefaults): the store stores them with the write
 * that creates the entity, in the same atomic step and the same commands. One that exists already
 * (written before, or by the store's first writer of the entity) is left alone, as the ecosystem drops
 * a default write whose aspect exists; one this batch writes itself is not a default.
 */
function withEntityDefaults(steps: readonly Step[]): Step[] {
  const written = new Set<string>();
  for (const { write, then } of steps)
    for (const w of then === undefined ? [write] : [write, then]) written.add(`${w.urn}\u0000${w.aspect}`);
  const defaultsOf = (owner: Checked, write: AspectWrite): AspectWrite => {
    const key = write.keyAspect;
    if (key === undefined || (write.mode !== 'UPSERT' && write.mode !== 'CREATE')) return write;
    const entityDefaults = defaultAspectsFor(owner.proposal.entity, key.value)
      .filter((aspect) => !written.has(`${write.urn}\u0000${aspect.name}`))
      .map((aspect) => ({
        name: aspect.name,
        value: aspect.value,
        schemaVersion: schemaVersionOf(owner.proposal.entity, aspect.name),
      }));
    return entityDefaults.length === 0 ? write : { ...write, entityDefaults };
  };
  return steps.map((step) => ({
    ...step,
    write: defaultsOf(step.owner, step.write),
    ...(step.then === undefined ? {} : { then: defaultsOf(step.owner, step.then) }),
  }));
}

/**
 * Each write that may make a new version with its aspect's retention, resolved for its entity type
 * (the store removes what it rules out in the same atomic write, see AspectWrite.retention).
 */
function withRetention(steps: readonly Step[], resolve: RetentionResolver): Step[] {
  return steps.map((step) => {
    const type = step.owner.proposal.entity.name;
    return {
      ...step,
      write: retained(step.write, type, resolve),
      ...(step.then === undefined ? {} : { then: retained(step.then, type, resolve) }),
    };
  });
}

function retained(write: AspectWrite, entityType: string, resolve: RetentionResolver): AspectWrite {
  if (write.mode !== 'UPSERT' && write.mode !== 'CREATE') return write;
  const retention = resolve(entityType, write.aspect);
  return retention === undefined ? write : { ...write, retention };
}

/** The change logs of the entity defaults each write stored (also of a replayed write, as redelivered). */
function recordDefaultsCreated(applied: readonly AppliedStep[], effects: ProposalEffects): void {
  for (const { step, result } of applied) {
    for (const current of result.defaultsCreated ?? []) {
      effects.versioned.push(
        own(
          step.owner,
          changeLogForStored({
            entityType: step.owner.proposal.entity.name,
            changeType: 'UPSERT',
            current,
            created: current.created,
          }),
        ),
      );
    }
  }
}

function toWrite(item: Checked): AspectWrite {
  const { proposal } = item;
  const created = { time: item.time, actor: item.actor };
  const mode = writeMode(proposal);
  if (mode === 'DELETE' || mode === 'DELETE_ENTITY') {
    return { requestId: item.requestId, mode, urn: proposal.urn.raw, aspect: proposal.aspect.name, created };
  }
  const key = entityRegistry.keyAspectFromUrn(proposal.urn);
  // The server-managed parts of the value (materialized) are filled in on whatever the write stores.
  const patch: AspectWrite['patch'] = writeFunction(proposal, item.time);
  return {
    requestId: item.requestId,
    mode,
    urn: proposal.urn.raw,
    aspect: proposal.aspect.name,
    ...(patch === undefined
      ? { value: materialized(proposal.aspect.name, proposal.value ?? {}) }
      : { patch }),
    systemMetadata: withSchemaVersion(
      systemMetadataFor(proposal, item.time),
      proposal.aspect.schemaVersion,
      false,
    ),
    created,
    keyAspect: {
      name: key.name,
      value: key.value,
      schemaVersion: schemaVersionOf(proposal.entity, key.name),
    },
  };
}

/**
 * The system metadata with `schemaVersion`: the ecosystem stamps each write with its aspect's schema
 * version, keeping one the writer sent (`replace` false); a key aspect a write stores in its own step
 * takes the key's (`replace` true).
 */
function withSchemaVersion(
  systemMetadata: SystemMetadata | null | undefined,
  schemaVersion: number,
  replace: boolean,
): SystemMetadata {
  const current = systemMetadata ?? {};
  if (!replace && typeof current.schemaVersion === 'number') return current;
  return { ...current, schemaVersion };
}

/** The schema version of one of an entity's aspects (1, the ecosystem's default, when unknown). */
function schemaVersionOf(entity: EntitySpec, aspect: string): number {
  return entity.aspects.get(aspect)?.schemaVersion ?? 1;
}

/**
 * How a write computes its value inside the store's atomic step, when it must: a PATCH applies to the
 * latest value; an `If-Version-Match: N` header (the ecosystem's conditional write) compares N with the
 * aspect's current version (its stored systemMetadata `version`, else the count of its versions; "-1"
 * when absent) and refuses the write on a mismatch.
 */
function writeFunction(proposal: CheckedProposal, now: number): AspectWrite['patch'] {
  const expected = headerOf(proposal, IF_VERSION_MATCH);
  const modifiedSince = timeHeader(proposal, IF_MODIFIED_SINCE);
  const unmodifiedSince = timeHeader(proposal, IF_UNMODIFIED_SINCE);
  const patch = proposal.patch;
  const conditional = expected !== undefined || modifiedSince !== undefined || unmodifiedSince !== undefined;
  // The domains aspect's two lists are reconciled against the value it replaces (see syncDomains).
  const synced = proposal.aspect.name === DOMAINS_ASPECT;
  if (patch === undefined && !conditional && !synced) return undefined;
  const value = proposal.value ?? {};
  const written = (current: Readonly<Record<string, unknown>> | undefined) => {
    const next = materialized(
      proposal.aspect.name,
      patch === undefined ? value : applyAspectPatch(proposal.aspect, current, patch, now),
    );
    return synced ? syncDomains(next, current, proposal.urn.raw) : next;
  };
  return (current, stored) => {
    if (expected !== undefined) {
      const actual = current === undefined ? '-1' : (stored.version ?? String(Math.max(1, stored.versions)));
      if (expected.trim() !== actual)
        throw new PreconditionError(`Expected version ${expected}, actual version ${actual}`);
    }
    // An absent aspect counts as modified at the earliest time.
    const modifiedAt = stored.modifiedAt ?? 0;
    if (modifiedSince !== undefined && modifiedAt <= modifiedSince)
      throw new PreconditionError(`Item last modified ${modifiedAt} <= ${modifiedSince} (epoch ms)`);
    if (unmodifiedSince !== undefined && modifiedAt > unmodifiedSince)
      throw new PreconditionError(`Item last modified ${modifiedAt} > ${unmodifiedSince} (epoch ms)`);
    return written(current);
  };
}

/** What the ecosystem's write hooks fill in an aspect's value: an ownership's `ownerTypes`. */
function materialized(
  aspect: string,
  value: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return aspect === 'ownership' ? withOwnerTypes(value) : value;
}

/** An ISO-8601 instant in a condition header, as epoch ms; a header that is not one is refused (400). */
function timeHeader(proposal: CheckedProposal, name: string): number | undefined {
  const raw = headerOf(proposal, name);
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (!Number.isFinite(ms))
    throw new ValidationError(`Header ${name} must be an ISO-8601 instant, got ${JSON.stringify(raw)}`);
  return ms;
}

/** A proposal header by name, matched case-insensitively as the ecosystem matches them. */
function headerOf(proposal: CheckedProposal, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(proposal.headers ?? {}).find(([k]) => k.toLowerCase() === wanted)?.[1];
}

function writeMode(proposal: CheckedProposal): AspectWriteMode {
  switch (proposal.changeType) {
    case 'DELETE':
      return proposal.aspect.isKey ? 'DELETE_ENTITY' : 'DELETE';
    case 'CREATE':
      return 'CREATE';
    case 'CREATE_ENTITY':
      // Of a non-key aspect: written once its entity check (see entityCheck) has stored the key.
      return proposal.aspect.isKey ? 'CREATE' : 'UPSERT';
    case 'UPSERT':
    case 'PATCH':
      return 'UPSERT';
  }
}

/**
 * The order of an entity delete's change logs: a structured property's definition first (spec 3.2: its
 * delete change log comes before the entity is removed; the value removal starts from it), the key
 * aspect last (consumers see the entity go once everything else has).
 */
function deletionOrder(entityType: string, removed: readonly StoredAspect[]): StoredAspect[] {
  const rank = (aspect: string): number => {
    if (entityType === 'structuredProperty' && aspect === 'propertyDefinition') return 0;
    return entityRegistry.getEntity(entityType)?.keyAspect === aspect ? 2 : 1;
  };
  return [...removed].sort((a, b) => rank(a.aspect) - rank(b.aspect));
}

function recordResult(item: Checked, result: ApplyResult, effects: ProposalEffects): void {
  const { proposal } = item;
  const entityType = proposal.entity.name;
  const headers = proposal.headers;
  // A patch stores a whole value, as an upsert does; the ecosystem's change log says UPSERT too.
  const changeType =
    proposal.changeType === 'CREATE_ENTITY' || proposal.changeType === 'PATCH'
      ? 'UPSERT'
      : proposal.changeType;
  switch (result.status) {
    case 'CREATED':
    case 'UPDATED':
      if (result.keyCreated && result.keyCreated.aspect !== result.current?.aspect) {
        effects.versioned.push(
          own(
            item,
            changeLogForStored({
              entityType,
              changeType: 'UPSERT',
              current: result.keyCreated,
              created: result.keyCreated.created,
            }),
          ),
        );
      }
      effects.versioned.push(
        own(
          item,
          changeLogForStored({
            entityType,
            changeType,
            ...(result.current ? { current: result.current } : {}),
            ...(result.previous ? { previous: result.previous } : {}),
            created: result.current?.created ?? { time: item.time, actor: item.actor },
            ...(headers ? { headers } : {}),
          }),
        ),
      );
      effects.outcomes.push(success(item, result.status));
      return;
    case 'UNCHANGED':
      effects.outcomes.push(success(item, result.status));
      return;
    case 'DELETED': {
      const removed = deletionOrder(
        proposal.entity.name,
        result.removed ?? (result.previous ? [result.previous] : []),
      );
      for (const previous of removed) {
        effects.versioned.push(
          own(
            item,
            changeLogForStored({
              entityType,
              changeType: 'DELETE',
              previous,
              created: { time: item.time, actor: item.actor },
              ...(item.mcp.systemMetadata ? { removalSystemMetadata: item.mcp.systemMetadata } : {}),
            }),
          ),
        );
      }
      effects.outcomes.push(success(item, result.status));
      return;
    }
    case 'NOT_FOUND':
      // Deleting what is absent leaves the store as asked: success, nothing to announce.
      effects.outcomes.push(success(item, result.status));
      return;
    case 'INVALID': {
      const message = result.rejection?.message ?? `The patch of ${proposal.aspect.name} was refused`;
      effects.failed.push({ key: proposal.urn.raw, mcp: item.mcp, error: message });
      effects.outcomes.push({
        requestId: item.requestId,
        ok: false,
        code: isErrorCode(result.rejection?.code) ? result.rejection.code : 'VALIDATION',
        message,
        urn: proposal.urn.raw,
        aspectName: proposal.aspect.name,
      });
      return;
    }
    case 'CONFLICT': {
      if (headerOf(proposal, IF_NONE_MATCH) === '*') {
        // The ecosystem's precondition header: a CREATE of an existing aspect (a CREATE_ENTITY of an
        // existing entity) is dropped, not failed.
        effects.outcomes.push(success(item, 'UNCHANGED'));
        return;
      }
      const message =
        proposal.changeType === 'CREATE_ENTITY' ? CREATE_ENTITY_CONFLICT_MESSAGE : CREATE_CONFLICT_MESSAGE;
      effects.failed.push({ key: proposal.urn.raw, mcp: item.mcp, error: message });
      effects.outcomes.push({
        requestId: item.requestId,
        ok: false,
        code: 'CONFLICT',
        message,
        urn: proposal.urn.raw,
        aspectName: proposal.aspect.name,
      });
      return;
    }
  }
}

function own(item: Checked, mcl: MetadataChangeLog): OwnedChangeLog {
  return {
    requestId: item.requestId,
    mcl,
    ...(item.userAgent ? { userAgent: item.userAgent } : {}),
    ...(item.httpRequestId ? { httpRequestId: item.httpRequestId } : {}),
  };
}

function success(item: Checked, status: string): ProposalOutcome {
  return {
    requestId: item.requestId,
    ok: true,
    status,
    urn: item.proposal.urn.raw,
    aspectName: item.proposal.aspect.name,
  };
}

const ERROR_CODES: readonly string[] = [
  'VALIDATION',
  'SCHEMA_VALIDATION',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'PRECONDITION',
];

function isErrorCode(code: string | undefined): code is ErrorCode {
  return code !== undefined && ERROR_CODES.includes(code);
}
