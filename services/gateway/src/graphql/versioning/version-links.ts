import type { LinkVersionRequest, UnlinkVersionRequest } from '../../application/entity-versioning.js';
import type { GraphQLContext } from '../context.js';
import type { EntityRef } from '../entities/entity-ref.js';

/** Linking entities to version sets and unlinking them (versioning.graphql); application/entity-versioning.ts decides. */
export const versionLinkSchema = `
input LinkVersionInput {
  versionSet: String!
  linkedEntity: String!
  version: String!
  sourceTimestamp: Long
  sourceCreator: String
  comment: String
}

input UnlinkVersionInput {
  versionSet: String
  unlinkedEntity: String
}

extend type Mutation {
  linkAssetVersion(input: LinkVersionInput!): VersionSet
  unlinkAssetVersion(input: UnlinkVersionInput!): VersionSet
}
`;

const versionSetRef = (urn: string | null): EntityRef | null =>
  urn === null ? null : { urn, entity: 'versionSet' };

export function versionLinkResolvers(): Record<string, Record<string, unknown>> {
  return {
    Mutation: {
      linkAssetVersion: async (_r: unknown, { input }: { input: LinkVersionRequest }, ctx: GraphQLContext) =>
        versionSetRef(await ctx.services.app.versioning.link(ctx.auth, input)),
      unlinkAssetVersion: async (
        _r: unknown,
        { input }: { input: UnlinkVersionRequest },
        ctx: GraphQLContext,
      ) => versionSetRef(await ctx.services.app.versioning.unlink(ctx.auth, input)),
    },
  };
}
