import type { GraphQLContext } from '../context.js';
import { searchResolvers } from '../search/search-resolvers.js';
import { auditStamp, customProperties, str } from './aspect-views.js';
import { keyOf, refOf, type EntityRef } from './entity-ref.js';

/**
 * Fields of existing entity types that read more than one aspect of the entity itself: glossary
 * hierarchies (parents to the root, children counted and searched), process-instance properties, and
 * the status of data contracts and incidents.
 */
type Json = Readonly<Record<string, unknown>>;
type Resolver = (ref: EntityRef, args: Record<string, unknown>, ctx: GraphQLContext) => unknown;

const aspect = (ctx: GraphQLContext, ref: EntityRef, name: string): Promise<Json | undefined> =>
  ctx.entities.aspect<Json>(ref.urn, name);

/** How deep a glossary hierarchy is followed: a cycle written by a client stops here too. */
const MAX_GLOSSARY_DEPTH = 100;

/** The glossary nodes above an entity, its parent first and the root last (a cycle ends the walk). */
async function parentNodes(ctx: GraphQLContext, ref: EntityRef, infoAspect: string) {
  const nodes: EntityRef[] = [];
  const seen = new Set([ref.urn]);
  let parent = refOf((await aspect(ctx, ref, infoAspect))?.['parentNode']);
  while (parent !== undefined && !seen.has(parent.urn) && nodes.length < MAX_GLOSSARY_DEPTH) {
    nodes.push(parent);
    seen.add(parent.urn);
    parent = refOf((await aspect(ctx, parent, 'glossaryNodeInfo'))?.['parentNode']);
  }
  return { count: nodes.length, nodes };
}

/** The filter on a glossary node's direct children (`parentNode` of terms and nodes). */
const childOf = (urn: string) => ({ field: 'parentNode', values: [urn], condition: 'EQUAL' as const });

type Conjunction = { readonly and?: readonly unknown[] | null };

/** `orFilters` with the children filter added to each conjunction (one conjunction when none). */
function withParent(urn: string, orFilters: readonly Conjunction[] | null | undefined) {
  const conjunctions =
    orFilters === null || orFilters === undefined || orFilters.length === 0 ? [{}] : orFilters;
  return conjunctions.map((c: Conjunction) => ({ and: [...(c.and ?? []), childOf(urn)] }));
}

type ScrollResolver = (root: unknown, args: { input: unknown }, ctx: GraphQLContext) => Promise<unknown>;
const scrollAcrossEntities = searchResolvers()['Query']?.['scrollAcrossEntities'] as ScrollResolver;

async function childrenCount(ctx: GraphQLContext, ref: EntityRef) {
  const count = async (entity: string) => {
    const page = await ctx.services.app.search.search(ctx.auth, {
      entityTypes: [entity],
      input: '*',
      filter: { or: [{ and: [childOf(ref.urn)] }] },
      start: 0,
      count: 0,
    });
    return page.total;
  };
  const [termsCount, nodesCount] = await Promise.all([count('glossaryTerm'), count('glossaryNode')]);
  return { termsCount, nodesCount };
}

export const READ_FIELD_RESOLVERS: Record<string, Record<string, Resolver>> = {
  GlossaryTerm: {
    parentNodes: (ref, _a, ctx) => parentNodes(ctx, ref, 'glossaryTermInfo'),
  },
  GlossaryNode: {
    parentNodes: (ref, _a, ctx) => parentNodes(ctx, ref, 'glossaryNodeInfo'),
    childrenCount: (ref, _a, ctx) => childrenCount(ctx, ref),
    // The node's direct children (terms and nodes unless the input names types), as a scroll.
    glossaryChildrenSearch: (ref, args, ctx) => {
      const input = (args['input'] ?? {}) as { types?: string[] | null; orFilters?: Conjunction[] | null };
      const types =
        input.types === null || input.types === undefined || input.types.length === 0
          ? ['GLOSSARY_TERM', 'GLOSSARY_NODE']
          : input.types;
      return scrollAcrossEntities(
        null,
        { input: { ...input, types, orFilters: withParent(ref.urn, input.orFilters) } },
        ctx,
      );
    },
  },
  DataProcessInstance: {
    name: async (ref, _a, ctx) =>
      str((await aspect(ctx, ref, 'dataProcessInstanceProperties'))?.['name']) ?? null,
    properties: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'dataProcessInstanceProperties');
      if (value === undefined) return null;
      return {
        name: str(value['name']) ?? str(keyOf(ref)['id']) ?? ref.urn,
        externalUrl: str(value['externalUrl']),
        created: auditStamp(value['created']),
        customProperties: customProperties(value['customProperties'], ref),
      };
    },
  },
  DataContract: {
    status: async (ref, _a, ctx) => {
      const value = await aspect(ctx, ref, 'dataContractStatus');
      return value === undefined ? null : { state: str(value['state']) };
    },
  },
  Incident: {
    status: async (ref, _a, ctx) => {
      const status = (await aspect(ctx, ref, 'incidentInfo'))?.['status'] as Json | undefined;
      if (status === undefined || status === null) return null;
      return {
        state: str(status['state']),
        stage: str(status['stage']),
        message: str(status['message']),
        lastUpdated: auditStamp(status['lastUpdated']),
      };
    },
  },
};
