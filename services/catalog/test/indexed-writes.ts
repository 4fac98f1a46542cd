import { expect } from 'vitest';
import { proposalLag } from './audited-writes.js';
import { enc, get, waitUntil } from './harness.js';

const PROPS = 'com.linkedin.dataset.DatasetProperties';

/** The latest stored description of each urn's datasetProperties (version 0), read through the gateway. */
async function storedDescriptions(base: string, urns: readonly string[]): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  for (const urn of urns) {
    const res = await get(base, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`);
    if (res.status === 404) continue;
    if (res.status !== 200) throw new Error(`GET ${urn} version 0: ${res.status} ${res.text}`);
    const aspect = (res.body as { aspect: Record<string, { description?: string }> }).aspect;
    stored.set(urn, aspect[PROPS]?.description ?? '');
  }
  return stored;
}

/**
 * Every dataset document of the urns in the catalog's search index, read from OpenSearch itself (through
 * the entity alias, so a document in two indices behind it counts twice): urn to the descriptions found.
 */
async function indexedDescriptions(
  env: Readonly<Record<string, string>>,
  urns: readonly string[],
): Promise<Map<string, string[]>> {
  const url = env['OPENSEARCH_URL']!.replace(/\/$/, '');
  const alias = `${env['INDEX_PREFIX']!}_datasetindex_v2`;
  const res = await fetch(`${url}/${alias}/_search`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      size: urns.length * 2 + 10,
      query: { terms: { '@catalog.urn': urns } },
      _source: ['@catalog.urn', 'description'],
    }),
  });
  if (!res.ok) throw new Error(`searching ${alias}: HTTP ${res.status} ${await res.text()}`);
  const body = (await res.json()) as {
    hits: { hits: { _source: { '@catalog'?: { urn?: string }; description?: string } }[] };
  };
  const found = new Map<string, string[]>();
  for (const hit of body.hits.hits) {
    const urn = hit._source['@catalog']?.urn ?? '';
    found.set(urn, [...(found.get(urn) ?? []), hit._source.description ?? '']);
  }
  return found;
}

function matches(stored: ReadonlyMap<string, string>, indexed: ReadonlyMap<string, string[]>): boolean {
  if (indexed.size !== stored.size) return false;
  for (const [urn, description] of stored) {
    const documents = indexed.get(urn);
    if (documents?.length !== 1 || documents[0] !== description) return false;
  }
  return true;
}

/**
 * The search index holds what the store holds, once: after persistence has applied every logged
 * proposal, each urn with a stored datasetProperties has exactly one document, carrying the latest
 * stored description, and no other urn of the set has one. Returns the number of documents.
 */
export async function expectIndexedAsStored(
  base: string,
  env: Readonly<Record<string, string>>,
  urns: readonly string[],
  timeoutMs = 90_000,
): Promise<number> {
  await waitUntil(
    () => proposalLag(base),
    (lag) => lag === 0,
    timeoutMs,
  );
  const stored = await storedDescriptions(base, urns);
  let indexed = new Map<string, string[]>();
  try {
    indexed = await waitUntil(
      () => indexedDescriptions(env, urns),
      (found) => matches(stored, found),
      timeoutMs,
    );
  } catch {
    // Compared below, so the failure names what differs.
    indexed = await indexedDescriptions(env, urns);
  }
  for (const [urn, description] of stored)
    expect(indexed.get(urn), `${urn}: one document with the latest stored value`).toEqual([description]);
  expect([...indexed.keys()].sort(), 'no document without a stored aspect').toEqual(
    [...stored.keys()].sort(),
  );
  return [...indexed.values()].reduce((n, documents) => n + documents.length, 0);
}
