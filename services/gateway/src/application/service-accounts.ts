import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities, StoredValues } from './stored-entities.js';

const MANAGE_SERVICE_ACCOUNTS = ['MANAGE_SERVICE_ACCOUNTS'] as const;
const SUB_TYPE = 'SERVICE_ACCOUNT';
const PREFIX = 'service_';
const USER = 'corpuser';

/** A service account as the ecosystem's ServiceAccount type shows it. */
export interface ServiceAccountView {
  readonly urn: string;
  readonly name: string;
  readonly displayName: string | null;
  readonly description: string | null;
  readonly createdBy: string | null;
  readonly createdAt: number | null;
  readonly updatedAt: number | null;
  /** The urn of its default view, when one is set. */
  readonly defaultViewUrn: string | null;
}

export interface ServiceAccountPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly serviceAccounts: readonly ServiceAccountView[];
}

type Json = Readonly<Record<string, unknown>>;

/**
 * Service accounts, as the ecosystem keeps them: users (`urn:li:corpuser:service_<uuid>`) whose subTypes
 * say SERVICE_ACCOUNT, the description in their info's title. Every operation takes
 * MANAGE_SERVICE_ACCOUNTS, asked first; delete and get refuse a user that is not a service account.
 */
export class ServiceAccounts {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async create(
    ctx: RequestContext,
    input: { readonly displayName?: string | null; readonly description?: string | null },
  ): Promise<ServiceAccountView> {
    await this.require(ctx, 'create');
    const id = `${PREFIX}${randomUUID()}`;
    const urn = `urn:li:${USER}:${id}`;
    const info = {
      active: true,
      displayName: input.displayName ?? id,
      ...(typeof input.description === 'string' ? { title: input.description } : {}),
    };
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: USER, aspect: 'corpUserKey', value: { username: id } },
      { urn, entityType: USER, aspect: 'corpUserInfo', value: info },
      { urn, entityType: USER, aspect: 'subTypes', value: { typeNames: [SUB_TYPE] } },
    ]);
    return {
      urn,
      name: id,
      displayName: input.displayName ?? null,
      description: input.description ?? null,
      createdBy: ctx.authentication.actorUrn,
      createdAt: Date.now(),
      updatedAt: null,
      defaultViewUrn: null,
    };
  }

  /** The service account, or null when no user has this urn; a user that is not one is refused. */
  async get(ctx: RequestContext, urn: string): Promise<ServiceAccountView | null> {
    await this.require(ctx, 'get');
    requireUrnOf(urn, [USER], 'urn');
    const values = await this.stored.values(urn);
    if (values.size === 0) return null;
    if (!isServiceAccount(values.get('subTypes')))
      throw new ValidationError(`The specified URN is not a service account: ${urn}`);
    return viewOf(urn, values);
  }

  /** A page of service accounts; `query` matches their name and display name. */
  async list(
    ctx: RequestContext,
    input: { readonly start?: number | null; readonly count?: number | null; readonly query?: string | null },
  ): Promise<ServiceAccountPage> {
    await this.require(ctx, 'list');
    const start = Math.max(0, input.start ?? 0);
    const count = Math.max(0, input.count ?? 10);
    const query = (input.query ?? '').trim().toLowerCase().replace(/^\*$/, '');
    const accounts: ServiceAccountView[] = [];
    for (const { urn, info } of await this.stored.all(USER, 'subTypes')) {
      if (!isServiceAccount(info)) continue;
      const view = viewOf(urn, await this.stored.values(urn));
      const text = `${view.name} ${view.displayName ?? ''} ${view.description ?? ''}`.toLowerCase();
      if (query === '' || query.split(/\s+/).every((word) => text.includes(word))) accounts.push(view);
    }
    const page = accounts.slice(start, start + count);
    return { start, count: page.length, total: accounts.length, serviceAccounts: page };
  }

  async delete(ctx: RequestContext, urn: string): Promise<boolean> {
    await this.require(ctx, 'delete');
    requireUrnOf(urn, [USER], 'urn');
    if (!(await this.stored.exists(urn))) throw new ValidationError(`Service account not found: ${urn}`);
    if (!isServiceAccount(await this.stored.aspect(urn, 'subTypes')))
      throw new ValidationError(`The specified URN is not a service account: ${urn}`);
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: USER, aspect: 'corpUserKey', changeType: 'DELETE' },
    ]);
    return true;
  }

  /** Sets (or, with null, clears) the global view the service account searches with by default. */
  async setDefaultView(ctx: RequestContext, urn: string, viewUrn: string | null): Promise<boolean> {
    await requireAnyOf(this.policy, ctx, MANAGE_SERVICE_ACCOUNTS, {
      message: 'Unauthorized to manage service accounts. Please contact your DataHub administrator.',
    });
    requireUrnOf(urn, [USER], 'urn');
    if (!isServiceAccount(await this.stored.aspect(urn, 'subTypes')))
      throw new ValidationError(`URN ${urn} is not a service account.`);
    if (viewUrn !== null) {
      requireUrnOf(viewUrn, ['dataHubView'], 'defaultView');
      const view = await this.stored.aspect<{ type?: string }>(viewUrn, 'dataHubViewInfo');
      if (view === undefined) throw new ValidationError(`View ${viewUrn} does not exist.`);
      if (view.type !== 'GLOBAL') throw new ValidationError(`View ${viewUrn} is not a global view.`);
    }
    const settings = (await this.stored.aspect<Json>(urn, 'corpUserSettings')) ?? {
      appearance: { showSimplifiedHomepage: false },
    };
    const { defaultView: _dropped, ...views } = (settings['views'] as Json | undefined) ?? {};
    await writeDecided(this.proposals, ctx, [
      {
        urn,
        entityType: USER,
        aspect: 'corpUserSettings',
        value: { ...settings, views: viewUrn === null ? views : { ...views, defaultView: viewUrn } },
      },
    ]);
    return true;
  }

  /** Whether `urn` is a service account (for minting its tokens). */
  async isServiceAccount(urn: string): Promise<boolean> {
    return isServiceAccount(await this.stored.aspect(urn, 'subTypes'));
  }

  private require(ctx: RequestContext, what: string): Promise<void> {
    return requireAnyOf(this.policy, ctx, MANAGE_SERVICE_ACCOUNTS, {
      message: `Unauthorized to ${what} service accounts. Please contact your DataHub administrator.`,
    });
  }
}

function isServiceAccount(subTypes: Json | undefined): boolean {
  const names = subTypes?.['typeNames'];
  return Array.isArray(names) && names.includes(SUB_TYPE);
}

function viewOf(urn: string, values: StoredValues): ServiceAccountView {
  const info = values.get('corpUserInfo');
  const settings = values.get('corpUserSettings');
  const views = settings?.['views'] as Json | undefined;
  const username = urn.slice(`urn:li:${USER}:`.length);
  return {
    urn,
    name: username.startsWith(PREFIX) ? username.slice(PREFIX.length) : username,
    displayName: typeof info?.['displayName'] === 'string' ? info['displayName'] : null,
    description: typeof info?.['title'] === 'string' ? info['title'] : null,
    createdBy: null,
    createdAt: null,
    updatedAt: null,
    defaultViewUrn: typeof views?.['defaultView'] === 'string' ? views['defaultView'] : null,
  };
}
