import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, ValidationError } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireEntityUrn } from './entity-urns.js';
import type { Proposals } from './proposals.js';

/** Glossary nodes are nested at most this deep; a longer parent chain is a cycle or corrupt data. */
const MAX_DEPTH = 100;

const INFO_ASPECT: Readonly<Record<string, string>> = {
  glossaryTerm: 'glossaryTermInfo',
  glossaryNode: 'glossaryNodeInfo',
};

/** What `updateParentNode` asks: the term or node to move, and its new parent node (none: the root). */
export interface ParentNodeChange {
  readonly resourceUrn: string;
  readonly parentNode?: string | null;
}

/**
 * Moving glossary terms and nodes in the glossary's hierarchy (the ecosystem's `updateParentNode`): the
 * actor must be able to manage the children of both the current and the new parent (MANAGE_GLOSSARIES,
 * or MANAGE_GLOSSARY_CHILDREN on that node, or MANAGE_ALL_GLOSSARY_CHILDREN on it or a node above it;
 * the root needs MANAGE_GLOSSARIES); a node cannot move under itself or one of its descendants.
 */
export class GlossaryHierarchy {
  constructor(
    private readonly store: AspectStore,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async updateParentNode(ctx: RequestContext, change: ParentNodeChange): Promise<void> {
    const { entity } = requireEntityUrn(change.resourceUrn);
    const infoAspect = INFO_ASPECT[entity];
    if (infoAspect === undefined)
      throw new ValidationError(
        `updateParentNode moves a glossaryTerm or glossaryNode, got ${JSON.stringify(change.resourceUrn)}`,
      );
    const info = await this.info(change.resourceUrn, infoAspect);
    if (info === undefined)
      throw new ValidationError(
        `Failed to update ${change.resourceUrn}: it does not exist or has no ${infoAspect} yet`,
      );
    const parent = change.parentNode ?? undefined;
    let newChain: string[] = [];
    if (parent !== undefined) {
      if (requireEntityUrn(parent).entity !== 'glossaryNode' || (await this.nodeInfo(parent)) === undefined)
        throw new ValidationError(
          `Failed to update ${change.resourceUrn}: ${parent} either does not exist or is not a glossaryNode`,
        );
      newChain = await this.chainFrom(parent);
      if (entity === 'glossaryNode' && newChain.includes(change.resourceUrn))
        throw new ValidationError('Cannot move a glossary node under one of its own descendants.');
    }
    const current = typeof info['parentNode'] === 'string' ? info['parentNode'] : undefined;
    const currentChain = current === undefined ? [] : await this.chainFrom(current);
    if (!(await this.mayManageChildren(ctx, currentChain)) || !(await this.mayManageChildren(ctx, newChain)))
      throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    const { parentNode: _previous, ...rest } = info;
    await writeDecided(this.proposals, ctx, [
      {
        urn: change.resourceUrn,
        entityType: entity,
        aspect: infoAspect,
        value: parent === undefined ? rest : { ...rest, parentNode: parent },
      },
    ]);
  }

  /** Whether the actor may manage the children of the node heading `chain` (the root when empty). */
  private async mayManageChildren(ctx: RequestContext, chain: readonly string[]): Promise<boolean> {
    if (await this.policy.holds(ctx, ['MANAGE_GLOSSARIES'])) return true;
    const [node, ...above] = chain;
    if (node === undefined) return false;
    const children = ['MANAGE_GLOSSARY_CHILDREN', 'MANAGE_ALL_GLOSSARY_CHILDREN'];
    if (await this.policy.holds(ctx, children, { resourceUrn: node })) return true;
    for (const ancestor of above)
      if (await this.policy.holds(ctx, ['MANAGE_ALL_GLOSSARY_CHILDREN'], { resourceUrn: ancestor }))
        return true;
    return false;
  }

  /** The node and the nodes above it, nearest first. */
  private async chainFrom(node: string): Promise<string[]> {
    const chain: string[] = [];
    for (let at: string | undefined = node; at !== undefined && chain.length < MAX_DEPTH;) {
      if (chain.includes(at)) break;
      chain.push(at);
      const info = await this.nodeInfo(at);
      at = typeof info?.['parentNode'] === 'string' ? info['parentNode'] : undefined;
    }
    return chain;
  }

  private nodeInfo(urn: string): Promise<Record<string, unknown> | undefined> {
    return this.info(urn, 'glossaryNodeInfo');
  }

  private async info(urn: string, aspect: string): Promise<Record<string, unknown> | undefined> {
    const [stored] = await this.store.getLatest(urn, [aspect]);
    return stored?.value as Record<string, unknown> | undefined;
  }
}
