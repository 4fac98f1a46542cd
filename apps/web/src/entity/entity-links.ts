/** Where the app shows an entity: datasets have their own page, every other type the generic one. */
export function entityLink(
  urn: string,
  type: string,
): { to: '/dataset/$urn' | '/entity/$urn'; params: { urn: string } } {
  return { to: type === 'DATASET' ? '/dataset/$urn' : '/entity/$urn', params: { urn } };
}

/** An entity type as people read it: DATA_FLOW → "Data flow"; plural for counts. */
export function typeLabel(type: string, plural = false): string {
  const words = type.toLowerCase().split('_');
  const text = words.join(' ');
  const label = text.charAt(0).toUpperCase() + text.slice(1);
  if (!plural) return label;
  return label.endsWith('y') && !label.endsWith('ey') ? `${label.slice(0, -1)}ies` : `${label}s`;
}

/** The fields every entity summary selects (the generic `Entity` interface has only urn and type). */
export interface EntitySummary {
  readonly urn: string;
  readonly type: string;
  readonly name?: string | null;
  readonly properties?: {
    readonly name?: string | null;
    readonly displayName?: string | null;
    readonly fullName?: string | null;
    readonly description?: string | null;
  } | null;
  readonly editableProperties?: { readonly description?: string | null } | null;
  readonly username?: string;
  readonly platform?: {
    readonly name: string;
    readonly properties?: { readonly displayName?: string | null } | null;
  } | null;
}

/** An entity's description: the one edited in the catalog first, else the source's. */
export function descriptionOf(entity: EntitySummary): string | undefined {
  return entity.editableProperties?.description || entity.properties?.description || undefined;
}

/** The name to show for an entity: its display name, its name, else the last part of its urn. */
export function nameOf(entity: EntitySummary): string {
  return (
    entity.properties?.displayName ||
    entity.properties?.name ||
    entity.properties?.fullName ||
    entity.name ||
    entity.username ||
    entity.urn.replace(/^urn:li:[^:]+:/, '')
  );
}

export function platformNameOf(entity: EntitySummary): string | undefined {
  const platform = entity.platform;
  if (platform === undefined || platform === null) return undefined;
  return platform.properties?.displayName || platform.name;
}
