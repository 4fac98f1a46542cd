import { ValidationError } from '@catalog/model';
import {
  structuredPropertyNamesOf,
  type AutocompleteRequest,
  type BrowseRequest,
  type SearchIndex,
  type SearchRequest,
} from '@catalog/search';
import type { AspectStore } from '@catalog/store';

const DEFINITION = 'propertyDefinition';
const STATUS = 'status';

/**
 * The search index with its searches, browses and autocompletes checked first against the store's
 * structured properties (spec 3.2 and 7): a request naming a soft-deleted property is refused ("Cannot
 * filter on deleted Structured Property [urn]"), one naming a hard-deleted property as unknown, even
 * while the index's definitions view has not caught up with the store (the distributed family's
 * indexer consumes the change log after the write is answered). The index then checks as it knows.
 */
export function withStructuredPropertyChecks(index: SearchIndex, store: AspectStore): SearchIndex {
  const checked: Pick<SearchIndex, 'search' | 'browse' | 'autocomplete'> = {
    search: async (request: SearchRequest) => {
      await refuseDeletedProperties(index, store, request);
      return index.search(request);
    },
    browse: async (request: BrowseRequest) => {
      await refuseDeletedProperties(index, store, request);
      return index.browse(request);
    },
    autocomplete: async (request: AutocompleteRequest) => {
      await refuseDeletedProperties(index, store, request);
      return index.autocomplete(request);
    },
  };
  return new Proxy(index, {
    get(target, property) {
      if (property === 'search' || property === 'browse' || property === 'autocomplete')
        return checked[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Throws ValidationError when a structured property the request names is soft-deleted or gone in the
 * store. Each name refers to the view's holder of its exact qualified name, else of its `_` form (as
 * the index resolves it); a name no holder has is left to the index (unknown there too).
 */
export async function refuseDeletedProperties(
  index: SearchIndex,
  store: AspectStore,
  request: SearchRequest | BrowseRequest | AutocompleteRequest,
): Promise<void> {
  const names = structuredPropertyNamesOf(request);
  if (names.length === 0) return;
  const holders = (
    await index.structuredPropertyNameHolders([...new Set(names.map((n) => n.normalizedName))])
  ).filter((h) => h.state !== 'retired');
  if (holders.length === 0) return;
  const stored = await store.getLatestMany([...new Set(holders.map((h) => h.urn))], [DEFINITION, STATUS]);
  const stateOf = (urn: string) => {
    const aspects = stored.get(urn) ?? [];
    return {
      exists: aspects.some((a) => a.aspect === DEFINITION),
      removed: aspects.find((a) => a.aspect === STATUS)?.value['removed'] === true,
    };
  };
  for (const name of names) {
    const candidates = holders.filter((h) => h.normalizedName === name.normalizedName);
    const holder =
      candidates.find((h) => h.qualifiedName === name.qualifiedName) ??
      candidates.find((h) => stateOf(h.urn).exists && !stateOf(h.urn).removed) ??
      candidates[0];
    if (holder === undefined) continue;
    const state = stateOf(holder.urn);
    if (!state.exists)
      throw new ValidationError(
        `Unknown structured property field "${name.name}": no structured property has the qualified name ` +
          `${holder.qualifiedName}`,
      );
    if (state.removed)
      throw new ValidationError(`Cannot filter on deleted Structured Property [${holder.urn}]`);
  }
}
