import { entityOperationPrivileges, type RequestContext } from '@catalog/auth';
import { entityRegistry, parseUrn, ValidationError } from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';
import type { SearchIndex } from '@catalog/search';
import { actorOf, type AccessPolicy } from './access-policy.js';
import { writeDecidedOutcomes, type AspectChange } from './aspect-changes.js';
import { requireEntityUrn } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

type Json = Record<string, unknown>;

const VERSION_PROPERTIES = 'versionProperties';
const VERSION_SET_PROPERTIES = 'versionSetProperties';
/** The only scheme a link numbers versions with (the ecosystem's). */
const GENERATED_SCHEME = 'ALPHANUMERIC_GENERATED_BY_DATAHUB';
/** The sort id of a set's first version; each link after it takes the next (see nextSortId). */
export const INITIAL_SORT_ID = 'AAAAAAAA';
/** Versions of one set read when the latest is unlinked (a set holds a few dozen). */
const MAX_VERSIONS = 10_000;

/** A link of an entity as the latest version of a set (the ecosystem's LinkVersionInput). */
export interface LinkVersionRequest {
  readonly versionSet: string;
  readonly linkedEntity: string;
  /** The version's label, unique within its set by convention (not enforced). */
  readonly version: string;
  /** When the version was created in its source, ms. */
  readonly sourceTimestamp?: number | null;
  /** Who created it in its source: a user name. */
  readonly sourceCreator?: string | null;
  readonly comment?: string | null;
}

/** An unlink of a version from its set (the ecosystem's UnlinkVersionInput: both named, though optional there). */
export interface UnlinkVersionRequest {
  readonly versionSet?: string | null;
  readonly unlinkedEntity?: string | null;
}

/**
 * Entity versioning as the ecosystem's link and unlink mutations do it. A link makes the entity the
 * latest version of the set: its `versionProperties` (the label, comment, who linked it and when, the
 * set's next alphanumeric sort id) are written, and the store's versioning side effects move the set's
 * `latest` and every version's `isLatest`. An unlink removes the entity's `versionProperties`; when it was
 * the latest, the version with the next lower sort id becomes the latest, and a set left without
 * versions is deleted. Each needs the edit (UPDATE) privileges on both the set and the entity, asked
 * before anything is read; both answer once the writes are indexed, so a search right after sees them.
 */
export class EntityVersioning {
  constructor(
    private readonly stored: StoredEntities,
    private readonly search: SearchIndex,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    private readonly waitForIndex: (outcomes: readonly ProposalOutcome[]) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Links the entity as the set's latest version: the set's urn, or null when it was linked to it already. */
  async link(ctx: RequestContext, request: LinkVersionRequest): Promise<string | null> {
    const { set, entity, entityType } = this.targets(
      request.versionSet,
      request.linkedEntity,
      'linkedEntity',
    );
    if (request.version.trim() === '') throw new ValidationError('version must name the version, got ""');
    if (request.sourceCreator !== undefined && request.sourceCreator !== null && request.sourceCreator === '')
      throw new ValidationError('sourceCreator must name a user when given, got ""');
    await this.requireEdit(ctx, set, entity);

    const current = await this.stored.aspect<Json>(entity, VERSION_PROPERTIES);
    if (current !== undefined) {
      if (current['versionSet'] === set) return null;
      throw new ValidationError(
        `${entity} is already a version of ${String(current['versionSet'])}: unlink it from that set first`,
      );
    }
    const sortId = await this.nextSortId(set);
    const time = this.now();
    const actor = actorOf(ctx);
    const value: Json = {
      versionSet: set,
      version: { versionTag: request.version, metadataAttribution: { time, actor } },
      ...(request.comment === undefined || request.comment === null ? {} : { comment: request.comment }),
      metadataCreatedTimestamp: { time, actor },
      sortId,
      versioningScheme: GENERATED_SCHEME,
      ...(request.sourceTimestamp === undefined || request.sourceTimestamp === null
        ? {}
        : {
            sourceCreatedTimestamp: {
              time: request.sourceTimestamp,
              actor:
                request.sourceCreator === undefined || request.sourceCreator === null
                  ? 'urn:li:corpuser:unknown'
                  : `urn:li:corpuser:${request.sourceCreator}`,
            },
          }),
    };
    await this.write(ctx, [{ urn: entity, entityType, aspect: VERSION_PROPERTIES, value }]);
    return set;
  }

  /** Unlinks the entity from its set: the set's urn, or null when the entity was no version. */
  async unlink(ctx: RequestContext, request: UnlinkVersionRequest): Promise<string | null> {
    if (request.versionSet === undefined || request.versionSet === null)
      throw new ValidationError('versionSet must name the version set to unlink from');
    if (request.unlinkedEntity === undefined || request.unlinkedEntity === null)
      throw new ValidationError('unlinkedEntity must name the version to unlink');
    const { set, entity, entityType } = this.targets(
      request.versionSet,
      request.unlinkedEntity,
      'unlinkedEntity',
    );
    await this.requireEdit(ctx, set, entity);

    const current = await this.stored.aspect<Json>(entity, VERSION_PROPERTIES);
    if (current === undefined) return null;
    if (current['versionSet'] !== set)
      throw new ValidationError(
        `${entity} is not a version of ${set}: it is a version of ${String(current['versionSet'])}`,
      );
    const changes: AspectChange[] = [
      { urn: entity, entityType, aspect: VERSION_PROPERTIES, changeType: 'DELETE' },
    ];
    const setProperties = await this.stored.aspect<Json>(set, VERSION_SET_PROPERTIES);
    if (setProperties?.['latest'] === entity) {
      const next = await this.previousVersion(set, entityType, entity, String(current['sortId'] ?? ''));
      if (next === undefined) {
        changes.push({ urn: set, entityType: 'versionSet', aspect: 'versionSetKey', changeType: 'DELETE' });
      } else {
        changes.push(
          {
            urn: set,
            entityType: 'versionSet',
            aspect: VERSION_SET_PROPERTIES,
            value: { ...setProperties, latest: next.urn },
          },
          { urn: next.urn, entityType, aspect: VERSION_PROPERTIES, value: { ...next.value, isLatest: true } },
        );
      }
    }
    await this.write(ctx, changes);
    return set;
  }

  /** The set and the entity a request names: a 400 naming the problem unless they fit each other. */
  private targets(setUrn: string, entityUrn: string, field: string) {
    const set = requireEntityUrn(setUrn);
    if (set.entity !== 'versionSet')
      throw new ValidationError(`Version Set urn ${setUrn} must be of type Version Set.`);
    const entity = requireEntityUrn(entityUrn);
    const setType = entityRegistry.keyAspectFromUrn(parseUrn(set.urn)).value['entityType'];
    if (setType !== entity.entity)
      throw new ValidationError(
        `${field} ${entityUrn} is a ${entity.entity}; the version set ${setUrn} holds ${String(setType)} versions`,
      );
    if (!entityRegistry.getEntity(entity.entity)?.aspects.has(VERSION_PROPERTIES))
      throw new ValidationError(`${entity.entity} entities have no versions`);
    return { set: set.urn, entity: entity.urn, entityType: entity.entity };
  }

  private async requireEdit(ctx: RequestContext, set: string, entity: string): Promise<void> {
    for (const urn of [set, entity]) {
      await this.policy.require(ctx, {
        privileges: [entityOperationPrivileges('UPDATE', parseUrn(urn).entityType)],
        resourceUrn: urn,
        message: `${actorOf(ctx)} is unauthorized to UPDATE entities ${set} and ${entity}`,
      });
    }
  }

  /** The sort id the set's next version takes: the one after its latest's, the first for a new set. */
  private async nextSortId(set: string): Promise<string> {
    const setProperties = await this.stored.aspect<Json>(set, VERSION_SET_PROPERTIES);
    const latest = setProperties?.['latest'];
    if (setProperties === undefined || typeof latest !== 'string') return INITIAL_SORT_ID;
    if (setProperties['versioningScheme'] !== GENERATED_SCHEME)
      throw new ValidationError(
        `Only versioning scheme supported is ${GENERATED_SCHEME}: ${set} uses ${String(setProperties['versioningScheme'])}`,
      );
    const latestSortId = (await this.stored.aspect<Json>(latest, VERSION_PROPERTIES))?.['sortId'];
    if (latestSortId === undefined) return INITIAL_SORT_ID;
    return nextSortId(String(latestSortId));
  }

  /**
   * The version of the set that sorts highest below `sortId`, by the stored values (the index only says
   * which entities were versions of the set; each is read again from the store).
   */
  private async previousVersion(
    set: string,
    entityType: string,
    unlinked: string,
    sortId: string,
  ): Promise<{ urn: string; value: Json } | undefined> {
    const page = await this.search.search({
      entityTypes: [entityType],
      input: '*',
      filter: { or: [{ and: [{ field: 'versionSet', values: [set], condition: 'EQUAL' }] }] },
      start: 0,
      count: MAX_VERSIONS,
    });
    let best: { urn: string; value: Json } | undefined;
    for (const hit of page.hits) {
      if (hit.urn === unlinked) continue;
      const value = await this.stored.aspect<Json>(hit.urn, VERSION_PROPERTIES);
      const candidate = value?.['sortId'];
      if (value === undefined || value['versionSet'] !== set || typeof candidate !== 'string') continue;
      if (candidate >= sortId) continue;
      if (best === undefined || candidate > String(best.value['sortId'])) best = { urn: hit.urn, value };
    }
    return best;
  }

  private async write(ctx: RequestContext, changes: readonly AspectChange[]): Promise<void> {
    await this.waitForIndex(await writeDecidedOutcomes(this.proposals, ctx, changes));
  }
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The sort id after `sortId` (eight capital letters, counted like a base-26 number: AAAAAAAZ is followed
 * by AAAAAABA; ZZZZZZZZ by AAAAAAAA, as the ecosystem's generator wraps). A stored sort id of another
 * form is a 400: the set was not numbered by links.
 */
export function nextSortId(sortId: string): string {
  if (!/^[A-Z]{8}$/.test(sortId))
    throw new ValidationError(
      `The latest version's sortId ${JSON.stringify(sortId)} is not 8 capital letters`,
    );
  const chars = [...sortId];
  for (let i = chars.length - 1; i >= 0; i--) {
    const index = LETTERS.indexOf(chars[i]!);
    if (index < LETTERS.length - 1) {
      chars[i] = LETTERS[index + 1]!;
      return chars.join('');
    }
    chars[i] = 'A';
  }
  return INITIAL_SORT_ID;
}
