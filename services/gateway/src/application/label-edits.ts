import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { pointer, writeDecided, type AspectChange } from './aspect-changes.js';
import { EDIT_PRIVILEGES, editTargetOf, requireEdit } from './edit-privileges.js';
import { requireEntityUrn, type NamedEntity } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

/** An entity a label edit names, or one of its schema fields (a dataset's `subResource`). */
export interface ResourceInput {
  readonly resourceUrn: string;
  readonly subResourceType?: string | null;
  readonly subResource?: string | null;
}

/** An owner to add: the user or group, and the ownership type (a type urn, or a legacy type name). */
export interface OwnerInput {
  readonly ownerUrn: string;
  readonly ownerEntityType?: string;
  readonly type?: string | null;
  readonly ownershipTypeUrn?: string | null;
}

type LabelKind = 'tag' | 'term';

interface Target {
  readonly ref: NamedEntity;
  readonly field?: string;
}

const DEFAULT_OWNERSHIP_TYPE = 'urn:li:ownershipType:__system__none';

/** The PATCH that adds or removes labels on a resource (or one of its schema fields). */
function labelPatch(kind: LabelKind, add: boolean, labels: readonly string[], target: Target): AspectChange {
  const { ref, field } = target;
  const key = kind === 'tag' ? 'tag' : 'urn';
  const list = kind === 'tag' ? 'tags' : 'terms';
  const container = kind === 'tag' ? 'globalTags' : 'glossaryTerms';
  const prefix =
    field === undefined ? `/${list}` : `/editableSchemaFieldInfo/${pointer(field)}/${container}/${list}`;
  const operations: Record<string, unknown>[] = labels.map((label) =>
    add
      ? { op: 'add', path: `${prefix}/${pointer(label)}`, value: { [key]: label } }
      : { op: 'remove', path: `${prefix}/${pointer(label)}` },
  );
  // A field entry the patch creates needs its own field path.
  if (field !== undefined && add)
    operations.push({
      op: 'add',
      path: `/editableSchemaFieldInfo/${pointer(field)}/fieldPath`,
      value: field,
    });
  return {
    urn: ref.urn,
    entityType: ref.entity,
    aspect: field === undefined ? container : 'editableSchemaMetadata',
    changeType: 'PATCH',
    value: operations,
  };
}

function ownerPatch(
  owners: readonly OwnerInput[],
  ref: NamedEntity,
  fallbackTypeUrn?: string | null,
): AspectChange {
  const operations = owners.map((o) => {
    const typeUrn = o.ownershipTypeUrn ?? fallbackTypeUrn ?? DEFAULT_OWNERSHIP_TYPE;
    const type = o.type ?? (typeUrn === DEFAULT_OWNERSHIP_TYPE ? 'NONE' : 'CUSTOM');
    return {
      op: 'add',
      path: `/owners/${pointer(o.ownerUrn)}/${pointer(type)}`,
      value: { owner: o.ownerUrn, type, typeUrn },
    };
  });
  return {
    urn: ref.urn,
    entityType: ref.entity,
    aspect: 'ownership',
    changeType: 'PATCH',
    value: operations,
  };
}

/**
 * Removes the owners: every ownership of each (a remove by key prefix), or only that of the given
 * ownership type.
 */
function removeOwnersPatch(
  ownerUrns: readonly string[],
  ref: NamedEntity,
  typeUrn?: string | null,
): AspectChange {
  const type =
    typeUrn === undefined || typeUrn === null
      ? undefined
      : typeUrn === DEFAULT_OWNERSHIP_TYPE
        ? 'NONE'
        : 'CUSTOM';
  return {
    urn: ref.urn,
    entityType: ref.entity,
    aspect: 'ownership',
    changeType: 'PATCH',
    value: ownerUrns.map((owner) => ({
      op: 'remove',
      path: `/owners/${pointer(owner)}${type === undefined ? '' : `/${type}`}`,
    })),
  };
}

/**
 * Tags, glossary terms and owners on entities and schema fields. Each needs its edit privilege (or
 * EDIT_ENTITY) on every resource, the column privilege for a schema field, asked before anything else.
 * Each change is a PATCH keyed by the label (tag, term, owner and type), applied by persistence to the
 * latest stored value, so two users labelling one entity at once both keep their label.
 */
export class LabelEdits {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** Adds or removes tags on the resources; added tags must exist. */
  async changeTags(
    ctx: RequestContext,
    add: boolean,
    tagUrns: readonly string[],
    resources: readonly ResourceInput[],
  ): Promise<void> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.tags, resources.map(editTargetOf));
    await this.changeLabels(ctx, 'tag', add, tagUrns, resources);
  }

  /** Adds or removes glossary terms on the resources; added terms must exist. */
  async changeTerms(
    ctx: RequestContext,
    add: boolean,
    termUrns: readonly string[],
    resources: readonly ResourceInput[],
  ): Promise<void> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.terms, resources.map(editTargetOf));
    await this.changeLabels(ctx, 'term', add, termUrns, resources);
  }

  /** Adds existing users or groups as owners of the resources (of `typeUrn` when an owner names none). */
  async addOwners(
    ctx: RequestContext,
    owners: readonly OwnerInput[],
    resources: readonly ResourceInput[],
    typeUrn?: string | null,
  ): Promise<void> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.owners, resources.map(editTargetOf));
    await this.requireOwners(owners);
    const targets = await this.targets(resources);
    await writeDecided(
      this.proposals,
      ctx,
      targets.map((t) => ownerPatch(owners, t.ref, typeUrn)),
    );
  }

  /** Removes owners from the resources: every ownership of each, or only that of `typeUrn`. */
  async removeOwners(
    ctx: RequestContext,
    ownerUrns: readonly string[],
    resources: readonly ResourceInput[],
    typeUrn?: string | null,
  ): Promise<void> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.owners, resources.map(editTargetOf));
    const targets = await this.targets(resources);
    await writeDecided(
      this.proposals,
      ctx,
      targets.map((t) => removeOwnersPatch(ownerUrns, t.ref, typeUrn)),
    );
  }

  private async changeLabels(
    ctx: RequestContext,
    kind: LabelKind,
    add: boolean,
    labels: readonly string[],
    resources: readonly ResourceInput[],
  ): Promise<void> {
    if (labels.length === 0) throw new ValidationError(`No ${kind}s given`);
    if (add) await this.requireLabels(labels, kind === 'tag' ? 'tag' : 'glossaryTerm');
    const targets = await this.targets(resources);
    await writeDecided(
      this.proposals,
      ctx,
      targets.map((t) => labelPatch(kind, add, labels, t)),
    );
  }

  /** The resources, which must exist; a schema field needs a dataset and its field path. */
  private async targets(resources: readonly ResourceInput[]): Promise<Target[]> {
    const refs = resources.map((r) => requireEntityUrn(r.resourceUrn));
    const [missing] = await this.stored.missing(refs.map((r) => r.urn));
    if (missing !== undefined)
      throw new ValidationError(`Failed to update ${missing}: the entity does not exist`);
    return resources.map((input, i) => {
      const ref = refs[i]!;
      if (input.subResourceType !== 'DATASET_FIELD') return { ref };
      if (ref.entity !== 'dataset')
        throw new ValidationError('subResourceType DATASET_FIELD needs a dataset resource');
      if (input.subResource === undefined || input.subResource === null || input.subResource === '')
        throw new ValidationError('subResourceType DATASET_FIELD needs the field path as subResource');
      return { ref, field: input.subResource };
    });
  }

  private async requireLabels(urns: readonly string[], entity: string): Promise<void> {
    for (const urn of urns) {
      if (requireEntityUrn(urn).entity !== entity)
        throw new ValidationError(`Expected a ${entity} urn, got ${JSON.stringify(urn)}`);
    }
    const [missing] = await this.stored.missing(urns);
    if (missing !== undefined)
      throw new ValidationError(`Failed to validate label with urn ${missing}. Urn does not exist.`);
  }

  private async requireOwners(owners: readonly OwnerInput[]): Promise<void> {
    for (const owner of owners) {
      const ref = requireEntityUrn(owner.ownerUrn);
      const expected = owner.ownerEntityType === 'CORP_GROUP' ? 'corpGroup' : 'corpuser';
      if (owner.ownerEntityType !== undefined && ref.entity !== expected)
        throw new ValidationError(`Owner ${owner.ownerUrn} is not a ${owner.ownerEntityType}`);
    }
    const [missing] = await this.stored.missing(owners.map((o) => o.ownerUrn));
    if (missing !== undefined) throw new ValidationError(`Failed to add owner ${missing}: it does not exist`);
  }
}
