import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { formatLimit } from './graphql-limits.js';

/**
 * The JSON size of `value`, counted until it passes `limit` (then a number over it): a result too large
 * to send is found without serializing it, so it is refused before its text is built. A string counts
 * its length and quotes, not its escapes or multi-byte characters: the count is a lower bound of the
 * UTF-8 text. Walks without allocating per object (this runs on every result).
 */
export function jsonSizeUpTo(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'boolean') size += 1;
    else if (item === null || item === undefined) size += 4;
    else if (Array.isArray(item)) {
      size += 1 + item.length;
      for (let i = 0; i < item.length; i++) stack.push(item[i]);
    } else if (typeof item === 'object') {
      size += 1;
      for (const key in item) {
        size += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return size;
}

/**
 * Refuses a result larger than `maxBytes` with an error naming the limit, instead of building and sending
 * it: the data goes, the errors already found stay.
 */
export function useResponseSizeLimit(maxBytes: number): Plugin {
  return {
    onExecute: () => ({
      onExecuteDone: ({ result, setResult }) => {
        if (Symbol.asyncIterator in result) return;
        const size = jsonSizeUpTo(result.data, maxBytes);
        if (size <= maxBytes) return;
        setResult({
          data: null,
          errors: [
            ...(result.errors ?? []),
            createGraphQLError(
              `The response is larger than the limit of ${formatLimit(maxBytes)} bytes ` +
                '(GRAPHQL_MAX_RESPONSE_BYTES) and was not sent; ask for fewer results or fewer fields',
              { extensions: { code: 400, type: 'BAD_REQUEST', classification: 'ResponseTooLarge' } },
            ),
          ],
        });
      },
    }),
  };
}
