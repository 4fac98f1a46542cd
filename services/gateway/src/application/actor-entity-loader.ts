import DataLoader from 'dataloader';
import type { RequestContext } from '@catalog/auth';
import { isRestrictedAspect } from '@catalog/model';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import { parentLinkKey, parentLinks, restrictedAspects } from './restricted-entity-view.js';

/** An entity's latest aspect values by aspect name, as the actor may see them; empty when none. */
export type AspectValues = ReadonlyMap<string, StoredAspect>;

/** What one request knows of one entity. */
interface EntityView {
  /** Anything is stored for the urn (whether or not the actor may read it). */
  readonly exists: boolean;
  readonly readable: boolean;
  /**
   * The aspects the actor sees: of an unreadable entity, its display name only (restrictedAspects); no
   * restricted aspect but to the system.
   */
  readonly aspects: AspectValues;
  /** The entity's parent links (parentLinks), readable or not. */
  readonly parents: ReadonlyMap<string, string>;
  /** Restricted aspects stored but withheld (names only). */
  readonly withheld: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

type EntityStore = Pick<AspectStore, 'getLatestMany' | 'get'>;

/**
 * How an interface paces one request's reads (GraphQL's request budget): each batch counts against an
 * entity ceiling and waits for a turn of the event loop of its own, and read entities are handed back a
 * chunk per turn, so a request reading thousands of entities lets other requests in between.
 */
export interface ReadPacing {
  countEntities(n: number): void;
  takeTurn(): Promise<void>;
  /** The turn to wait for before handing back the next item, or undefined to go on at once. */
  pace(): Promise<void> | undefined;
}

/**
 * Entities read from the store in one call. The embedded store reads synchronously, 1,000 entities in
 * 90-640 ms on a loaded 2-core machine; 200 keep one call near a tenth of a second.
 */
const BATCH_SIZE = 200;

/**
 * The entities one request reads, as its actor may see them (the GraphQL resolvers' one way to an
 * entity's aspects). Every entity a query touches in one tick is read in one `getLatestMany` call, each
 * once per request, and whether the actor may read them is decided in the same batch, per entity, as a
 * single read of it would be (`AccessPolicy.readable`):
 *
 * - an entity the actor may not read resolves as the ecosystem's stub of it: its urn, type and display
 *   name (restrictedAspects), every other field empty; its place in a hierarchy (parentOf) is kept;
 * - restricted aspects (credentials, secret values, invite tokens) are seen by the system actor only.
 *
 * `storeCalls` counts the store round trips (the GraphQL benchmark reports it).
 */
export class ActorEntityLoader {
  storeCalls = 0;
  private readonly loader: DataLoader<string, EntityView>;

  constructor(
    private readonly store: EntityStore,
    policy: Pick<AccessPolicy, 'readable'>,
    private readonly ctx: RequestContext,
    private readonly pacing?: ReadPacing,
  ) {
    const system = ctx.authentication.isSystem;
    this.loader = new DataLoader(
      async (urns) => {
        if (pacing !== undefined) {
          pacing.countEntities(urns.length);
          await pacing.takeTurn();
        }
        this.storeCalls++;
        // The system actor reads everything: no decision to wait for beside the store read.
        const [found, readable] = await Promise.all([
          store.getLatestMany(urns),
          system ? undefined : policy.readable(ctx, urns),
        ]);
        const allowed =
          readable === undefined || readable.length === urns.length ? undefined : new Set(readable);
        return urns.map((urn) => viewOf(found.get(urn) ?? [], allowed?.has(urn) ?? true, system));
      },
      { maxBatchSize: BATCH_SIZE },
    );
  }

  /** The entity's aspects the actor may see (none when it may not read the entity). */
  async load(urn: string): Promise<AspectValues> {
    const view = await this.loader.load(urn);
    // Only a request past its slice waits here; the others go on without a further await.
    const turn = this.pacing?.pace();
    if (turn !== undefined) await turn;
    return view.aspects;
  }

  async aspect<T = Record<string, unknown>>(urn: string, name: string): Promise<T | undefined> {
    return (await this.load(urn)).get(name)?.value as T | undefined;
  }

  /**
   * The parent the entity's `aspect`.`field` names in a hierarchy it sits in (container, parent domain,
   * parent glossary node), whether or not the actor may read the entity, as the ecosystem's parent
   * resolvers follow it; undefined when it has none.
   */
  async parentOf(urn: string, aspect: string, field: string): Promise<string | undefined> {
    return (await this.loader.load(urn)).parents.get(parentLinkKey(aspect, field));
  }

  /** Whether anything is stored for the entity, readable by the actor or not (as `entity(urn)` answers). */
  async exists(urn: string): Promise<boolean> {
    return (await this.loader.load(urn)).exists;
  }

  /**
   * Whether a readable entity has the aspect stored, even one withheld from the actor: for what the
   * ecosystem derives from a restricted aspect's presence alone (CorpUser.isNativeUser), never its value.
   */
  async stores(urn: string, name: string): Promise<boolean> {
    const view = await this.loader.load(urn);
    return view.aspects.has(name) || view.withheld.has(name);
  }

  /** One stored version of an aspect (0 the latest), as the actor may see it; undefined when it may not. */
  async version<T = Record<string, unknown>>(
    urn: string,
    name: string,
    version: number,
  ): Promise<T | undefined> {
    return (await this.stored(urn, name, version))?.value as T | undefined;
  }

  /** One stored version of an aspect with its audit stamp and version, as the actor may see it. */
  async stored(urn: string, name: string, version: number): Promise<StoredAspect | undefined> {
    if (version === 0) return (await this.load(urn)).get(name);
    const view = await this.loader.load(urn);
    if (!view.readable || (isRestrictedAspect(name) && !this.ctx.authentication.isSystem)) return undefined;
    this.storeCalls++;
    return (await this.store.get(urn, name, version)) ?? undefined;
  }

  /** Forgets what was read for `urn`, after a mutation wrote it. */
  clear(urn: string): void {
    this.loader.clear(urn);
  }
}

function viewOf(stored: readonly StoredAspect[], readable: boolean, system: boolean): EntityView {
  const exists = stored.length > 0;
  const parents = parentLinks(stored);
  if (!readable) return { exists, readable, aspects: restrictedAspects(stored), parents, withheld: NONE };
  const aspects = new Map<string, StoredAspect>();
  let withheld: Set<string> | undefined;
  for (const aspect of stored) {
    if (!system && isRestrictedAspect(aspect.aspect)) (withheld ??= new Set()).add(aspect.aspect);
    else aspects.set(aspect.aspect, aspect);
  }
  return { exists, readable, aspects, parents, withheld: withheld ?? NONE };
}
