import { expect } from 'vitest';
import { get, post, readAllVersions, waitUntil } from './harness.js';

const PROPS = 'com.linkedin.dataset.DatasetProperties';

/** The datasetProperties audit events of each urn since `since`, counted through the audit search. */
async function auditedChanges(
  base: string,
  urns: readonly string[],
  since: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(urns.map((u) => [u, 0]));
  let scrollId: string | undefined;
  do {
    const query = new URLSearchParams({ startTime: String(since), size: '1000' });
    if (scrollId !== undefined) query.set('scrollId', scrollId);
    const res = await post(base, `/openapi/v1/events/audit/search?${query.toString()}`, {
      aspectTypes: ['datasetProperties'],
      entityTypes: ['dataset'],
    });
    if (res.status !== 200) throw new Error(`audit search: ${res.status} ${res.text}`);
    const page = res.body as { nextScrollId?: string; usageEvents: { entityUrn?: string }[] };
    for (const event of page.usageEvents) {
      const urn = event.entityUrn ?? '';
      if (counts.has(urn)) counts.set(urn, counts.get(urn)! + 1);
    }
    scrollId = page.nextScrollId;
  } while (scrollId !== undefined);
  return counts;
}

/** The proposals persistence has still to apply (its consumer group's lag). */
export async function proposalLag(base: string): Promise<number> {
  const res = await get(base, '/openapi/operations/messaging/mcp/consumer/lag');
  if (res.status !== 200) throw new Error(`consumer lag: ${res.status} ${res.text}`);
  const groups = (
    res.body as { consumerGroups: Record<string, Record<string, { metrics: { totalLag: number } }>> }
  ).consumerGroups;
  return Object.values(groups)
    .flatMap((topics) => Object.values(topics))
    .reduce((sum, t) => sum + t.metrics.totalLag, 0);
}

/**
 * Each stored version of the writers' entities has exactly one audit event: none missing (the audit
 * trail catches up with everything stored) and none doubled (a redelivered change log is the same
 * event). Returns the number of audited changes.
 */
export async function expectAuditedExactlyOnce(
  base: string,
  urns: readonly string[],
  since: number,
  timeoutMs = 60_000,
): Promise<number> {
  // Asynchronous writes are acknowledged once logged: count versions once persistence has applied them all.
  await waitUntil(
    () => proposalLag(base),
    (lag) => lag === 0,
    timeoutMs,
  );
  const versions = new Map<string, number>();
  for (const urn of urns)
    versions.set(urn, (await readAllVersions(base, urn, 'datasetProperties', PROPS)).length);
  const audited = await waitUntil(
    () => auditedChanges(base, urns, since),
    (counts) => urns.every((u) => counts.get(u)! >= versions.get(u)!),
    timeoutMs,
  );
  // Settled: a later look finds the same, so nothing arrives twice behind the first.
  await new Promise((r) => setTimeout(r, 1_000));
  const settled = await auditedChanges(base, urns, since);
  for (const urn of urns) {
    expect(audited.get(urn), `${urn}: one audit event per stored version`).toBe(versions.get(urn));
    expect(settled.get(urn), `${urn}: still one audit event per stored version`).toBe(versions.get(urn));
  }
  return [...versions.values()].reduce((a, b) => a + b, 0);
}
