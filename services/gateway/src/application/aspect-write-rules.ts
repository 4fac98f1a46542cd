import type { RequestContext } from '@catalog/auth';
import { entityOperationPrivileges } from '@catalog/auth';
import { entityRegistry, ForbiddenError, parseUrn, type CheckedProposal } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import { unlessUnavailable } from '../auth/auth-unavailable.js';
import type { AccessPolicy } from './access-policy.js';

type Json = Readonly<Record<string, unknown>>;

/** Manage privileges on a data product's domain (the product side of a membership change). */
const MANAGE_ON_DOMAIN = ['EDIT_ENTITY', 'MANAGE_DATA_PRODUCTS'];
/** Asset-side membership privileges, needed on every asset changed. */
const EDIT_ON_ASSET = ['EDIT_ENTITY', 'EDIT_ENTITY_DATA_PRODUCTS'];

/**
 * Whose edit privilege counts for a logical-parent write of `urn`: a schema field's containing entity,
 * then the field itself; any other entity itself.
 */
export function logicalParentCandidates(urn: string): string[] {
  const parsed = parseUrn(urn);
  if (parsed.entityType !== 'schemaField') return [urn];
  try {
    const parent = entityRegistry.keyAspectFromUrn(parsed).value['parent'];
    return typeof parent === 'string' ? [parent, urn] : [urn];
  } catch {
    return [urn];
  }
}

function assetUrns(value: Json | undefined | null): Set<string> {
  const list = value?.['assets'];
  return new Set(
    (Array.isArray(list) ? list : []).flatMap((a) => {
      const urn = (a as Json | null)?.['destinationUrn'];
      return typeof urn === 'string' ? [urn] : [];
    }),
  );
}

/** The asset urns a JSON patch of `dataProductProperties` touches (`/assets/<urn>`), or all when it replaces them. */
function patchedAssets(proposal: CheckedProposal): string[] | 'all' {
  const operations = proposal.patch?.operations ?? [];
  const touched: string[] = [];
  for (const op of operations) {
    const [, field, key] = op.path.split('/');
    if (field !== 'assets') continue;
    if (key === undefined || key === '') return 'all';
    touched.push(key.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return touched;
}

/**
 * Authorization of what some aspects say, beyond the entity's edit privilege (the ecosystem's aspect
 * write validators), whatever route the write comes by:
 * - `logicalParent`: the edit privilege on the proposed parent too (a schema field by its containing
 *   entity or by itself);
 * - `dataProductProperties` changing its assets: MANAGE_DATA_PRODUCTS (or EDIT_ENTITY) on a domain of
 *   the product, or EDIT_ENTITY_DATA_PRODUCTS (or EDIT_ENTITY) on every asset added or removed.
 */
export class AspectWriteRules {
  constructor(
    private readonly store: AspectStore,
    private readonly policy: AccessPolicy,
  ) {}

  async authorize(ctx: RequestContext, proposals: readonly CheckedProposal[]): Promise<void> {
    for (const proposal of proposals) {
      if (proposal.changeType === 'DELETE') continue;
      if (!this.policy.enforcesEntityPrivileges(ctx, proposal.entity.name)) continue;
      if (proposal.aspect.name === 'logicalParent') await this.logicalParent(ctx, proposal);
      if (proposal.aspect.name === 'dataProductProperties') await this.membership(ctx, proposal);
    }
  }

  private async logicalParent(ctx: RequestContext, proposal: CheckedProposal): Promise<void> {
    const parent = ((proposal.value as Json | undefined)?.['parent'] as Json | undefined)?.['destinationUrn'];
    if (typeof parent !== 'string') return;
    for (const candidate of logicalParentCandidates(parent)) {
      const type = parseUrn(candidate).entityType;
      if (await this.policy.holds(ctx, entityOperationPrivileges('UPDATE', type), { resourceUrn: candidate }))
        return;
    }
    throw new ForbiddenError(`Unauthorized to modify logicalParent on entity: ${proposal.urn.raw}`);
  }

  private async membership(ctx: RequestContext, proposal: CheckedProposal): Promise<void> {
    const urn = proposal.urn.raw;
    const read = (aspect: string) =>
      unlessUnavailable('Authorization could not be decided', () => this.store.get(urn, aspect));
    const before = assetUrns((await read('dataProductProperties'))?.value);
    let changed: string[];
    if (proposal.patch !== undefined) {
      const touched = patchedAssets(proposal);
      changed = touched === 'all' ? [...before] : touched;
    } else {
      const after = assetUrns(proposal.value as Json | undefined);
      changed = [...[...after].filter((a) => !before.has(a)), ...[...before].filter((a) => !after.has(a))];
    }
    if (changed.length === 0) return;
    const domains = (await read('domains'))?.value['domains'];
    for (const domain of Array.isArray(domains) ? domains : [])
      if (
        typeof domain === 'string' &&
        (await this.policy.holds(ctx, MANAGE_ON_DOMAIN, { resourceUrn: domain }))
      )
        return;
    for (const asset of changed)
      if (!(await this.policy.holds(ctx, EDIT_ON_ASSET, { resourceUrn: asset })))
        throw new ForbiddenError(`Unauthorized to change the assets of data product ${urn}`);
  }
}
