import type { EntityPatchInput } from '../../application/entity-patches.js';
import type { GraphQLContext } from '../context.js';

/** The ecosystem's generic patch mutations (patch.graphql); application/entity-patches.ts decides and writes. */
export const entityPatchSchema = `
input PatchEntityInput {
  urn: String
  entityType: String
  aspectName: String!
  patch: [PatchOperationInput!]!
  arrayPrimaryKeys: [ArrayPrimaryKeyInput!]
  forceGenericPatch: Boolean
  systemMetadata: SystemMetadataInput
  headers: [StringMapEntryInput!]
}
input PatchOperationInput { op: PatchOperationType! path: String! value: String from: String }
enum PatchOperationType { ADD REMOVE REPLACE MOVE COPY TEST }
input SystemMetadataInput { lastObserved: Long runId: String properties: [StringMapEntryInput!] }
input ArrayPrimaryKeyInput { arrayField: String! keys: [String!]! }
type PatchEntityResult { urn: String! name: String success: Boolean! error: String }

extend type Mutation {
  patchEntity(input: PatchEntityInput!): PatchEntityResult!
  patchEntities(input: [PatchEntityInput!]!): [PatchEntityResult!]!
}
`;

export function entityPatchResolvers() {
  return {
    Mutation: {
      patchEntity: (_r: unknown, args: { input: EntityPatchInput }, ctx: GraphQLContext) =>
        ctx.services.app.entityPatches.patchOne(ctx.auth, args.input),
      patchEntities: (_r: unknown, args: { input: EntityPatchInput[] }, ctx: GraphQLContext) =>
        ctx.services.app.entityPatches.patchMany(ctx.auth, args.input),
    },
  };
}
