/** What a subscription's filter keeps: each non-empty list must contain the event's value. */
export interface WebhookFilter {
  readonly urns: readonly string[];
  readonly entityTypes: readonly string[];
  readonly categories: readonly string[];
  readonly operations: readonly string[];
}

export interface DeadLetter {
  readonly webhookId: string;
  readonly entityUrn: string;
  readonly body: string;
  readonly error: string;
  readonly attempts: number;
  readonly time: number;
}

/** The dispatcher's state of one subscription, stored as its `webhookDeliveryState` aspect. */
export interface DeliveryState {
  /** Per platform-event partition, the next offset to consider. */
  readonly positions: Readonly<Record<string, string>>;
  readonly consecutiveDeadLetters: number;
  readonly suspendedAt: number | null;
  readonly suspendedReason: string | null;
  readonly lastDeliveredAt: number | null;
  readonly lastError: string | null;
  readonly replayedThrough: number;
  readonly deadLetters: readonly DeadLetter[];
}

export const EMPTY_DELIVERY_STATE: DeliveryState = {
  positions: {},
  consecutiveDeadLetters: 0,
  suspendedAt: null,
  suspendedReason: null,
  lastDeliveredAt: null,
  lastError: null,
  replayedThrough: 0,
  deadLetters: [],
};

export interface ReplayRequest {
  readonly time: number;
  /** Empty: every dead letter. */
  readonly webhookIds: readonly string[];
}

/** A subscription as the dispatcher needs it (its key decrypted). */
export interface DispatchSubscription {
  readonly urn: string;
  readonly url: string;
  readonly filter: WebhookFilter;
  /** What the managers asked; suspension is the dispatcher's (state.suspendedAt). */
  readonly status: 'ACTIVE' | 'PAUSED';
  readonly resumedAt: number | null;
  /** When it was created: with no position yet, delivery starts with the events from then. */
  readonly createdAt: number;
  /** Who created it: only events about entities this actor may read are delivered. */
  readonly creator: string;
  readonly key: Buffer;
  readonly state: DeliveryState;
  readonly replay: readonly ReplayRequest[];
}

/**
 * Where the dispatcher finds subscriptions and keeps their delivery state (the catalog's webhook
 * entities; the gateway's WebhookDeliveries implements it), and the read decision for their creators.
 */
export interface WebhookSource {
  subscriptions(): Promise<readonly DispatchSubscription[]>;
  saveState(urn: string, state: DeliveryState): Promise<void>;
  mayRead(actorUrn: string, entityUrn: string): Promise<boolean>;
}

/** The parts of an entity change event a filter looks at. */
export interface FilterableEvent {
  readonly entityUrn: string;
  readonly entityType: string;
  readonly category: string;
  readonly operation: string;
}

export function matchesFilter(filter: WebhookFilter, event: FilterableEvent): boolean {
  const keeps = (list: readonly string[], value: string) => list.length === 0 || list.includes(value);
  return (
    keeps(filter.urns, event.entityUrn) &&
    keeps(filter.entityTypes, event.entityType) &&
    keeps(filter.categories, event.category) &&
    keeps(filter.operations, event.operation)
  );
}
