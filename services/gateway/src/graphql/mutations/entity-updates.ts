import { ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { requireRef, type EntityRef } from '../entities/entity-ref.js';
import { pointer } from './label-mutations.js';
import { writeAspects, type AspectChange } from './write-proposals.js';

/** Descriptions, names, deprecation, links and domains: each a patch or a whole small aspect. */
export const entityUpdateSchema = `
input DescriptionUpdateInput {
  description: String!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}
input UpdateNameInput { name: String! urn: String! }
input UpdateDeprecationInput { urn: String! deprecated: Boolean! decommissionTime: Long note: String }
input AddLinkInput { linkUrl: String! label: String! resourceUrn: String! }
input RemoveLinkInput { linkUrl: String! resourceUrn: String! }

extend type Mutation {
  updateDescription(input: DescriptionUpdateInput!): Boolean
  updateName(input: UpdateNameInput!): Boolean
  updateDeprecation(input: UpdateDeprecationInput!): Boolean
  addLink(input: AddLinkInput!): Boolean
  removeLink(input: RemoveLinkInput!): Boolean
  setDomain(entityUrn: String!, domainUrn: String!): Boolean
  unsetDomain(entityUrn: String!): Boolean
}
`;

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

async function existing(ctx: GraphQLContext, urn: string): Promise<EntityRef> {
  const ref = requireRef(urn);
  if ((await ctx.entities.load(ref.urn)).size === 0)
    throw new ValidationError(`Failed to update ${ref.urn}: the entity does not exist`);
  return ref;
}

function editableOf(ref: EntityRef) {
  const editable = EDITABLE[ref.entity];
  if (editable === undefined)
    throw new ValidationError(`Entities of type ${ref.entity} have no editable description`);
  return editable;
}

const setField = (ref: EntityRef, aspect: string, path: string, value: unknown): AspectChange => ({
  urn: ref.urn,
  entityType: ref.entity,
  aspect,
  changeType: 'PATCH',
  value: [{ op: 'add', path, value }],
});

type Resolver<T> = (root: unknown, args: T, ctx: GraphQLContext) => Promise<boolean>;

export function entityUpdateResolvers(): Record<string, Record<string, Resolver<never>>> {
  const resolvers = {
    updateDescription: (async (_r, { input }, ctx) => {
      const ref = await existing(ctx, input.resourceUrn);
      if (input.subResourceType === 'DATASET_FIELD') {
        if (ref.entity !== 'dataset' || !input.subResource)
          throw new ValidationError(
            'A field description needs a dataset resource and the field path as subResource',
          );
        const field = `/editableSchemaFieldInfo/${pointer(input.subResource)}`;
        await writeAspects(ctx, [
          {
            urn: ref.urn,
            entityType: ref.entity,
            aspect: 'editableSchemaMetadata',
            changeType: 'PATCH',
            value: [
              { op: 'add', path: `${field}/fieldPath`, value: input.subResource },
              { op: 'add', path: `${field}/description`, value: input.description },
            ],
          },
        ]);
        return true;
      }
      const editable = editableOf(ref);
      await writeAspects(ctx, [
        setField(ref, editable.aspect, `/${editable.description}`, input.description),
      ]);
      return true;
    }) as Resolver<{
      input: {
        description: string;
        resourceUrn: string;
        subResourceType?: string | null;
        subResource?: string | null;
      };
    }>,
    updateName: (async (_r, { input }, ctx) => {
      const ref = await existing(ctx, input.urn);
      const editable =
        ref.entity === 'corpGroup' ? { aspect: 'corpGroupInfo', name: 'displayName' } : editableOf(ref);
      if (editable.name === undefined)
        throw new ValidationError(`Entities of type ${ref.entity} have no editable name`);
      await writeAspects(ctx, [setField(ref, editable.aspect, `/${editable.name}`, input.name)]);
      return true;
    }) as Resolver<{ input: { name: string; urn: string } }>,
    updateDeprecation: (async (_r, { input }, ctx) => {
      const ref = await existing(ctx, input.urn);
      await writeAspects(ctx, [
        {
          urn: ref.urn,
          entityType: ref.entity,
          aspect: 'deprecation',
          value: {
            deprecated: input.deprecated,
            note: input.note ?? '',
            actor: ctx.actor,
            ...(input.decommissionTime === undefined || input.decommissionTime === null
              ? {}
              : { decommissionTime: input.decommissionTime }),
          },
        },
      ]);
      return true;
    }) as Resolver<{
      input: { urn: string; deprecated: boolean; decommissionTime?: number | null; note?: string | null };
    }>,
    addLink: (async (_r, { input }, ctx) => {
      const ref = await existing(ctx, input.resourceUrn);
      const element = {
        url: input.linkUrl,
        description: input.label,
        createStamp: { time: Date.now(), actor: ctx.actor },
      };
      await writeAspects(ctx, [
        setField(ref, 'institutionalMemory', `/elements/${pointer(input.linkUrl)}`, element),
      ]);
      return true;
    }) as Resolver<{ input: { linkUrl: string; label: string; resourceUrn: string } }>,
    removeLink: (async (_r, { input }, ctx) => {
      const ref = await existing(ctx, input.resourceUrn);
      await writeAspects(ctx, [
        {
          urn: ref.urn,
          entityType: ref.entity,
          aspect: 'institutionalMemory',
          changeType: 'PATCH',
          value: [{ op: 'remove', path: `/elements/${pointer(input.linkUrl)}` }],
        },
      ]);
      return true;
    }) as Resolver<{ input: { linkUrl: string; resourceUrn: string } }>,
    setDomain: (async (_r, { entityUrn, domainUrn }, ctx) => {
      const ref = await existing(ctx, entityUrn);
      const domain = await existing(ctx, domainUrn);
      if (domain.entity !== 'domain') throw new ValidationError(`${domainUrn} is not a domain urn`);
      await writeAspects(ctx, [
        { urn: ref.urn, entityType: ref.entity, aspect: 'domains', value: { domains: [domainUrn] } },
      ]);
      return true;
    }) as Resolver<{ entityUrn: string; domainUrn: string }>,
    unsetDomain: (async (_r, { entityUrn }, ctx) => {
      const ref = await existing(ctx, entityUrn);
      await writeAspects(ctx, [
        { urn: ref.urn, entityType: ref.entity, aspect: 'domains', value: { domains: [] } },
      ]);
      return true;
    }) as Resolver<{ entityUrn: string }>,
  } satisfies Record<string, Resolver<never>>;
  return { Mutation: resolvers };
}
