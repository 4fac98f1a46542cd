import type { RequestContext } from '@catalog/auth';
import { checkProposal, timeseriesRangeHeaders, type CheckedProposal, type EntitySpec } from '@catalog/model';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { TimeseriesIndex } from '@catalog/search';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { AccessPolicy } from './access-policy.js';
import { visibleToActor } from './aspect-visibility.js';
import type { Proposals } from './proposals.js';
import { newestTimeseriesValue } from './timeseries-reads.js';

/** The entities of one type a write names, and the aspects it writes to them. */
export interface WrittenEntities {
  readonly entity: EntitySpec;
  readonly urns: readonly string[];
  readonly aspects: readonly string[];
}

/** What a synchronous write answers: per group, per urn (in order), the aspects as stored. */
export type WrittenAspects = readonly (readonly (readonly StoredAspect[])[])[];

/** The aspects a DELETE of the entity API removes. */
export interface DeleteRequest {
  readonly entity: EntitySpec;
  readonly urn: string;
  /** The aspect of the aspect route (`/{type}/{urn}/{aspect}`); absent on the entity route. */
  readonly aspect?: string;
  /** On the entity route: the aspects named (none or the key: the whole entity). */
  readonly aspects: readonly string[];
  /** Every aspect but the key (the entity stays, emptied). */
  readonly clear: boolean;
}

/**
 * The entity API's writes: proposals authorized and submitted through Proposals (restricted aspects by
 * the system actor only), the failure of a synchronous one raised as its domain error, and the read
 * back of what was stored, which the writer sees as written (restricted aspects still only by the
 * system actor), whatever its read privileges.
 */
export class EntityWrites {
  constructor(
    private readonly store: AspectStore,
    private readonly timeseries: TimeseriesIndex,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** Proposes the writes; a synchronous one that persistence refused throws its error. */
  async propose(
    ctx: RequestContext,
    proposals: readonly CheckedProposal[],
    options: { readonly sync: boolean },
  ): Promise<void> {
    const outcomes = await this.proposals.propose(ctx, proposals, options);
    const failure = outcomes?.find((o) => !o.ok);
    if (failure) throw errorOfOutcome(failure);
  }

  /**
   * Proposes synchronously and answers what was stored: the written aspects of each entity, or, with
   * `wholeWhenCreated`, every aspect of an entity the write created (its key and default aspects too,
   * as the ecosystem answers; which entities exist is read before the write).
   */
  async proposeAndReadBack(
    ctx: RequestContext,
    proposals: readonly CheckedProposal[],
    groups: readonly WrittenEntities[],
    options: { readonly wholeWhenCreated: boolean },
  ): Promise<WrittenAspects> {
    const existed = options.wholeWhenCreated
      ? await Promise.all(
          groups.map(async ({ entity, urns }) => {
            const keys = await this.store.getLatestMany(urns, [entity.keyAspect]);
            return new Set([...keys].filter(([, found]) => found.length > 0).map(([urn]) => urn));
          }),
        )
      : undefined;
    await this.propose(ctx, proposals, { sync: true });
    const stored = await Promise.all(
      groups.map(async ({ urns, aspects }, i) => {
        const created = existed === undefined ? [] : urns.filter((urn) => !existed[i]!.has(urn));
        const [written, whole] = await Promise.all([
          this.store.getLatestMany(
            existed === undefined ? urns : urns.filter((urn) => existed[i]!.has(urn)),
            aspects,
          ),
          created.length === 0
            ? new Map<string, readonly StoredAspect[]>()
            : this.store.getLatestMany(created),
        ]);
        return urns.map((urn) => written.get(urn) ?? whole.get(urn) ?? []);
      }),
    );
    const visible = await visibleToActor(ctx, this.store, stored.flat());
    let next = 0;
    return stored.map((lists) => lists.map(() => visible[next++]!));
  }

  /**
   * Deletes an entity (its key aspect: the entity and every aspect go), some of its aspects, or with
   * `clear` every aspect but the key. A time-series aspect named on its own route loses its newest value
   * (the values at the newest timestamp), as the ecosystem's aspect DELETE does: nothing when it has none.
   */
  async delete(ctx: RequestContext, request: DeleteRequest): Promise<void> {
    const { entity, urn, aspect, clear } = request;
    await this.policy.deleteEntity(ctx, urn);
    const asked = aspect !== undefined ? [aspect] : request.aspects;
    const names =
      aspect === undefined && (asked.length === 0 || asked.includes(entity.keyAspect)) && !clear
        ? [entity.keyAspect]
        : clear
          ? (await this.store.getLatest(urn)).map((a) => a.aspect).filter((a) => a !== entity.keyAspect)
          : asked;
    const proposals = (
      await Promise.all(names.map((name) => this.deleteProposal(urn, entity, name, aspect !== undefined)))
    ).flatMap((p) => (p === undefined ? [] : [p]));
    if (proposals.length > 0) await this.propose(ctx, proposals, { sync: true });
  }

  private async deleteProposal(
    urn: string,
    entity: EntitySpec,
    name: string,
    newestOnly: boolean,
  ): Promise<CheckedProposal | undefined> {
    const spec = entity.aspects.get(name);
    let headers: Record<string, string> | undefined;
    if (spec?.kind === 'timeseries' && newestOnly) {
      const newest = await newestTimeseriesValue(this.timeseries, {
        urn,
        entityType: entity.name,
        aspect: spec.name,
        version: 0,
      });
      if (newest === null) return undefined;
      const at = newest.created.time;
      headers = timeseriesRangeHeaders({ startTimeMillis: at, endTimeMillis: at });
    }
    return checkProposal({
      entityType: entity.name,
      entityUrn: urn,
      changeType: 'DELETE',
      aspectName: name,
      ...(headers === undefined ? {} : { headers }),
    });
  }
}
