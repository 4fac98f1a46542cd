import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const MANAGE_GLOBAL_VIEWS = ['MANAGE_GLOBAL_VIEWS'] as const;
const ENTITY = 'dataHubView';
const INFO = 'dataHubViewInfo';
/** The one global settings entity and its aspect (the ecosystem's GLOBAL_SETTINGS_URN). */
const GLOBAL_SETTINGS = 'urn:li:globalSettings:0';
const GLOBAL_SETTINGS_INFO = 'globalSettingsInfo';

export type ViewType = 'PERSONAL' | 'GLOBAL';

/** One criterion of a view's filter, as a client sends it. */
export interface ViewCriterion {
  readonly field: string;
  readonly value?: string | null;
  readonly values?: readonly string[] | null;
  readonly condition?: string | null;
  readonly negated?: boolean | null;
}

/** A view's definition: registry entity names and its filter (criteria ANDed, or ORed). */
export interface ViewDefinition {
  readonly entityTypes: readonly string[];
  readonly filter: { readonly operator: 'AND' | 'OR'; readonly filters: readonly ViewCriterion[] };
}

/** The stored `dataHubViewInfo`. */
export interface ViewInfo {
  readonly name: string;
  readonly description?: string;
  readonly type: ViewType;
  readonly definition: {
    readonly entityTypes: readonly string[];
    readonly filter: { readonly or?: readonly { readonly and?: readonly Record<string, unknown>[] }[] };
  };
  readonly created: { readonly time: number; readonly actor: string };
  readonly lastModified: { readonly time: number; readonly actor: string };
}

export interface StoredView {
  readonly urn: string;
  readonly info: ViewInfo;
}

export interface ViewPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly views: readonly StoredView[];
}

interface ListQuery {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
}

/**
 * Views (saved filters), as the ecosystem's view mutations keep them: anyone signed in creates a personal
 * view, a global one takes MANAGE_GLOBAL_VIEWS; a view is changed or deleted by who created it, or, for a
 * global one, by who manages global views. Listings: one's own views, and every global view.
 */
export class Views {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async create(
    ctx: RequestContext,
    input: {
      readonly viewType: ViewType;
      readonly name: string;
      readonly description?: string | null;
      readonly definition: ViewDefinition;
    },
  ): Promise<StoredView> {
    if (input.viewType === 'GLOBAL' && !(await this.managesGlobal(ctx)))
      throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    const urn = `urn:li:${ENTITY}:${randomUUID()}`;
    const stamp = { time: Date.now(), actor: ctx.authentication.actorUrn };
    const info: ViewInfo = {
      name: input.name,
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      type: input.viewType,
      definition: definitionOf(input.definition),
      created: stamp,
      lastModified: stamp,
    };
    await this.save(ctx, urn, info);
    return { urn, info };
  }

  /** Changes the name, description or definition that are given. */
  async update(
    ctx: RequestContext,
    urn: string,
    input: {
      readonly name?: string | null;
      readonly description?: string | null;
      readonly definition?: ViewDefinition | null;
    },
  ): Promise<StoredView> {
    const current = await this.mayChange(ctx, urn);
    const info: ViewInfo = {
      ...current,
      ...(typeof input.name === 'string' ? { name: input.name } : {}),
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      ...(input.definition ? { definition: definitionOf(input.definition) } : {}),
      lastModified: { time: Date.now(), actor: ctx.authentication.actorUrn },
    };
    await this.save(ctx, urn, info);
    return { urn, info };
  }

  async delete(ctx: RequestContext, urn: string): Promise<boolean> {
    await this.mayChange(ctx, urn);
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: ENTITY, aspect: 'dataHubViewKey', changeType: 'DELETE' },
    ]);
    return true;
  }

  /** The actor's own views (of one type, when given), the newest first. */
  listMine(
    ctx: RequestContext,
    query: ListQuery & { readonly viewType?: ViewType | null },
  ): Promise<ViewPage> {
    const me = ctx.authentication.actorUrn;
    return this.list(
      query,
      (info) => info.created.actor === me && (query.viewType == null || info.type === query.viewType),
    );
  }

  /** Every global view, the newest first. */
  listGlobal(_ctx: RequestContext, query: ListQuery): Promise<ViewPage> {
    return this.list(query, (info) => info.type === 'GLOBAL');
  }

  /** The organization's default view (globalSettingsInfo `views.defaultView`), for anyone signed in. */
  async globalDefaultView(_ctx: RequestContext): Promise<string | null> {
    const info = await this.stored.aspect<{ views?: { defaultView?: string | null } | null }>(
      GLOBAL_SETTINGS,
      GLOBAL_SETTINGS_INFO,
    );
    return info?.views?.defaultView ?? null;
  }

  /** Sets (or, with null, clears) the default view; MANAGE_GLOBAL_VIEWS, and it must be a global view. */
  async setGlobalDefaultView(ctx: RequestContext, viewUrn: string | null): Promise<void> {
    if (!(await this.managesGlobal(ctx))) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    if (viewUrn !== null) {
      requireUrnOf(viewUrn, [ENTITY], 'defaultView');
      if ((await this.globalView(viewUrn)) === undefined)
        throw new ValidationError(`${viewUrn} is not a global view`);
    }
    await writeDecided(this.proposals, ctx, [
      {
        urn: GLOBAL_SETTINGS,
        entityType: 'globalSettings',
        aspect: GLOBAL_SETTINGS_INFO,
        changeType: 'PATCH',
        value: [{ op: 'add', path: '/views', value: viewUrn === null ? {} : { defaultView: viewUrn } }],
      },
    ]);
  }

  /** A global view's info, or undefined: what a default view may be. */
  async globalView(urn: string): Promise<ViewInfo | undefined> {
    const info = await this.stored.aspect<ViewInfo>(urn, INFO);
    return info?.type === 'GLOBAL' ? info : undefined;
  }

  private async list(query: ListQuery, keep: (info: ViewInfo) => boolean): Promise<ViewPage> {
    const start = Math.max(0, query.start ?? 0);
    const count = Math.max(0, query.count ?? 20);
    const text = (query.query ?? '').trim().toLowerCase().replace(/^\*$/, '');
    const views = (await this.stored.all(ENTITY, INFO))
      .map(({ urn, info }) => ({ urn, info: info as unknown as ViewInfo }))
      .filter(({ info }) => keep(info) && (text === '' || info.name.toLowerCase().includes(text)))
      .sort((a, b) => b.info.created.time - a.info.created.time || (a.urn < b.urn ? -1 : 1));
    const page = views.slice(start, start + count);
    return { start, count: page.length, total: views.length, views: page };
  }

  private async mayChange(ctx: RequestContext, urn: string): Promise<ViewInfo> {
    requireUrnOf(urn, [ENTITY], 'urn');
    const info = await this.stored.aspect<ViewInfo>(urn, INFO);
    if (info === undefined)
      throw new ValidationError(`Failed to modify View. View with urn ${urn} does not exist.`);
    const allowed =
      (info.type === 'GLOBAL' && (await this.managesGlobal(ctx))) ||
      info.created.actor === ctx.authentication.actorUrn ||
      ctx.authentication.isSystem;
    if (!allowed) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    return info;
  }

  private managesGlobal(ctx: RequestContext): Promise<boolean> {
    return this.policy.holds(ctx, MANAGE_GLOBAL_VIEWS);
  }

  private save(ctx: RequestContext, urn: string, info: ViewInfo): Promise<void> {
    return writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
  }
}

function criterionOf(c: ViewCriterion): Record<string, unknown> {
  const values = c.values ?? (typeof c.value === 'string' ? [c.value] : []);
  return {
    field: c.field,
    value: values[0] ?? '',
    values: [...values],
    condition: c.condition ?? 'EQUAL',
    negated: c.negated ?? false,
  };
}

/** The stored definition: ANDed criteria are one conjunction, ORed ones one conjunction each. */
function definitionOf(definition: ViewDefinition): ViewInfo['definition'] {
  const criteria = definition.filter.filters.map(criterionOf);
  return {
    entityTypes: [...definition.entityTypes],
    filter: {
      or: definition.filter.operator === 'AND' ? [{ and: criteria }] : criteria.map((c) => ({ and: [c] })),
    },
  };
}

/** A stored definition's filter as clients see it: one conjunction is AND, several are OR. */
export function viewFilterOf(info: ViewInfo): { operator: 'AND' | 'OR'; filters: Record<string, unknown>[] } {
  const or = info.definition.filter.or ?? [];
  if (or.length === 1) return { operator: 'AND', filters: [...(or[0]?.and ?? [])] };
  return { operator: 'OR', filters: or.flatMap((c) => (c.and?.length === 1 ? c.and : [])) };
}
