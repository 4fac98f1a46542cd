import type { RequestContext } from '@catalog/auth';
import { checkProposal, ValidationError } from '@catalog/model';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { AccessPolicy } from './access-policy.js';
import { requireEntityUrn, requireUrnOfType } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

type Json = Readonly<Record<string, unknown>>;

const STAGE = 'lifecycleStageType';
const INFO = 'lifecycleStageTypeInfo';
/** The stage an entity without one is in, as a stage's allowedPreviousStages names it. */
const NO_STAGE = 'urn:li:lifecycleStageType:__NONE__';

/** A registered lifecycle stage, as GraphQL's LifecycleStageType shows it. */
export interface LifecycleStage {
  readonly urn: string;
  readonly name: string;
  readonly description: string | null;
  readonly entityTypes: readonly string[] | null;
  readonly hideInSearch: boolean;
  readonly allowedPreviousStages: readonly string[] | null;
}

/** The stage a stored `lifecycleStageTypeInfo` describes. */
export function lifecycleStageOf(urn: string, info: Json): LifecycleStage {
  const settings = (info['settings'] ?? {}) as Json;
  const policy = info['transitionPolicy'] as Json | null | undefined;
  const previous = policy?.['allowedPreviousStages'];
  return {
    urn,
    name: typeof info['name'] === 'string' ? info['name'] : '',
    description: typeof info['description'] === 'string' ? info['description'] : null,
    entityTypes: Array.isArray(info['entityTypes']) ? (info['entityTypes'] as string[]) : null,
    hideInSearch: settings['hideInSearch'] === true,
    allowedPreviousStages: Array.isArray(previous) ? (previous as string[]) : null,
  };
}

/**
 * Lifecycle stages: the registered stage types (operators ingest their own vocabulary), and setting or
 * clearing an entity's stage (its `status.lifecycleStage`, with who moved it there and when). Setting a
 * stage is an edit of the entity's status: the generic write privileges of the entity, as the
 * ecosystem's ingestProposal asks them.
 */
export class LifecycleStages {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** Every registered stage the actor may read (those of a hard-deleted or removed type left out). */
  async list(ctx: RequestContext): Promise<LifecycleStage[]> {
    const all = await this.stored.all(STAGE, INFO);
    const readable = new Set(
      await this.policy.readable(
        ctx,
        all.map((s) => s.urn),
      ),
    );
    const stages: LifecycleStage[] = [];
    for (const { urn, info } of all) {
      if (!readable.has(urn)) continue;
      const status = await this.stored.aspect(urn, 'status');
      if (status?.['removed'] === true) continue;
      stages.push(lifecycleStageOf(urn, info));
    }
    return stages;
  }

  /**
   * Puts the entity in the stage, or in none when `stageUrn` is null; 400 when the entity or the stage
   * does not exist, the stage is not for entities of its type, or the stage may not be entered from the
   * entity's current one (the ecosystem's write hook silently keeps the old stage instead; a refusal
   * says so and changes nothing).
   */
  async set(ctx: RequestContext, urn: string, stageUrn: string | null): Promise<void> {
    const entity = requireEntityUrn(urn);
    if (stageUrn !== null) requireUrnOfType(stageUrn, STAGE);
    if (!(await this.stored.exists(entity.urn)))
      throw new ValidationError(`Failed to set lifecycle stage on entity ${urn}: the entity does not exist`);
    const stored = await this.stored.aspect(entity.urn, 'status');
    if (stageUrn !== null) {
      const info = await this.stored.aspect(stageUrn, INFO);
      if (info === undefined) throw new ValidationError(`Lifecycle stage ${stageUrn} does not exist`);
      const stage = lifecycleStageOf(stageUrn, info);
      if (
        stage.entityTypes !== null &&
        stage.entityTypes.length > 0 &&
        !stage.entityTypes.includes(entity.entity)
      )
        throw new ValidationError(
          `Lifecycle stage ${stageUrn} does not apply to entities of type ${entity.entity}`,
        );
      const current = typeof stored?.['lifecycleStage'] === 'string' ? stored['lifecycleStage'] : NO_STAGE;
      const allowed = stage.allowedPreviousStages;
      // The destination's entry rule (clearing a stage and staying in one are always allowed).
      if (current !== stageUrn && allowed !== null && !allowed.includes(current))
        throw new ValidationError(
          `Lifecycle stage transition to ${stageUrn} from ${current} on ${urn} is not allowed; allowed previous stages: ${allowed.join(', ') || 'none'}`,
        );
    }
    const status: Record<string, unknown> = { removed: false, ...stored };
    delete status['lifecycleStage'];
    if (stageUrn !== null) status['lifecycleStage'] = stageUrn;
    status['lifecycleLastUpdated'] = { time: Date.now(), actor: ctx.authentication.actorUrn };
    const proposal = checkProposal({
      entityType: entity.entity,
      entityUrn: entity.urn,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { contentType: 'application/json', value: JSON.stringify(status) },
    });
    const outcomes = await this.proposals.propose(ctx, [proposal], { sync: true });
    const failure = outcomes?.find((o) => !o.ok);
    if (failure) throw errorOfOutcome(failure);
  }
}

/**
 * The stages whose entities default searches leave out (`hideInSearch`), by the entity types they apply
 * to, read again at most every `ttlMs` (the ecosystem refreshes its copy periodically too).
 */
export class HiddenLifecycleStages {
  private loaded: { readonly at: number; readonly stages: Promise<readonly LifecycleStage[]> } | undefined;

  constructor(
    private readonly stored: StoredEntities,
    private readonly ttlMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The hidden stages that apply to any of these entity types (a stage naming no types applies to all). */
  async hiddenFor(entityTypes: readonly string[]): Promise<string[]> {
    const stages = await this.stages();
    return stages
      .filter(
        (s) =>
          s.hideInSearch &&
          (s.entityTypes === null ||
            s.entityTypes.length === 0 ||
            s.entityTypes.some((t) => entityTypes.includes(t))),
      )
      .map((s) => s.urn);
  }

  private stages(): Promise<readonly LifecycleStage[]> {
    const now = this.now();
    if (this.loaded === undefined || now - this.loaded.at >= this.ttlMs) {
      const stages = this.stored
        .all(STAGE, INFO)
        .then((all) => all.map((s) => lifecycleStageOf(s.urn, s.info)));
      // A failed read is not kept: the next search reads again.
      stages.catch(() => (this.loaded = undefined));
      this.loaded = { at: now, stages };
    }
    return this.loaded.stages;
  }
}
