import { Client } from '@opensearch-project/opensearch';
import type { GraphIndex, ProjectionWriter, SearchIndex, TimeseriesIndex } from '../port.js';
import { AliasedIndices } from './aliased-index.js';
import type { RefreshPolicy } from './bulk-writer.js';
import { EntitySpecs } from './entity-specs.js';
import { IndexNames } from './index-names.js';
import { silentOpenSearchLogger, type OpenSearchLogger } from './logger.js';
import { OpenSearchGraphIndex } from './opensearch-graph-index.js';
import { OpenSearchProjectionWriter } from './opensearch-projection-writer.js';
import { OpenSearchSearchIndex } from './opensearch-search-index.js';
import { OpenSearchAuditIndex } from './opensearch-audit-index.js';
import type { AuditIndex } from '../audit/audit-index.js';
import { OpenSearchTimeseriesIndex } from './opensearch-timeseries-index.js';
import { OpenSearchStructuredProperties } from './structured-property-definitions.js';

export interface OpenSearchOptions {
  /** e.g. `http://localhost:9200`. */
  readonly node: string;
  readonly username?: string;
  readonly password?: string;
  /** INDEX_PREFIX: every index name becomes `<prefix>_<name>`; empty or absent for none. */
  readonly indexPrefix?: string;
  /**
   * Refresh policy of writes: 'false' (default; visible after the node's refresh interval or an explicit
   * refresh()), 'wait_for' (each write returns once visible) or 'true' (forces a refresh per write).
   */
  readonly refresh?: RefreshPolicy;
  /** Shards and replicas of indices this process creates (default 1 and 1). */
  readonly shards?: number;
  readonly replicas?: number;
  readonly requestTimeoutMs?: number;
  readonly logger?: OpenSearchLogger;
}

export interface OpenSearchAdapters {
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  /** Search documents and edges of a projection batch in one bulk request. */
  readonly projection: ProjectionWriter;
  close(): Promise<void>;
}

/**
 * Connects to OpenSearch and returns the three read-model adapters over one client. Fails fast when the
 * node does not answer, naming the node (never the credentials).
 */
export async function openOpenSearch(options: OpenSearchOptions): Promise<OpenSearchAdapters> {
  const logger = options.logger ?? silentOpenSearchLogger;
  const client = await connect(options);
  const names = new IndexNames(options.indexPrefix ?? '');
  const indices = new AliasedIndices(client, logger);
  const refresh = options.refresh ?? 'false';
  const shape = { shards: options.shards ?? 1, replicas: options.replicas ?? 1 };
  const specs = new EntitySpecs(names, indices);
  const parts = { client, names, indices, refresh, shape };
  logger.info(
    { node: redactedNode(options.node), indexPrefix: options.indexPrefix ?? '', refresh },
    'connected to OpenSearch',
  );
  const search = new OpenSearchSearchIndex({
    ...parts,
    specs,
    logger,
    definitions: new OpenSearchStructuredProperties(client, names, indices, logger),
  });
  const graph = new OpenSearchGraphIndex(parts);
  return {
    search,
    graph,
    timeseries: new OpenSearchTimeseriesIndex(parts),
    projection: new OpenSearchProjectionWriter(client, refresh, search, graph),
    close: () => client.close(),
  };
}

export interface OpenSearchAuditOptions extends OpenSearchOptions {
  /** Days an event is kept for (applyRetention); 0 or negative keeps events forever. Default 90. */
  readonly retentionDays?: number;
}

/**
 * Connects to OpenSearch and returns the audit index (day indices `<prefix_>datahub_usage_event_<day>`)
 * over a client of its own; its close() closes the client. Fails fast as openOpenSearch does.
 */
export async function openOpenSearchAuditIndex(options: OpenSearchAuditOptions): Promise<AuditIndex> {
  const client = await connect(options);
  const audit = new OpenSearchAuditIndex({
    client,
    indexPrefix: options.indexPrefix ?? '',
    refresh: options.refresh ?? 'false',
    shape: { shards: options.shards ?? 1, replicas: options.replicas ?? 1 },
    ...(options.retentionDays === undefined ? {} : { retentionDays: options.retentionDays }),
  });
  return {
    ensure: () => audit.ensure(),
    write: (events) => audit.write(events),
    search: (query) => audit.search(query),
    count: (query) => audit.count(query),
    refresh: () => audit.refresh(),
    ping: () => audit.ping(),
    applyRetention: (now) => audit.applyRetention(now),
    close: async () => {
      await audit.close();
      await client.close();
    },
  };
}

/** A client whose node has answered; naming the node (never the credentials) when it does not. */
async function connect(options: OpenSearchOptions): Promise<Client> {
  const client = new Client({
    node: options.node,
    ...(options.username !== undefined
      ? { auth: { username: options.username, password: options.password ?? '' } }
      : {}),
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    maxRetries: 3,
  });
  try {
    await client.info();
  } catch (error) {
    await client.close();
    throw new Error(`OpenSearch at ${redactedNode(options.node)} is not reachable`, { cause: error });
  }
  return client;
}

function redactedNode(node: string): string {
  try {
    const url = new URL(node);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return '[unparseable url]';
  }
}
