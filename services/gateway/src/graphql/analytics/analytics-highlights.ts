import type { GraphQLContext } from '../context.js';

/** The analytics page's highlight cards (analytics.graphql), answered from the catalog's data. */
export const analyticsHighlightsSchema = `
type Highlight {
  value: Int!
  title: String!
  body: String!
}

extend type Query {
  getHighlights: [Highlight!]!
}
`;

export function analyticsHighlightsResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      getHighlights: (_r: unknown, _a: unknown, ctx: GraphQLContext) =>
        ctx.services.app.analytics.highlights(ctx.auth),
    },
  };
}
