import type { GraphQLContext } from '../context.js';
import type { CreateWebhookInput, UpdateWebhookInput, WebhookView } from '../../application/webhook-admin.js';

/**
 * Webhook subscriptions (the catalog's own; the ecosystem has no outbound webhooks): managed by holders
 * of MANAGE_GLOBAL_SETTINGS through application/webhook-admin.ts, delivered by the webhook dispatcher.
 */
export const webhookSchema = `
input WebhookFilterInput { urns: [String!] entityTypes: [String!] categories: [String!] operations: [String!] }
input CreateWebhookInput {
  name: String!
  url: String!
  description: String
  filter: WebhookFilterInput
  "The signing key (its UTF-8 bytes, or a whsec_ base64 key); absent: one is generated and answered once."
  secret: String
}
input UpdateWebhookInput {
  urn: String!
  name: String
  url: String
  description: String
  filter: WebhookFilterInput
  secret: String
}
enum WebhookStatus { ACTIVE PAUSED SUSPENDED }
type WebhookFilter { urns: [String!]! entityTypes: [String!]! categories: [String!]! operations: [String!]! }
type WebhookDeadLetter {
  webhookId: String!
  entityUrn: String!
  "The change event as it was sent."
  event: String!
  error: String!
  attempts: Int!
  time: Long!
}
type Webhook {
  urn: String!
  name: String!
  url: String!
  description: String
  filter: WebhookFilter!
  status: WebhookStatus!
  suspendedAt: Long
  suspendedReason: String
  createdBy: String!
  createdAt: Long!
  lastDeliveredAt: Long
  lastError: String
  consecutiveFailures: Int!
  deadLetters: [WebhookDeadLetter!]!
}
type CreateWebhookResult {
  webhook: Webhook!
  "The generated signing secret, answered only here; null when the input gave one."
  secret: String
}
type WebhookTestResult { delivered: Boolean! statusCode: Int error: String }

extend type Query {
  webhooks: [Webhook!]!
  webhook(urn: String!): Webhook
}

extend type Mutation {
  createWebhook(input: CreateWebhookInput!): CreateWebhookResult!
  updateWebhook(input: UpdateWebhookInput!): Webhook!
  deleteWebhook(urn: String!): Boolean!
  pauseWebhook(urn: String!): Webhook!
  resumeWebhook(urn: String!): Webhook!
  testWebhook(urn: String!): WebhookTestResult!
  "Delivers dead letters again (those named, or all); answers how many were named and on the list."
  replayWebhookDeadLetters(urn: String!, webhookIds: [String!]): Int!
}
`;

export function webhookResolvers() {
  const webhooks = (ctx: GraphQLContext) => ctx.services.app.webhooks;
  return {
    Query: {
      webhooks: (_r: unknown, _a: unknown, ctx: GraphQLContext): Promise<WebhookView[]> =>
        webhooks(ctx).list(ctx.auth),
      webhook: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        webhooks(ctx).get(ctx.auth, args.urn),
    },
    Mutation: {
      createWebhook: (_r: unknown, args: { input: CreateWebhookInput }, ctx: GraphQLContext) =>
        webhooks(ctx).create(ctx.auth, args.input),
      updateWebhook: (_r: unknown, args: { input: UpdateWebhookInput }, ctx: GraphQLContext) =>
        webhooks(ctx).update(ctx.auth, args.input),
      deleteWebhook: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        webhooks(ctx).delete(ctx.auth, args.urn),
      pauseWebhook: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        webhooks(ctx).setActive(ctx.auth, args.urn, false),
      resumeWebhook: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        webhooks(ctx).setActive(ctx.auth, args.urn, true),
      testWebhook: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        webhooks(ctx).test(ctx.auth, args.urn),
      replayWebhookDeadLetters: (
        _r: unknown,
        args: { urn: string; webhookIds?: string[] | null },
        ctx: GraphQLContext,
      ) => webhooks(ctx).replay(ctx.auth, args.urn, args.webhookIds ?? null),
    },
  };
}
