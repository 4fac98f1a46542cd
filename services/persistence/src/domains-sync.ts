import { isDeepStrictEqual } from 'node:util';
import { ValidationError } from '@catalog/model';

type Json = Readonly<Record<string, unknown>>;

/** The aspect whose two lists are kept in sync. */
export const DOMAINS_ASPECT = 'domains';

function urnsOf(value: Json | undefined): string[] {
  const list = value?.['domains'];
  return Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string') : [];
}

function associationsOf(value: Json | undefined): Json[] | undefined {
  const list = value?.['domainAssociations'];
  if (!Array.isArray(list)) return undefined;
  return list.filter((a): a is Json => typeof a === 'object' && a !== null);
}

/** An association the ecosystem's propagation made (`attribution.sourceDetail.propagated` is "true"). */
function isPropagated(association: Json): boolean {
  const detail = (association['attribution'] as Json | undefined)?.['sourceDetail'] as Json | undefined;
  const propagated = detail?.['propagated'];
  return typeof propagated === 'string' && propagated.toLowerCase() === 'true';
}

/** The previous associations still in `domains`, then a bare one for each domain new to them. */
function associationsFromDomains(domains: readonly string[], previous: Json | undefined): Json[] {
  const wanted = new Set(domains);
  const kept = (associationsOf(previous) ?? []).filter((a) => wanted.has(a['domain'] as string));
  const present = new Set(kept.map((a) => a['domain']));
  return [...kept, ...[...wanted].filter((d) => !present.has(d)).map((domain) => ({ domain }))];
}

/**
 * The `domains` value to store for a write of `proposed` over `previous`, as the ecosystem's
 * DomainsSyncMutationHook makes it: the legacy `domains` list and the rich `domainAssociations` always
 * name the same domains. The field the write changed is the source of the other (only `domains` given,
 * or changed: associations follow it, keeping the previous ones of domains still there; only the
 * associations changed: `domains` follows them); a write that changes both in disagreement is refused
 * (400), nothing stored. Manual associations come before propagated ones, and `domains` in their order.
 */
export function syncDomains(proposed: Json, previous: Json | undefined, urn: string): Json {
  const domains = urnsOf(proposed);
  const given = associationsOf(proposed);
  let associations: Json[];
  if (given === undefined) {
    associations = associationsFromDomains(domains, previous);
  } else {
    const domainsChanged = !isDeepStrictEqual(domains, urnsOf(previous));
    const associationsChanged = !isDeepStrictEqual(given, associationsOf(previous) ?? []);
    if (domainsChanged && associationsChanged) {
      const named = new Set(given.map((a) => a['domain']));
      const same = named.size === new Set(domains).size && domains.every((d) => named.has(d));
      if (domains.length > 0 && !same)
        throw new ValidationError(
          "Cannot update both 'domains' and 'domainAssociations' in the same write. Use " +
            "'domainAssociations' for rich metadata or 'domains' for legacy compatibility, but not both. " +
            `Entity: ${urn}`,
        );
      associations = given;
    } else {
      associations = domainsChanged ? associationsFromDomains(domains, previous) : given;
    }
  }
  // A stable sort: manual ones keep their order, then the propagated ones keep theirs.
  const sorted = [...associations.filter((a) => !isPropagated(a)), ...associations.filter(isPropagated)];
  const ordered = [
    ...new Set(sorted.map((a) => a['domain']).filter((d): d is string => typeof d === 'string')),
  ];
  return { ...proposed, domains: ordered, domainAssociations: sorted };
}
