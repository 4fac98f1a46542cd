import { randomUUID } from 'node:crypto';
import { formatUrn, ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { requireRef } from '../entities/entity-ref.js';
import { writeAspects } from './write-proposals.js';

export const mutationSchema = `
input CreateTagInput { id: String name: String! description: String }
input CreateDomainInput { id: String name: String! description: String parentDomain: String }
input CreateGroupInput { id: String name: String! description: String }
input CreateGlossaryEntityInput { id: String name: String! description: String parentNode: String }

type Mutation {
  createTag(input: CreateTagInput!): String
  deleteTag(urn: String!): Boolean
  createDomain(input: CreateDomainInput!): String
  createGroup(input: CreateGroupInput!): String
  createGlossaryTerm(input: CreateGlossaryEntityInput!): String
  createGlossaryNode(input: CreateGlossaryEntityInput!): String
}
`;

/** The id of a new entity: the one asked for, or a new UUID as the ecosystem makes. */
function idOf(id: string | null | undefined): string {
  if (id === undefined || id === null) return randomUUID();
  const trimmed = id.trim();
  if (trimmed === '') throw new ValidationError('id must not be blank');
  return trimmed;
}

/** `urn` when it is a URN of `entity`, for the parent fields of the create inputs. */
function parentOf(urn: string | null | undefined, entity: string, field: string): string | undefined {
  if (urn === undefined || urn === null) return undefined;
  const ref = requireRef(urn);
  if (ref.entity !== entity)
    throw new ValidationError(`${field} must be a ${entity} urn, got ${JSON.stringify(urn)}`);
  return urn;
}

type Args<T> = { input: T };

export function mutationResolvers(): Record<string, Record<string, unknown>> {
  return {
    Mutation: {
      createTag: async (
        _r: unknown,
        { input }: Args<{ id?: string; name: string; description?: string }>,
        ctx: GraphQLContext,
      ) => {
        const urn = formatUrn('tag', [idOf(input.id)]);
        await writeAspects(ctx, [
          {
            urn,
            entityType: 'tag',
            aspect: 'tagProperties',
            value: { name: input.name, description: input.description },
          },
        ]);
        return urn;
      },
      deleteTag: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        const ref = requireRef(urn);
        if (ref.entity !== 'tag')
          throw new ValidationError(`deleteTag takes a tag urn, got ${JSON.stringify(urn)}`);
        await writeAspects(ctx, [{ urn, entityType: 'tag', aspect: 'tagKey', changeType: 'DELETE' }]);
        return true;
      },
      createDomain: async (
        _r: unknown,
        { input }: Args<{ id?: string; name: string; description?: string; parentDomain?: string }>,
        ctx: GraphQLContext,
      ) => {
        const urn = formatUrn('domain', [idOf(input.id)]);
        const parentDomain = parentOf(input.parentDomain, 'domain', 'parentDomain');
        await writeAspects(ctx, [
          {
            urn,
            entityType: 'domain',
            aspect: 'domainProperties',
            value: { name: input.name, description: input.description, parentDomain },
          },
        ]);
        return urn;
      },
      createGroup: async (
        _r: unknown,
        { input }: Args<{ id?: string; name: string; description?: string }>,
        ctx: GraphQLContext,
      ) => {
        const urn = formatUrn('corpGroup', [idOf(input.id)]);
        await writeAspects(ctx, [
          {
            urn,
            entityType: 'corpGroup',
            aspect: 'corpGroupInfo',
            value: {
              displayName: input.name,
              description: input.description,
              admins: [],
              members: [],
              groups: [],
            },
          },
        ]);
        return urn;
      },
      createGlossaryTerm: async (
        _r: unknown,
        { input }: Args<{ id?: string; name: string; description?: string; parentNode?: string }>,
        ctx: GraphQLContext,
      ) => {
        const urn = formatUrn('glossaryTerm', [idOf(input.id)]);
        const parentNode = parentOf(input.parentNode, 'glossaryNode', 'parentNode');
        await writeAspects(ctx, [
          {
            urn,
            entityType: 'glossaryTerm',
            aspect: 'glossaryTermInfo',
            value: {
              name: input.name,
              definition: input.description ?? '',
              termSource: 'INTERNAL',
              parentNode,
            },
          },
        ]);
        return urn;
      },
      createGlossaryNode: async (
        _r: unknown,
        { input }: Args<{ id?: string; name: string; description?: string; parentNode?: string }>,
        ctx: GraphQLContext,
      ) => {
        const urn = formatUrn('glossaryNode', [idOf(input.id)]);
        const parentNode = parentOf(input.parentNode, 'glossaryNode', 'parentNode');
        await writeAspects(ctx, [
          {
            urn,
            entityType: 'glossaryNode',
            aspect: 'glossaryNodeInfo',
            value: { name: input.name, definition: input.description ?? '', parentNode },
          },
        ]);
        return urn;
      },
    },
  };
}
