import { createHash } from 'node:crypto';

/**
 * A stable id for a time-series document, so indexing the same event twice gives one document:
 * (urn, aspect, timestampMillis) plus the partition (`partitionSpec.partition`) or `messageId` when the
 * value has one, else a hash of the value's canonical JSON (keys sorted). `timestampMillis` defaults to
 * the value's own `timestampMillis`.
 */
export function timeseriesDocumentId(
  urn: string,
  aspect: string,
  value: Readonly<Record<string, unknown>>,
  timestampMillis: unknown = value['timestampMillis'],
): string {
  const partitionSpec = value['partitionSpec'];
  const partition =
    typeof partitionSpec === 'object' && partitionSpec !== null
      ? (partitionSpec as Record<string, unknown>)['partition']
      : undefined;
  const messageId = value['messageId'];
  const discriminator =
    typeof partition === 'string'
      ? `p:${partition}`
      : typeof messageId === 'string'
        ? `m:${messageId}`
        : `v:${canonicalJson(value)}`;
  return createHash('sha256')
    .update(`${urn}\u0000${aspect}\u0000${String(timestampMillis)}\u0000${discriminator}`)
    .digest('hex');
}

/**
 * The ingestion run that wrote a time-series document, as indexed: its systemMetadata.runId when that is
 * a non-empty string, else undefined (written without a run, or with the default "no-run-id-provided",
 * which is indexed as given).
 */
export function timeseriesRunIdOf(
  systemMetadata: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const runId = systemMetadata?.['runId'];
  return typeof runId === 'string' && runId !== '' ? runId : undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
