import type { AspectStore, StoredAspect } from './port.js';

const VALUES_ASPECT = 'structuredProperties';
const DEFAULT_PAGE = 1_000;

/** The property urns a stored `structuredProperties` value assigns (any entry, any attribution). */
export function assignedPropertyUrns(value: Readonly<Record<string, unknown>>): Set<string> {
  const urns = new Set<string>();
  const properties = value['properties'];
  if (!Array.isArray(properties)) return urns;
  for (const entry of properties) {
    const urn = (entry as Record<string, unknown> | null)?.['propertyUrn'];
    if (typeof urn === 'string') urns.add(urn);
  }
  return urns;
}

/**
 * The entities whose stored `structuredProperties` (version 0) assign any of these properties, page by
 * page (keyset paging in urn order over that aspect only), read from the store, the primary copy: the
 * search index may lag, and leaves out values of old property versions, so it cannot say where values
 * remain. Yields each page's holders (possibly none) so callers can report progress as they go.
 */
export async function* structuredPropertyHolders(
  store: Pick<AspectStore, 'scan'>,
  propertyUrns: ReadonlySet<string>,
  pageSize: number = DEFAULT_PAGE,
): AsyncGenerator<readonly StoredAspect[]> {
  if (propertyUrns.size === 0) return;
  let after: string | undefined;
  for (;;) {
    const page = await store.scan({ aspect: VALUES_ASPECT, limit: pageSize, ...(after ? { after } : {}) });
    yield page.items.filter((item) => {
      for (const urn of assignedPropertyUrns(item.value)) if (propertyUrns.has(urn)) return true;
      return false;
    });
    if (page.next === undefined || page.items.length === 0) return;
    after = page.next;
  }
}

/** How many entities still hold values of each property (0 for those none holds). */
export async function countStructuredPropertyHolders(
  store: Pick<AspectStore, 'scan'>,
  propertyUrns: readonly string[],
): Promise<Map<string, number>> {
  const wanted = new Set(propertyUrns);
  const counts = new Map<string, number>(propertyUrns.map((urn) => [urn, 0]));
  for await (const holders of structuredPropertyHolders(store, wanted)) {
    for (const holder of holders)
      for (const urn of assignedPropertyUrns(holder.value))
        if (wanted.has(urn)) counts.set(urn, (counts.get(urn) ?? 0) + 1);
  }
  return counts;
}
