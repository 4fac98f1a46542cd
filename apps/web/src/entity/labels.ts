/** A tag or term as a chip shows it. */
export interface Label {
  readonly urn: string;
  readonly name: string;
  readonly color?: string | null;
}

interface TagAssociations {
  readonly tags?:
    | readonly {
        readonly tag: {
          readonly urn: string;
          readonly name: string;
          readonly properties?: { readonly name: string; readonly colorHex?: string | null } | null;
        };
      }[]
    | null;
}

interface TermAssociations {
  readonly terms?:
    | readonly {
        readonly term: {
          readonly urn: string;
          readonly name: string;
          readonly properties?: { readonly name: string } | null;
        };
      }[]
    | null;
}

/** The tags of one or more associations (a column's own and its edited ones), each once. */
export function tagsOf(...associations: (TagAssociations | null | undefined)[]): Label[] {
  const labels = new Map<string, Label>();
  for (const a of associations)
    for (const { tag } of a?.tags ?? [])
      labels.set(tag.urn, {
        urn: tag.urn,
        name: tag.properties?.name || tag.name,
        color: tag.properties?.colorHex ?? null,
      });
  return [...labels.values()];
}

export function termsOf(...associations: (TermAssociations | null | undefined)[]): Label[] {
  const labels = new Map<string, Label>();
  for (const a of associations)
    for (const { term } of a?.terms ?? [])
      labels.set(term.urn, { urn: term.urn, name: term.properties?.name || term.name });
  return [...labels.values()];
}

/**
 * A column's path as people read it: a v2 field path (`[version=2.0].[type=struct].address.[type=string].city`)
 * without its bracketed annotations (`address.city`).
 */
export function readableFieldPath(fieldPath: string): string {
  if (!fieldPath.startsWith('[')) return fieldPath;
  return fieldPath
    .split('.')
    .filter((part) => !(part.startsWith('[') && part.endsWith(']')))
    .join('.');
}
