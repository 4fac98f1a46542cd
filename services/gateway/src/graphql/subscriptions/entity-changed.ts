import { createGraphQLError } from 'graphql-yoga';
import type { StreamedChangeEvent } from '../../application/change-event-filter.js';
import type { StreamItem } from '../../application/change-subscriptions.js';
import type { GraphQLContext } from '../context.js';
import { entityOfType, typeOfEntity } from '../entities/entity-types.js';

/**
 * `subscription { entityChanged(filter) }`: the entity change events of PlatformEvent_v1 as they happen,
 * served over Server-Sent Events (event-stream.ts). The event type has the ecosystem's EntityChangeEvent
 * fields (its GraphQL schema has no subscription; the record is platform.event.v1's).
 */
export const entityChangedSchema = `
"""A semantic change of an entity: the ecosystem's EntityChangeEvent, as PlatformEvent_v1 carries it."""
type EntityChangeEvent {
  entityUrn: String!
  entityType: EntityType!
  category: String!
  operation: String!
  modifier: String
  parameters: [StringMapEntry!]
  auditStamp: AuditStamp!
  version: Int!
}
"""Which change events a subscription receives; each list given narrows, to any of its values."""
input EntityChangedFilter {
  urns: [String!]
  types: [EntityType!]
  categories: [String!]
  operations: [String!]
  actors: [String!]
}
type Subscription {
  """Change events of the entities the caller may read, from now on or after the SSE Last-Event-ID."""
  entityChanged(filter: EntityChangedFilter): EntityChangeEvent!
}
`;

interface EntityChangedFilterInput {
  readonly urns?: readonly string[] | null;
  readonly types?: readonly string[] | null;
  readonly categories?: readonly string[] | null;
  readonly operations?: readonly string[] | null;
  readonly actors?: readonly string[] | null;
}

/** The request an SSE stream was opened by, and its response (the server context yoga merges in). */
interface StreamRequestContext {
  readonly request?: { readonly headers: { get(name: string): string | null }; readonly signal: AbortSignal };
  readonly res?: { readonly writableFinished?: boolean; destroy(): void };
}

/** How long a stream closed for a slow client may take to flush its last event before it is cut. */
const SLOW_CLIENT_GRACE_MS = 5_000;

/** Where the SSE writer finds the position of the event it is writing (event-stream.ts). */
export const STREAM_POSITION = Symbol('streamPosition');

export function entityChangedResolvers(): Record<string, Record<string, unknown>> {
  return {
    Subscription: {
      entityChanged: {
        subscribe: async (
          _root: unknown,
          args: { filter?: EntityChangedFilterInput | null },
          ctx: GraphQLContext & StreamRequestContext,
        ): Promise<AsyncIterable<StreamItem>> => {
          const filter = args.filter ?? {};
          const after = ctx.request?.headers.get('last-event-id') ?? undefined;
          const signal = ctx.request?.signal;
          const res = ctx.res;
          return ctx.services.app.changeSubscriptions.subscribe(ctx.auth, {
            // A client too slow gets its last (error) event once it reads again; one that reads nothing
            // is cut after a grace period, so that its connection and buffers are not held.
            onOverflow: () => {
              setTimeout(() => {
                if (res !== undefined && res.writableFinished !== true) res.destroy();
              }, SLOW_CLIENT_GRACE_MS).unref();
            },
            filter: {
              ...(filter.urns ? { urns: filter.urns } : {}),
              ...(filter.types ? { entityTypes: filter.types.map(entityOfType) } : {}),
              ...(filter.categories ? { categories: filter.categories } : {}),
              ...(filter.operations ? { operations: filter.operations } : {}),
              ...(filter.actors ? { actors: filter.actors } : {}),
            },
            ...(after === undefined || after === '' ? {} : { after }),
            ...(signal === undefined ? {} : { signal }),
          });
        },
        resolve: (item: StreamItem, _args: unknown, ctx: GraphQLContext & StreamPositionSlot) => {
          if (item.kind === 'overflow') {
            ctx[STREAM_POSITION] = undefined;
            throw createGraphQLError(
              `The stream was closed: more than ${item.maxBufferedEvents} change events waited for this ` +
                'client (GRAPHQL_SUBSCRIPTION_BUFFER_EVENTS); reconnect with the last event id to resume',
              { extensions: { code: 429, type: 'TOO_MANY_REQUESTS', classification: 'SlowConsumer' } },
            );
          }
          ctx[STREAM_POSITION] = item.position;
          return item.event;
        },
      },
    },
    EntityChangeEvent: {
      entityType: (event: StreamedChangeEvent) => typeOfEntity(event.entityType),
      parameters: (event: StreamedChangeEvent) =>
        event.parameters === undefined
          ? null
          : Object.entries(event.parameters).map(([key, value]) => ({
              key,
              value:
                value === null || value === undefined
                  ? null
                  : typeof value === 'string'
                    ? value
                    : JSON.stringify(value),
            })),
    },
  };
}

/** The context slot the resolver leaves an event's position in, for the SSE writer. */
export interface StreamPositionSlot {
  [STREAM_POSITION]?: string | undefined;
}
