import { CHANGE_CATEGORIES, isUrn, ValidationError } from '@catalog/model';

/**
 * One entity change event as `PlatformEvent_v1` carries it (the ecosystem's EntityChangeEvent JSON
 * payload, name `entityChangeEvent`): what a live subscription streams and a subscription filter matches.
 */
export interface StreamedChangeEvent {
  readonly entityType: string;
  readonly entityUrn: string;
  readonly category: string;
  readonly operation: string;
  readonly modifier?: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly auditStamp: { readonly time: number; readonly actor: string; readonly impersonator?: string };
  readonly version: number;
}

/**
 * Which change events a subscriber asked for: each given list narrows (any of its values matches), an
 * absent or empty list does not. Entity types are registry names (`dataset`, `schemaField`).
 */
export interface ChangeEventFilter {
  readonly urns?: readonly string[];
  readonly entityTypes?: readonly string[];
  readonly categories?: readonly string[];
  readonly operations?: readonly string[];
  /** The urns of who made the change (the event's audit stamp actor). */
  readonly actors?: readonly string[];
}

/** The operations an entity change event has (the ecosystem's ChangeOperation). */
export const CHANGE_OPERATIONS: readonly string[] = [
  'ADD',
  'MODIFY',
  'REMOVE',
  'CREATE',
  'HARD_DELETE',
  'SOFT_DELETE',
  'REINSTATE',
  'STARTED',
  'COMPLETED',
];

/** The most values a filter list may hold: a filter is matched against every event of the stream. */
export const MAX_FILTER_VALUES = 1_000;

/** A filter in the form `matchesChangeEvent` reads: sets, absent for a list that does not narrow. */
export interface CompiledChangeEventFilter {
  readonly urns?: ReadonlySet<string>;
  readonly entityTypes?: ReadonlySet<string>;
  readonly categories?: ReadonlySet<string>;
  readonly operations?: ReadonlySet<string>;
  readonly actors?: ReadonlySet<string>;
}

/**
 * Checks a filter and compiles it; a 400 naming the field and value that cannot match anything (an
 * unknown category or operation, a value that is not a urn), nothing started.
 */
export function compileChangeEventFilter(filter: ChangeEventFilter): CompiledChangeEventFilter {
  const out: {
    urns?: ReadonlySet<string>;
    entityTypes?: ReadonlySet<string>;
    categories?: ReadonlySet<string>;
    operations?: ReadonlySet<string>;
    actors?: ReadonlySet<string>;
  } = {};
  const list = (
    name: string,
    values: readonly string[] | undefined,
    check: (value: string) => string | undefined,
  ): ReadonlySet<string> | undefined => {
    if (values === undefined || values.length === 0) return undefined;
    if (values.length > MAX_FILTER_VALUES)
      throw new ValidationError(
        `filter.${name} lists ${values.length} values; a filter list takes at most ${MAX_FILTER_VALUES}`,
      );
    for (const value of values) {
      const problem = check(value);
      if (problem !== undefined) throw new ValidationError(`filter.${name}: ${problem}`);
    }
    return new Set(values);
  };
  const urn = (value: string) => (isUrn(value) ? undefined : `"${value}" is not a urn`);
  const known = (allowed: readonly string[]) => (value: string) =>
    allowed.includes(value) ? undefined : `unknown value "${value}"; one of ${allowed.join(', ')}`;
  const urns = list('urns', filter.urns, urn);
  if (urns) out.urns = urns;
  const entityTypes = list('types', filter.entityTypes, () => undefined);
  if (entityTypes) out.entityTypes = entityTypes;
  const categories = list('categories', filter.categories, known(CHANGE_CATEGORIES));
  if (categories) out.categories = categories;
  const operations = list('operations', filter.operations, known(CHANGE_OPERATIONS));
  if (operations) out.operations = operations;
  const actors = list('actors', filter.actors, urn);
  if (actors) out.actors = actors;
  return out;
}

/** Whether an event is one the filter asks for (authorization is decided separately, per event). */
export function matchesChangeEvent(filter: CompiledChangeEventFilter, event: StreamedChangeEvent): boolean {
  return (
    (filter.urns === undefined || filter.urns.has(event.entityUrn)) &&
    (filter.entityTypes === undefined || filter.entityTypes.has(event.entityType)) &&
    (filter.categories === undefined || filter.categories.has(event.category)) &&
    (filter.operations === undefined || filter.operations.has(event.operation)) &&
    (filter.actors === undefined || filter.actors.has(event.auditStamp.actor))
  );
}

/**
 * The entity change event a platform event's JSON payload carries, or undefined when it is not one
 * (a payload without the fields every change event has).
 */
export function changeEventOfPayload(payload: unknown): StreamedChangeEvent | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const p = payload as Record<string, unknown>;
  const stamp = p['auditStamp'] as Record<string, unknown> | undefined;
  if (
    typeof p['entityUrn'] !== 'string' ||
    typeof p['entityType'] !== 'string' ||
    typeof p['category'] !== 'string' ||
    typeof p['operation'] !== 'string' ||
    typeof stamp !== 'object' ||
    stamp === null ||
    typeof stamp['time'] !== 'number' ||
    typeof stamp['actor'] !== 'string'
  )
    return undefined;
  return p as unknown as StreamedChangeEvent;
}
