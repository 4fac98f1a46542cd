/**
 * Tool results sized for a model's context. A result's lists are cut by whole items (never mid-JSON)
 * once their serialized size passes the byte budget, and the result says so: `truncated`, a `note` in
 * words, and the `nextOffset` to ask for the rest. Long strings (descriptions, SQL) are shortened with a
 * marker of how much was left out.
 */

/** Characters kept of one string value: a long description or statement. */
export const MAX_STRING_CHARS = 2_000;

/** The items of `items` that fit `budgetBytes` together (at least one, so a page always advances). */
export function fitToBudget<T>(items: readonly T[], budgetBytes: number): { items: T[]; truncated: boolean } {
  const kept: T[] = [];
  let used = 2;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (kept.length > 0 && used + size > budgetBytes) return { items: kept, truncated: true };
    kept.push(item);
    used += size;
  }
  return { items: kept, truncated: false };
}

/** The page fields every listing tool returns beside its items. */
export function pageInfo(
  what: string,
  offset: number,
  returned: number,
  total: number,
  truncatedByBudget: boolean,
): Record<string, unknown> {
  const next = offset + returned;
  const hasMore = next < total;
  return {
    offset,
    returned,
    total,
    hasMore,
    ...(hasMore ? { nextOffset: next } : {}),
    ...(truncatedByBudget
      ? {
          truncated: true,
          note: `Only ${returned} ${what} fit this result's size budget; call again with offset=${next} for the rest.`,
        }
      : {}),
  };
}

/** The string, cut to `max` characters with a marker saying how many were left out. */
export function shorten(value: string, max = MAX_STRING_CHARS): string {
  if (value.length <= max) return value;
  return `${value.slice(0, max)}… [${value.length - max} more characters]`;
}
