import { randomBytes } from 'node:crypto';
import { auditIndexContract, isSkipped, opensearchForTests } from '@catalog/testkit';
import { Client } from '@opensearch-project/opensearch';
import { describe, expect, it } from 'vitest';
import { auditTemplateName, OpenSearchAuditIndex } from './opensearch-audit-index.js';

const found = await opensearchForTests();
const skip = isSkipped(found) ? found.skip : undefined;
if (skip) console.warn(`[opensearch-audit-index.int] skipped: ${skip}`);

/** Every test gets its own index prefix; its indices and template are dropped when it ends. */
function fresh(
  retentionDays: number,
  prefix = `it_au_${randomBytes(5).toString('hex')}`,
): { audit: OpenSearchAuditIndex; client: Client; cleanup(): Promise<void> } {
  if (isSkipped(found)) throw new Error(found.skip);
  const client = new Client({ node: found.node });
  const audit = new OpenSearchAuditIndex({
    client,
    indexPrefix: prefix,
    refresh: 'false',
    shape: { shards: 1, replicas: 0 },
    retentionDays,
  });
  return {
    audit,
    client,
    cleanup: async () => {
      try {
        await client.indices.delete({ index: `${prefix}_*` }, { ignore: [404] });
        await client.indices.deleteIndexTemplate({ name: auditTemplateName(prefix) }, { ignore: [404] });
      } finally {
        await audit.close();
        await client.close();
      }
    },
  };
}

describe.skipIf(skip !== undefined)(`OpenSearch audit index${skip ? ` (skipped: ${skip})` : ''}`, () => {
  auditIndexContract('opensearch', async ({ retentionDays }) => fresh(retentionDays));

  it('writes one index per UTC day named <prefix>_datahub_usage_event_<yyyy.mm.dd>, mapped as keywords', async () => {
    const prefix = `it_au_${randomBytes(5).toString('hex')}`;
    const { audit, client, cleanup } = fresh(90, prefix);
    try {
      await audit.ensure();
      const t = Date.UTC(2026, 2, 1, 23, 59, 59, 999);
      await audit.write([
        { id: 'a', eventType: 'LogInEvent', timestamp: t, actorUrn: 'u', rawUsageEvent: { x: 1 } },
        { id: 'b', eventType: 'LogInEvent', timestamp: t + 1, actorUrn: 'u', rawUsageEvent: { x: 2 } },
      ]);
      const response = await client.cat.indices({ index: `${prefix}_*`, format: 'json', h: ['index'] });
      const names = (response.body as { index: string }[]).map((row) => row.index).sort();
      expect(names).toEqual([
        `${prefix}_datahub_usage_event_2026.03.01`,
        `${prefix}_datahub_usage_event_2026.03.02`,
      ]);
      const mapping = await client.indices.getMapping({ index: names[0]! });
      const properties = (
        Object.values(mapping.body)[0] as {
          mappings: { properties: Record<string, Record<string, unknown>> };
        }
      ).mappings.properties;
      expect(properties['type']).toEqual({ type: 'keyword' });
      expect(properties['actorUrn']).toEqual({ type: 'keyword' });
      expect(properties['id']).toEqual({ type: 'keyword' });
      expect(properties['rawUsageEvent']).toEqual({ type: 'object', enabled: false });
    } finally {
      await cleanup();
    }
  });
});
