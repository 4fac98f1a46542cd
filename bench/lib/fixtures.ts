/** Realistic proposals in the wire form the SDK sends. */
export function datasetUrn(i: number, run: string): string {
  return `urn:li:dataset:(urn:li:dataPlatform:snowflake,bench_${run}.schema_${i % 50}.table_${i},PROD)`;
}

export function propertiesProposal(urn: string, i: number): Record<string, unknown> {
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'datasetProperties',
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({
        name: `table_${i}`,
        qualifiedName: `analytics.schema_${i % 50}.table_${i}`,
        description: `Table ${i} holds the daily facts of business line ${i % 17}, refreshed every night.`,
        customProperties: {
          owner_team: `team_${i % 9}`,
          retention_days: String(30 + (i % 300)),
          tier: i % 3 === 0 ? 'gold' : 'silver',
        },
      }),
    },
    systemMetadata: { lastObserved: Date.now(), runId: 'bench' },
  };
}
