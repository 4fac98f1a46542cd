import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, formatUrn, ValidationError } from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';
import type { GraphIndex } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { pointer, writeDecidedOutcomes, type AspectChange } from './aspect-changes.js';
import { newIdOf, requireEntityUrn, requireUrnOfType } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

/** What creating a data product asks for. */
export interface DataProductCreation {
  readonly id?: string | null;
  readonly domainUrn: string;
  readonly name: string;
  readonly description?: string | null;
  readonly parentDataProduct?: string | null;
}

/** What updating a data product asks for: only the fields given change. */
export interface DataProductUpdate {
  readonly name?: string | null;
  readonly description?: string | null;
  readonly parentDataProduct?: string | null;
}

type Json = Readonly<Record<string, unknown>>;

const ENTITY = 'dataProduct';
const PROPERTIES = 'dataProductProperties';
const CONTAINS = 'DataProductContains';
/** The ownership type the ecosystem gives the creator of a data product. */
const CREATOR_OWNERSHIP_TYPE = 'urn:li:ownershipType:__system__technical_owner';
/** Data products looked up per asset when moving it out of the ones it is in. */
const CONTAINING_PAGE = 1000;
/** Parent data products followed this far up (a cycle stops there too). */
const MAX_PARENT_DEPTH = 50;

/** Manage privileges on a data product's domain: MANAGE_DATA_PRODUCTS, or EDIT_ENTITY on the domain. */
const MANAGE_ON_DOMAIN = ['EDIT_ENTITY', 'MANAGE_DATA_PRODUCTS'];
/** Asset-side membership privileges: EDIT_ENTITY or EDIT_ENTITY_DATA_PRODUCTS on each asset. */
const EDIT_ON_ASSET = ['EDIT_ENTITY', 'EDIT_ENTITY_DATA_PRODUCTS'];

function domainsOf(value: Json | undefined): string[] {
  const list = value?.['domains'];
  return Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string') : [];
}

/** The asset urns a `dataProductProperties` value lists. */
export function assetsOf(value: Json | undefined): string[] {
  const list = value?.['assets'];
  if (!Array.isArray(list)) return [];
  return list.flatMap((a) => {
    const urn = (a as Json | null)?.['destinationUrn'];
    return typeof urn === 'string' ? [urn] : [];
  });
}

/**
 * Data products: creating, updating and deleting them, and which assets they hold. The ecosystem's
 * privileges: creating, updating and changing membership from the product side need MANAGE_DATA_PRODUCTS
 * (or EDIT_ENTITY) on a domain of the product; deleting needs that or the delete privilege on the
 * product; adding or removing assets from the asset side needs EDIT_ENTITY_DATA_PRODUCTS (or
 * EDIT_ENTITY) on every asset. Membership is the product's `dataProductProperties.assets`, changed by
 * patches keyed by asset urn, so concurrent membership changes lose nothing.
 */
export class DataProducts {
  constructor(
    private readonly stored: StoredEntities,
    private readonly graph: GraphIndex,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    /** Membership changes are answered once indexed: the next batch finds the products an asset is in. */
    private readonly waitForIndex: (outcomes: readonly ProposalOutcome[]) => Promise<void>,
  ) {}

  async create(ctx: RequestContext, input: DataProductCreation): Promise<string> {
    const domainUrn = requireUrnOfType(input.domainUrn, 'domain');
    if (!(await this.stored.exists(domainUrn)))
      throw new ValidationError(`The Domain provided does not exist: ${domainUrn}`);
    await this.requireManage(ctx, [domainUrn]);
    const parent = await this.parentOf(input.parentDataProduct);
    if (input.name.trim() === '') throw new ValidationError('name must not be blank');
    const urn = formatUrn(ENTITY, [newIdOf(input.id)]);
    if (await this.stored.exists(urn)) throw new ValidationError(`Data product ${urn} already exists`);
    const actor = ctx.authentication.actorUrn;
    const now = Date.now();
    await this.write(ctx, [
      {
        urn,
        entityType: ENTITY,
        aspect: PROPERTIES,
        value: {
          name: input.name,
          ...(input.description === undefined || input.description === null
            ? {}
            : { description: input.description }),
          ...(parent === undefined ? {} : { parentDataProduct: parent }),
          assets: [],
        },
      },
      { urn, entityType: ENTITY, aspect: 'domains', value: { domains: [domainUrn] } },
      {
        urn,
        entityType: ENTITY,
        aspect: 'ownership',
        value: {
          owners: [{ owner: actor, type: 'TECHNICAL_OWNER', typeUrn: CREATOR_OWNERSHIP_TYPE }],
          lastModified: { time: now, actor },
        },
      },
    ]);
    return urn;
  }

  async update(ctx: RequestContext, urn: string, input: DataProductUpdate): Promise<string> {
    const product = await this.existing(urn);
    await this.requireManageOf(ctx, product);
    const parent = await this.parentOf(input.parentDataProduct);
    if (parent !== undefined && (await this.ancestorsOf(parent)).concat(parent).includes(product))
      throw new ValidationError('Cannot move a data product under one of its own descendants.');
    const set: [string, unknown][] = [];
    if (input.name !== undefined && input.name !== null) set.push(['name', input.name]);
    if (input.description !== undefined && input.description !== null)
      set.push(['description', input.description]);
    if (parent !== undefined) set.push(['parentDataProduct', parent]);
    if (set.length > 0)
      await this.write(ctx, [
        {
          urn: product,
          entityType: ENTITY,
          aspect: PROPERTIES,
          changeType: 'PATCH',
          value: set.map(([field, value]) => ({ op: 'add', path: `/${field}`, value })),
        },
      ]);
    return product;
  }

  /** Deletes the data product (its assets stay; their membership goes with it). */
  async delete(ctx: RequestContext, urn: string): Promise<void> {
    const product = await this.existing(urn);
    const domains = domainsOf(await this.stored.aspect(product, 'domains'));
    if (!(await this.mayManage(ctx, domains)))
      await this.policy.require(ctx, {
        privileges: [['DELETE_ENTITY']],
        resourceUrn: product,
        message: UNAUTHORIZED_MESSAGE,
      });
    await this.write(ctx, [
      { urn: product, entityType: ENTITY, aspect: 'dataProductKey', changeType: 'DELETE' },
    ]);
  }

  /**
   * Puts every asset in the data product and out of any other it was in (one product per asset), or,
   * without a data product, out of every one it is in.
   */
  async batchSet(ctx: RequestContext, dataProductUrn: string | null, assetUrns: readonly string[]) {
    const assets = assetUrns.map((u) => requireEntityUrn(u).urn);
    if (dataProductUrn === null) {
      await this.requireExisting(assets, 'resource');
      await this.requireEditOnAssets(ctx, assets);
      await this.removeFromAll(ctx, assets, undefined);
      return;
    }
    const product = await this.existing(dataProductUrn);
    await this.requireManageOf(ctx, product);
    await this.requireExisting(assets, 'resource');
    await this.removeFromAll(ctx, assets, product);
    await this.addAssets(ctx, product, assets);
  }

  /** Adds every asset to each data product (an asset may be in several). */
  async batchAdd(ctx: RequestContext, productUrns: readonly string[], assetUrns: readonly string[]) {
    const assets = assetUrns.map((u) => requireEntityUrn(u).urn);
    const products = productUrns.map((u) => requireUrnOfType(u, ENTITY));
    await this.requireExisting(assets, 'resource');
    await this.requireEditOnAssets(ctx, assets);
    await this.requireExisting(products, 'data product');
    for (const product of products) await this.addAssets(ctx, product, assets);
  }

  /** Removes every asset from each data product. */
  async batchRemove(ctx: RequestContext, productUrns: readonly string[], assetUrns: readonly string[]) {
    const assets = assetUrns.map((u) => requireEntityUrn(u).urn);
    const products = productUrns.map((u) => requireUrnOfType(u, ENTITY));
    await this.requireExisting(assets, 'resource');
    await this.requireEditOnAssets(ctx, assets);
    await this.requireExisting(products, 'data product');
    for (const product of products) await this.removeAssets(ctx, product, assets);
  }

  /** The asset urns a data product holds (read as its single read: 403 when the actor may not). */
  async assets(ctx: RequestContext, urn: string): Promise<string[]> {
    const product = requireUrnOfType(urn, ENTITY);
    await this.policy.readEntity(ctx, product);
    return assetsOf(await this.stored.aspect(product, PROPERTIES));
  }

  /** The parent data products of one, nearest first (the chain stops at a cycle). */
  async ancestorsOf(urn: string): Promise<string[]> {
    const chain: string[] = [];
    let next = (await this.stored.aspect(urn, PROPERTIES))?.['parentDataProduct'];
    while (
      typeof next === 'string' &&
      !chain.includes(next) &&
      next !== urn &&
      chain.length < MAX_PARENT_DEPTH
    ) {
      chain.push(next);
      next = (await this.stored.aspect(next, PROPERTIES))?.['parentDataProduct'];
    }
    return chain;
  }

  private async addAssets(ctx: RequestContext, product: string, assets: readonly string[]) {
    if (assets.length === 0) return;
    await this.write(ctx, [
      {
        urn: product,
        entityType: ENTITY,
        aspect: PROPERTIES,
        changeType: 'PATCH',
        value: assets.map((asset) => ({
          op: 'add',
          path: `/assets/${pointer(asset)}`,
          value: { destinationUrn: asset, created: { time: Date.now(), actor: ctx.authentication.actorUrn } },
        })),
      },
    ]);
  }

  private async removeAssets(ctx: RequestContext, product: string, assets: readonly string[]) {
    const held = new Set(assetsOf(await this.stored.aspect(product, PROPERTIES)));
    const present = assets.filter((a) => held.has(a));
    if (present.length === 0) return;
    await this.write(ctx, [
      {
        urn: product,
        entityType: ENTITY,
        aspect: PROPERTIES,
        changeType: 'PATCH',
        value: present.map((asset) => ({ op: 'remove', path: `/assets/${pointer(asset)}` })),
      },
    ]);
  }

  /** Takes the assets out of every data product holding them (but `keep`), as the graph links them. */
  private async removeFromAll(ctx: RequestContext, assets: readonly string[], keep: string | undefined) {
    const byProduct = new Map<string, string[]>();
    for (const asset of assets) {
      const found = await this.graph.related({
        urn: asset,
        direction: 'INCOMING',
        types: [CONTAINS],
        start: 0,
        count: CONTAINING_PAGE,
      });
      for (const { entity } of found.relationships) {
        if (entity === keep) continue;
        byProduct.set(entity, [...(byProduct.get(entity) ?? []), asset]);
      }
    }
    for (const [product, held] of byProduct) await this.removeAssets(ctx, product, held);
  }

  private async existing(urn: string): Promise<string> {
    const product = requireUrnOfType(urn, ENTITY);
    if (!(await this.stored.exists(product)))
      throw new ValidationError(`The Data Product provided does not exist: ${product}`);
    return product;
  }

  private async requireExisting(urns: readonly string[], what: string): Promise<void> {
    const [missing] = await this.stored.missing(urns);
    if (missing !== undefined)
      throw new ValidationError(`Failed to update data products, ${what} ${missing} does not exist`);
  }

  private async parentOf(urn: string | null | undefined): Promise<string | undefined> {
    if (urn === undefined || urn === null) return undefined;
    const parent = requireEntityUrn(urn);
    if (parent.entity !== ENTITY) throw new ValidationError('Parent entity is not a data product.');
    if (!(await this.stored.exists(parent.urn)))
      throw new ValidationError(`Parent Data Product does not exist: ${parent.urn}`);
    return parent.urn;
  }

  private async mayManage(ctx: RequestContext, domains: readonly string[]): Promise<boolean> {
    if (ctx.authentication.isSystem) return true;
    for (const domain of domains)
      if (await this.policy.holds(ctx, MANAGE_ON_DOMAIN, { resourceUrn: domain })) return true;
    return false;
  }

  private async requireManage(ctx: RequestContext, domains: readonly string[]): Promise<void> {
    if (!(await this.mayManage(ctx, domains))) throw forbidden();
  }

  private async requireManageOf(ctx: RequestContext, product: string): Promise<void> {
    await this.requireManage(ctx, domainsOf(await this.stored.aspect(product, 'domains')));
  }

  private async requireEditOnAssets(ctx: RequestContext, assets: readonly string[]): Promise<void> {
    for (const asset of assets)
      if (!(await this.policy.holds(ctx, EDIT_ON_ASSET, { resourceUrn: asset }))) throw forbidden();
  }

  private async write(ctx: RequestContext, changes: readonly AspectChange[]): Promise<void> {
    await this.waitForIndex(await writeDecidedOutcomes(this.proposals, ctx, changes));
  }
}

function forbidden(): ForbiddenError {
  return new ForbiddenError(UNAUTHORIZED_MESSAGE);
}
