import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, ValidationError } from '@catalog/model';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import type { AccessPolicy } from './access-policy.js';
import { pointer, writeDecided, type AspectChange } from './aspect-changes.js';
import { EDIT_PRIVILEGES, requireEdit, type EditPrivileges } from './edit-privileges.js';
import { requireEntityUrn, type NamedEntity } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

/** Where an entity type keeps the description and name its users edit: aspect and field. */
const EDITABLE: Readonly<
  Record<string, { readonly aspect: string; readonly description: string; readonly name?: string }>
> = {
  dataset: { aspect: 'editableDatasetProperties', description: 'description', name: 'name' },
  chart: { aspect: 'editableChartProperties', description: 'description' },
  dashboard: { aspect: 'editableDashboardProperties', description: 'description' },
  dataFlow: { aspect: 'editableDataFlowProperties', description: 'description' },
  dataJob: { aspect: 'editableDataJobProperties', description: 'description' },
  container: { aspect: 'editableContainerProperties', description: 'description' },
  mlModel: { aspect: 'editableMLModelProperties', description: 'description' },
  tag: { aspect: 'tagProperties', description: 'description', name: 'name' },
  glossaryTerm: { aspect: 'glossaryTermInfo', description: 'definition', name: 'name' },
  glossaryNode: { aspect: 'glossaryNodeInfo', description: 'definition', name: 'name' },
  domain: { aspect: 'domainProperties', description: 'description', name: 'name' },
  corpGroup: { aspect: 'corpGroupEditableInfo', description: 'description' },
  dataProduct: { aspect: 'dataProductProperties', description: 'description', name: 'name' },
};

/** A description edit: of the entity, or of one of its schema fields. */
export interface DescriptionEdit {
  readonly description: string;
  readonly resourceUrn: string;
  readonly subResourceType?: string | null;
  readonly subResource?: string | null;
}

/** A deprecation edit. */
export interface DeprecationEdit {
  readonly urn: string;
  readonly deprecated: boolean;
  readonly decommissionTime?: number | null;
  readonly note?: string | null;
}

function editableOf(ref: NamedEntity) {
  const editable = EDITABLE[ref.entity];
  if (editable === undefined)
    throw new ValidationError(`Entities of type ${ref.entity} have no editable description`);
  return editable;
}

const setField = (ref: NamedEntity, aspect: string, path: string, value: unknown): AspectChange => ({
  urn: ref.urn,
  entityType: ref.entity,
  aspect,
  changeType: 'PATCH',
  value: [{ op: 'add', path, value }],
});

/**
 * Descriptions, names, deprecation and domains of existing entities (links: LinkEdits): each needs its edit
 * privilege (or EDIT_ENTITY) on the entity, a field description the column one, asked before anything
 * else. Each change is a patch of one field, or the whole of a small aspect.
 */
export class MetadataEdits {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async updateDescription(ctx: RequestContext, edit: DescriptionEdit): Promise<void> {
    const column = typeof edit.subResource === 'string';
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.description, [{ urn: edit.resourceUrn, column }]);
    const ref = await this.existing(edit.resourceUrn);
    if (edit.subResourceType === 'DATASET_FIELD') {
      if (ref.entity !== 'dataset' || !edit.subResource)
        throw new ValidationError(
          'A field description needs a dataset resource and the field path as subResource',
        );
      const field = `/editableSchemaFieldInfo/${pointer(edit.subResource)}`;
      return this.write(ctx, {
        urn: ref.urn,
        entityType: ref.entity,
        aspect: 'editableSchemaMetadata',
        changeType: 'PATCH',
        value: [
          { op: 'add', path: `${field}/fieldPath`, value: edit.subResource },
          { op: 'add', path: `${field}/description`, value: edit.description },
        ],
      });
    }
    const editable = editableOf(ref);
    await this.write(ctx, setField(ref, editable.aspect, `/${editable.description}`, edit.description));
  }

  async updateName(ctx: RequestContext, urn: string, name: string): Promise<void> {
    const ref =
      requireEntityUrn(urn).entity === 'dataProduct'
        ? await this.dataProductEditable(ctx, urn)
        : await this.editable(ctx, EDIT_PRIVILEGES.name, urn);
    const editable =
      ref.entity === 'corpGroup' ? { aspect: 'corpGroupInfo', name: 'displayName' } : editableOf(ref);
    if (editable.name === undefined)
      throw new ValidationError(`Entities of type ${ref.entity} have no editable name`);
    await this.write(ctx, setField(ref, editable.aspect, `/${editable.name}`, name));
  }

  async updateDeprecation(ctx: RequestContext, edit: DeprecationEdit): Promise<void> {
    const ref = await this.editable(ctx, EDIT_PRIVILEGES.deprecation, edit.urn);
    await this.write(ctx, {
      urn: ref.urn,
      entityType: ref.entity,
      aspect: 'deprecation',
      value: {
        deprecated: edit.deprecated,
        note: edit.note ?? '',
        actor: ctx.authentication.actorUrn,
        ...(edit.decommissionTime === undefined || edit.decommissionTime === null
          ? {}
          : { decommissionTime: edit.decommissionTime }),
      },
    });
  }

  /** Puts the entity in an existing domain (its only one), or in none when `domainUrn` is null. */
  async setDomain(ctx: RequestContext, urn: string, domainUrn: string | null): Promise<void> {
    const ref = await this.editable(ctx, EDIT_PRIVILEGES.domains, urn);
    if (domainUrn !== null) {
      const domain = await this.existing(domainUrn);
      if (domain.entity !== 'domain') throw new ValidationError(`${domainUrn} is not a domain urn`);
    }
    await this.write(ctx, {
      urn: ref.urn,
      entityType: ref.entity,
      aspect: 'domains',
      value: { domains: domainUrn === null ? [] : [domainUrn] },
    });
  }

  /**
   * A data product, once the actor may edit it: EDIT_ENTITY on it, or MANAGE_DATA_PRODUCTS (or
   * EDIT_ENTITY) on one of its domains (the ecosystem's rule; asset-side privileges do not count).
   */
  private async dataProductEditable(ctx: RequestContext, urn: string): Promise<NamedEntity> {
    const ref = await this.existing(urn);
    if (await this.policy.holds(ctx, ['EDIT_ENTITY'], { resourceUrn: ref.urn })) return ref;
    const domains = (await this.stored.aspect<{ domains?: unknown }>(ref.urn, 'domains'))?.domains;
    for (const domain of Array.isArray(domains) ? domains : [])
      if (
        typeof domain === 'string' &&
        (await this.policy.holds(ctx, ['EDIT_ENTITY', 'MANAGE_DATA_PRODUCTS'], { resourceUrn: domain }))
      )
        return ref;
    throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
  }

  /** The entity, once the actor may make the edit on it and it exists. */
  private async editable(ctx: RequestContext, edit: EditPrivileges, urn: string): Promise<NamedEntity> {
    await requireEdit(this.policy, ctx, edit, [{ urn, column: false }]);
    return this.existing(urn);
  }

  private async existing(urn: string): Promise<NamedEntity> {
    const ref = requireEntityUrn(urn);
    if (!(await this.stored.exists(ref.urn)))
      throw new ValidationError(`Failed to update ${ref.urn}: the entity does not exist`);
    return ref;
  }

  private write(ctx: RequestContext, change: AspectChange): Promise<void> {
    return writeDecided(this.proposals, ctx, [change]);
  }
}
