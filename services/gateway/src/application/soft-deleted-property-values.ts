import { assignedPropertyUrns, type AspectStore, type StoredAspect } from '@catalog/store';

/**
 * Spec 3.2: reads of entities omit the values of soft-deleted structured properties. Every Rest.li and
 * OpenAPI read passes the aspects it is about to return through here: the `structuredProperties` aspects
 * among them lose the entries whose property's `status` says removed. The values stay stored, so a
 * restore (removed=false) shows them again.
 *
 * The statuses of every property the response names are read in one `getLatestMany` call; a response
 * without a `structuredProperties` aspect (or whose aspects name no property) costs no read at all.
 */
type Aspects = readonly StoredAspect[];
type StatusReader = Pick<AspectStore, 'getLatestMany'>;

const ASSIGNMENT_ASPECT = 'structuredProperties';
const STATUS_ASPECT = 'status';

/** The `properties[]` entries of a structuredProperties value (anything else: none). */
function entriesOf(aspect: StoredAspect): readonly unknown[] {
  const properties = aspect.value['properties'];
  return Array.isArray(properties) ? (properties as unknown[]) : [];
}

function propertyUrnOf(entry: unknown): string | undefined {
  const urn = (entry as { propertyUrn?: unknown } | null)?.propertyUrn;
  return typeof urn === 'string' ? urn : undefined;
}

/** The property urns the structuredProperties aspects among `lists` carry values of. */
function assignedProperties(lists: readonly Aspects[]): Set<string> {
  const urns = new Set<string>();
  for (const aspects of lists)
    for (const aspect of aspects)
      if (aspect.aspect === ASSIGNMENT_ASPECT)
        for (const urn of assignedPropertyUrns(aspect.value)) urns.add(urn);
  return urns;
}

/** Those of `properties` whose status says removed, in one store read. */
async function softDeleted(store: StatusReader, properties: ReadonlySet<string>): Promise<Set<string>> {
  const statuses = await store.getLatestMany([...properties], [STATUS_ASPECT]);
  const removed = new Set<string>();
  for (const [urn, aspects] of statuses)
    if (aspects.some((a) => a.aspect === STATUS_ASPECT && a.value['removed'] === true)) removed.add(urn);
  return removed;
}

function withoutValuesOf(aspect: StoredAspect, hidden: ReadonlySet<string>): StoredAspect {
  const entries = entriesOf(aspect);
  const kept = entries.filter((entry) => {
    const urn = propertyUrnOf(entry);
    return urn === undefined || !hidden.has(urn);
  });
  return kept.length === entries.length
    ? aspect
    : { ...aspect, value: { ...aspect.value, properties: kept } };
}

/**
 * Each list of aspects (one entity's, or one version read) with the values of soft-deleted properties
 * left out, in the order given; lists with nothing to hide are returned as they are.
 */
export async function hideSoftDeletedPropertyValues(
  store: StatusReader,
  lists: readonly Aspects[],
): Promise<readonly Aspects[]> {
  const properties = assignedProperties(lists);
  if (properties.size === 0) return lists;
  const hidden = await softDeleted(store, properties);
  if (hidden.size === 0) return lists;
  return lists.map((aspects) =>
    aspects.some((a) => a.aspect === ASSIGNMENT_ASPECT)
      ? aspects.map((a) => (a.aspect === ASSIGNMENT_ASPECT ? withoutValuesOf(a, hidden) : a))
      : aspects,
  );
}

/** One entity's aspects, as a read returns them (see hideSoftDeletedPropertyValues). */
export async function visibleAspects(store: StatusReader, aspects: Aspects): Promise<Aspects> {
  const [visible] = await hideSoftDeletedPropertyValues(store, [aspects]);
  return visible!;
}

/** One stored aspect (or none), as a read returns it. */
export async function visibleAspect(
  store: StatusReader,
  aspect: StoredAspect | null,
): Promise<StoredAspect | null> {
  return aspect === null ? null : (await visibleAspects(store, [aspect]))[0]!;
}

/** The aspects of many entities by urn (a `getLatestMany` answer), as a read returns them. */
export async function visibleAspectsByUrn(
  store: StatusReader,
  found: ReadonlyMap<string, Aspects>,
): Promise<ReadonlyMap<string, Aspects>> {
  const urns = [...found.keys()];
  const lists = [...found.values()];
  const visible = await hideSoftDeletedPropertyValues(store, lists);
  if (visible === lists) return found;
  return new Map(urns.map((urn, i) => [urn, visible[i]!]));
}
