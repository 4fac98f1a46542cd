import { ValidationError } from '@catalog/model';

/** Error types of a query larger than the engine runs (indices.query.bool.max_clause_count). */
const TOO_LARGE = new Set(['too_many_clauses', 'too_many_nested_clauses']);

/** The default of OpenSearch's indices.query.bool.max_clause_count, named in the refusal. */
export const OPENSEARCH_MAX_CLAUSES = 1024;

/**
 * A ValidationError naming the limit when OpenSearch refused a query for its size, else undefined. The
 * shared filter and text limits (validate-filter.ts, validate-search-request.ts) keep most requests
 * under it, but a clause per word per searched field means many words over every entity type can still
 * exceed it: that is the caller's request being too large, never the service failing.
 */
export function querySizeError(error: unknown): ValidationError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const shape = error as { name?: unknown; meta?: { body?: unknown } };
  if (shape.name !== 'ResponseError' || !errorTypesOf(shape.meta?.body).some((t) => TOO_LARGE.has(t)))
    return undefined;
  return new ValidationError(
    `The search is too large for the search engine: a query may have at most ${OPENSEARCH_MAX_CLAUSES} ` +
      'clauses (one per word and searched field, one per pattern or comparison value); use fewer words, ' +
      'values or criteria',
    { cause: error },
  );
}

/** Every `type` in an error body (`error.type`, its root causes, failed shards' reasons). */
function errorTypesOf(body: unknown, depth = 0): string[] {
  if (typeof body !== 'object' || body === null || depth > 6) return [];
  const types: string[] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === 'type' && typeof value === 'string') types.push(value);
    else if (typeof value === 'object' && value !== null) types.push(...errorTypesOf(value, depth + 1));
  }
  return types;
}

/** Runs an engine query, its size refusal turned into the ValidationError of querySizeError. */
export async function sizedQuery<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw querySizeError(error) ?? error;
  }
}
