/**
 * The ecosystem's usage taxonomy (its `usage_operations.yaml`): what kind of work a request is, the
 * `usage_operation` label of the usage metrics, and what it counts towards among the distinct active
 * identities (a read or an operation makes a reader, a write that costs makes a writer).
 */
export type UsageOperation =
  | 'metadata_read'
  | 'metadata_ingest'
  | 'metadata_write'
  | 'entity_delete'
  | 'aspect_delete'
  | 'search_query'
  | 'lineage_query'
  | 'metadata_query'
  | 'other_read'
  | 'other_write'
  | 'other_operations';

/** Which API a request came through: the `request_api` label. */
export type RequestApi = 'graphql' | 'openapi' | 'restli';

export type ActivityClass = 'read' | 'write' | 'operation';

interface OperationTraits {
  readonly activity: ActivityClass;
  /** The taxonomy's `default_cost_units`: a write that costs nothing does not make a writer. */
  readonly costUnits: number;
}

export const USAGE_OPERATIONS: Readonly<Record<UsageOperation, OperationTraits>> = {
  metadata_read: { activity: 'read', costUnits: 1 },
  metadata_ingest: { activity: 'write', costUnits: 1 },
  metadata_write: { activity: 'write', costUnits: 1 },
  entity_delete: { activity: 'write', costUnits: 1 },
  aspect_delete: { activity: 'write', costUnits: 1 },
  search_query: { activity: 'read', costUnits: 1 },
  lineage_query: { activity: 'read', costUnits: 1 },
  metadata_query: { activity: 'read', costUnits: 1 },
  other_read: { activity: 'read', costUnits: 0 },
  other_write: { activity: 'write', costUnits: 0 },
  other_operations: { activity: 'operation', costUnits: 0 },
};

/** The distinct-identity series an actor's request counts in (`identity_metric`). */
export function identityMetricsOf(operation: UsageOperation): readonly string[] {
  const traits = USAGE_OPERATIONS[operation];
  const metrics = ['active_users'];
  if (traits.activity === 'read' || traits.activity === 'operation') metrics.push('active_readers');
  if (traits.activity === 'write' && traits.costUnits > 0) metrics.push('active_writers');
  return metrics;
}
