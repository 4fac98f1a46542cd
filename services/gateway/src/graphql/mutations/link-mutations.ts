import type { LinkInput } from '../../application/link-edits.js';
import type { GraphQLContext } from '../context.js';

/** Links of entities (application/link-edits.ts decides and writes each), with the ecosystem's inputs. */
export const linkMutationSchema = `
type InstitutionalMemoryMetadataSettings { showInAssetPreview: Boolean! }
extend type InstitutionalMemoryMetadata {
  updated: AuditStamp
  settings: InstitutionalMemoryMetadataSettings
}

input LinkSettingsInput { showInAssetPreview: Boolean }
input AddLinkInput { linkUrl: String! label: String! resourceUrn: String! settings: LinkSettingsInput }
input UpdateLinkInput {
  currentUrl: String!
  currentLabel: String!
  linkUrl: String!
  label: String!
  settings: LinkSettingsInput
  resourceUrn: String!
}
input UpsertLinkInput { linkUrl: String! label: String! resourceUrn: String! settings: LinkSettingsInput }
input RemoveLinkInput { linkUrl: String! label: String resourceUrn: String! }

extend type Mutation {
  addLink(input: AddLinkInput!): Boolean
  updateLink(input: UpdateLinkInput!): Boolean
  upsertLink(input: UpsertLinkInput!): Boolean
  removeLink(input: RemoveLinkInput!): Boolean
}
`;

interface LinkArgs {
  readonly input: {
    readonly linkUrl: string;
    readonly label: string;
    readonly resourceUrn: string;
    readonly settings?: LinkInput['settings'];
  };
}
interface UpdateArgs {
  readonly input: LinkArgs['input'] & { readonly currentUrl: string; readonly currentLabel: string };
}
interface RemoveArgs {
  readonly input: { readonly linkUrl: string; readonly label?: string | null; readonly resourceUrn: string };
}

const linkOf = (input: LinkArgs['input']): LinkInput => ({
  url: input.linkUrl,
  label: input.label,
  ...(input.settings === undefined ? {} : { settings: input.settings }),
});

export function linkMutationResolvers() {
  const links = (ctx: GraphQLContext) => ctx.services.app.linkEdits;
  return {
    Mutation: {
      addLink: async (_r: unknown, { input }: LinkArgs, ctx: GraphQLContext) => {
        await links(ctx).addLink(ctx.auth, input.resourceUrn, linkOf(input));
        return true;
      },
      updateLink: async (_r: unknown, { input }: UpdateArgs, ctx: GraphQLContext) => {
        await links(ctx).updateLink(ctx.auth, input.resourceUrn, {
          ...linkOf(input),
          currentUrl: input.currentUrl,
          currentLabel: input.currentLabel,
        });
        return true;
      },
      upsertLink: async (_r: unknown, { input }: LinkArgs, ctx: GraphQLContext) => {
        await links(ctx).upsertLink(ctx.auth, input.resourceUrn, linkOf(input));
        return true;
      },
      removeLink: async (_r: unknown, { input }: RemoveArgs, ctx: GraphQLContext) => {
        await links(ctx).removeLink(ctx.auth, input.resourceUrn, input.linkUrl, input.label);
        return true;
      },
    },
  };
}
