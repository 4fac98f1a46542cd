import type { CreateFormInput } from '../../application/form-admin.js';
import type { GraphQLContext } from '../context.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';

/**
 * The ecosystem's form assignment (forms.graphql) and assets' `forms`; application/form-admin.ts decides
 * and writes. A form association shows its form and prompt ids; prompt answers are not served yet.
 */
export const formSchema = `
enum FormType { VERIFICATION COMPLETION }
enum FormPromptType { STRUCTURED_PROPERTY FIELDS_STRUCTURED_PROPERTY }
type FormPromptAssociation { id: String! lastModified: ResolvedAuditStamp! }
type FormAssociation {
  form: Form!
  associatedUrn: String!
  incompletePrompts: [FormPromptAssociation!]
  completedPrompts: [FormPromptAssociation!]
}
type FormVerificationAssociation { form: Form! lastModified: ResolvedAuditStamp }
type Forms {
  incompleteForms: [FormAssociation!]!
  completedForms: [FormAssociation!]!
  verifications: [FormVerificationAssociation!]!
}
extend type Dataset { forms: Forms }
extend type Chart { forms: Forms }

input StructuredPropertyParamsInput { urn: String! }
input CreatePromptInput {
  id: String
  title: String!
  description: String
  type: FormPromptType!
  structuredPropertyParams: StructuredPropertyParamsInput
  required: Boolean
}
input FormActorAssignmentInput { owners: Boolean ownershipTypes: [String!] users: [String!] groups: [String!] }
input CreateFormInput {
  id: String
  name: String!
  description: String
  type: FormType
  prompts: [CreatePromptInput!]
  actors: FormActorAssignmentInput
}
input BatchAssignFormInput { formUrn: String! entityUrns: [String!]! }
input BatchRemoveFormInput { formUrn: String! entityUrns: [String!]! }

extend type Mutation {
  createForm(input: CreateFormInput!): Form!
  batchAssignForm(input: BatchAssignFormInput!): Boolean
  batchRemoveForm(input: BatchRemoveFormInput!): Boolean!
}
`;

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? (value.filter((v) => typeof v === 'object' && v !== null) as Json[]) : [];

const stamp = (value: unknown) => {
  const s = (value ?? {}) as Json;
  return { time: typeof s['time'] === 'number' ? s['time'] : 0, actor: refOf(s['actor']) ?? null };
};
const prompts = (value: unknown) =>
  list(value).map((p) => ({ id: String(p['id'] ?? ''), lastModified: stamp(p['lastModified']) }));

function association(a: Json, owner: EntityRef) {
  const form = refOf(a['urn']);
  return form === undefined
    ? []
    : [
        {
          form,
          associatedUrn: owner.urn,
          incompletePrompts: prompts(a['incompletePrompts']),
          completedPrompts: prompts(a['completedPrompts']),
        },
      ];
}

async function formsOf(ref: EntityRef, _a: unknown, ctx: GraphQLContext) {
  const forms = await ctx.entities.aspect<Json>(ref.urn, 'forms');
  if (forms === undefined) return null;
  return {
    incompleteForms: list(forms['incompleteForms']).flatMap((a) => association(a, ref)),
    completedForms: list(forms['completedForms']).flatMap((a) => association(a, ref)),
    verifications: list(forms['verifications']).flatMap((v) => {
      const form = refOf(v['form']);
      return form === undefined
        ? []
        : [{ form, lastModified: v['lastModified'] ? stamp(v['lastModified']) : null }];
    }),
  };
}

export function formResolvers() {
  const forms = (ctx: GraphQLContext) => ctx.services.app.forms;
  return {
    Dataset: { forms: formsOf },
    Chart: { forms: formsOf },
    Mutation: {
      createForm: async (_r: unknown, args: { input: CreateFormInput }, ctx: GraphQLContext) =>
        refOf(await forms(ctx).create(ctx.auth, args.input)),
      batchAssignForm: async (
        _r: unknown,
        args: { input: { formUrn: string; entityUrns: string[] } },
        ctx: GraphQLContext,
      ) => {
        await forms(ctx).assign(ctx.auth, args.input.formUrn, args.input.entityUrns);
        return true;
      },
      batchRemoveForm: async (
        _r: unknown,
        args: { input: { formUrn: string; entityUrns: string[] } },
        ctx: GraphQLContext,
      ) => {
        await forms(ctx).remove(ctx.auth, args.input.formUrn, args.input.entityUrns);
        return true;
      },
    },
  };
}
