import type { JsonClient } from './load.js';

/** The pipeline's total consumer lag (proposals and change logs), as the operations endpoints report it. */
export async function totalLag(client: JsonClient): Promise<number> {
  let total = 0;
  for (const kind of ['mcp', 'mcl']) {
    const body = JSON.parse(
      await client.expectOk('GET', `/openapi/operations/messaging/${kind}/consumer/lag`),
    ) as {
      consumerGroups: Record<string, Record<string, { metrics: { totalLag: number } }>>;
    };
    for (const topics of Object.values(body.consumerGroups))
      for (const t of Object.values(topics)) total += t.metrics.totalLag;
  }
  return total;
}
