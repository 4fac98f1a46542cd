import type { Client } from '@opensearch-project/opensearch';
import { asArray, asObject, isObject } from './narrow.js';

export type RefreshPolicy = 'false' | 'true' | 'wait_for';

export type BulkOperation =
  | {
      readonly action: 'index';
      readonly index: string;
      readonly id: string;
      readonly document: Readonly<Record<string, unknown>>;
    }
  | { readonly action: 'delete'; readonly index: string; readonly id: string };

export interface BulkItemFailure {
  readonly action: string;
  readonly index: string;
  readonly id: string;
  readonly status: number;
  readonly reason: string;
}

/** Some items of a bulk request failed; the others were applied (the bulk API is not atomic). */
export class BulkWriteError extends Error {
  constructor(readonly failures: readonly BulkItemFailure[]) {
    const shown = failures
      .slice(0, 5)
      .map((f) => `${f.action} ${f.index}/${f.id}: ${f.status} ${f.reason}`)
      .join('; ');
    const more = failures.length > 5 ? ` (and ${failures.length - 5} more)` : '';
    super(`OpenSearch bulk write: ${failures.length} item(s) failed: ${shown}${more}`);
    this.name = 'BulkWriteError';
  }
}

/** Bodies are cut here: well under the default http.max_content_length (100 MB) and quick to retry. */
const MAX_CHUNK_BYTES = 8 * 1024 * 1024;
const MAX_CHUNK_OPERATIONS = 5_000;

/**
 * Runs operations through the bulk API in order, in chunks, and checks every item: failed items throw
 * one BulkWriteError with the details of all of them, except a delete of an absent document. Every
 * chunk is sent even when an earlier one had failed items, so that what the error does not list was
 * applied (callers retry just the failed items, e.g. a document without its refused values).
 */
export async function runBulk(
  client: Pick<Client, 'bulk'>,
  operations: readonly BulkOperation[],
  refresh: RefreshPolicy,
): Promise<void> {
  let chunk: Record<string, unknown>[] = [];
  let bytes = 0;
  let count = 0;
  const failures: BulkItemFailure[] = [];
  const flush = async (): Promise<void> => {
    if (count === 0) return;
    failures.push(...(await sendChunk(client, chunk, refresh)));
    chunk = [];
    bytes = 0;
    count = 0;
  };
  for (const operation of operations) {
    const header = { [operation.action]: { _index: operation.index, _id: operation.id } };
    const lines: Record<string, unknown>[] =
      operation.action === 'index' ? [header, operation.document] : [header];
    const size = lines.reduce((sum, line) => sum + JSON.stringify(line).length + 1, 0);
    if (count > 0 && (bytes + size > MAX_CHUNK_BYTES || count >= MAX_CHUNK_OPERATIONS)) await flush();
    chunk.push(...lines);
    bytes += size;
    count += 1;
  }
  await flush();
  if (failures.length > 0) throw new BulkWriteError(failures);
}

/** Sends one chunk; returns its failed items. */
async function sendChunk(
  client: Pick<Client, 'bulk'>,
  body: Record<string, unknown>[],
  refresh: RefreshPolicy,
): Promise<BulkItemFailure[]> {
  const response = await client.bulk({ body, refresh });
  const result = asObject(response.body, 'bulk response');
  if (result['errors'] !== true) return [];
  const failures: BulkItemFailure[] = [];
  for (const item of asArray(result['items'], 'bulk items')) {
    const [action, outcome] = Object.entries(asObject(item, 'bulk item'))[0] ?? [];
    if (action === undefined || !isObject(outcome)) continue;
    const status = typeof outcome['status'] === 'number' ? outcome['status'] : 0;
    if (status < 300) continue;
    if (action === 'delete' && status === 404) continue;
    failures.push({
      action,
      index: String(outcome['_index'] ?? ''),
      id: String(outcome['_id'] ?? ''),
      status,
      reason: describeError(outcome['error']),
    });
  }
  return failures;
}

function describeError(error: unknown): string {
  if (!isObject(error)) return String(error ?? 'unknown error');
  const type = typeof error['type'] === 'string' ? error['type'] : 'error';
  const reason = typeof error['reason'] === 'string' ? error['reason'] : '';
  const cause = isObject(error['caused_by']) ? ` (caused by ${describeError(error['caused_by'])})` : '';
  return `${type}: ${reason}${cause}`;
}
