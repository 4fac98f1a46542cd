import { describe, expect, it } from 'vitest';
import { requestUsage } from './request-usage.js';
import { graphqlUsageOperation } from './graphql-usage.js';
import { agentClassOf } from './agent-class.js';
import { identityMetricsOf } from './usage-operation.js';

describe("requests in the ecosystem's usage taxonomy", () => {
  it('classifies GraphQL by operation name, then root field, then query or mutation', () => {
    const me = {
      query: 'query smokeUsageAggregationMe { me { corpUser { urn } } }',
      operationName: 'smokeUsageAggregationMe',
    };
    expect(graphqlUsageOperation(me)).toBe('metadata_query');
    expect(graphqlUsageOperation({ query: '{ search(input: {type: DATASET, query: "*"}) { total } }' })).toBe(
      'search_query',
    );
    expect(graphqlUsageOperation({ query: '{ searchAcrossEntities(input: {query: "*"}) { total } }' })).toBe(
      'search_query',
    );
    expect(graphqlUsageOperation({ query: '{ searchAcrossLineage(input: {urn: "x"}) { total } }' })).toBe(
      'search_query',
    );
    expect(graphqlUsageOperation({ query: '{ getLineage { x } }' })).toBe('lineage_query');
    expect(graphqlUsageOperation({ query: '{ dataset(urn: "x") { urn } }' })).toBe('metadata_query');
    expect(graphqlUsageOperation({ query: 'mutation { addTag(input: {}) }' })).toBe('metadata_write');
    expect(
      graphqlUsageOperation({ query: 'mutation { createAccessToken(input: {}) { accessToken } }' }),
    ).toBe('other_operations');
    expect(graphqlUsageOperation({ query: 'mutation { updateGlobalViewsSettings(input: {}) }' })).toBe(
      'other_write',
    );
    expect(graphqlUsageOperation({ query: 'mutation { deleteEntity(urn: "x") }' })).toBe('entity_delete');
    // A named operation the taxonomy lists wins over its root field.
    expect(
      graphqlUsageOperation({ query: 'query listPolicies { me { urn } }', operationName: 'listPolicies' }),
    ).toBe('other_read');
    expect(graphqlUsageOperation({ query: 'not graphql' })).toBe('metadata_query');
    expect(graphqlUsageOperation({ query: '{ x }', operationName: 'constructor' })).toBe('metadata_query');
  });

  it('classifies OpenAPI by path and method', () => {
    const openapi = (method: string, path: string) => requestUsage({ method, path })?.operation;
    expect(openapi('GET', '/openapi/v3/entity/dataset')).toBe('metadata_read');
    expect(openapi('GET', '/openapi/v3/entity/corpuser/urn%3Ali%3Acorpuser%3Ax')).toBe('metadata_read');
    expect(openapi('POST', '/openapi/v3/entity/scroll')).toBe('search_query');
    expect(openapi('POST', '/openapi/v3/entity/dataset/batchGet')).toBe('metadata_read');
    expect(openapi('POST', '/openapi/v3/entity/dataset')).toBe('metadata_ingest');
    expect(openapi('DELETE', '/openapi/v3/entity/dataset/urn')).toBe('entity_delete');
    expect(openapi('DELETE', '/openapi/v3/entity/dataset/urn/status')).toBe('aspect_delete');
    expect(openapi('POST', '/openapi/v1/events/audit/search')).toBe('search_query');
    expect(openapi('GET', '/openapi/operations/messaging/mcp/consumer/lag')).toBe('other_read');
    expect(openapi('POST', '/openapi/v3/lineage/scroll')).toBe('lineage_query');
    expect(openapi('GET', '/openapi/v3/api-docs')).toBeUndefined();
    expect(requestUsage({ method: 'GET', path: '/openapi/v3/entity/dataset' })?.api).toBe('openapi');
  });

  it('classifies Rest.li by resource and action, and leaves health, config and metrics out', () => {
    const restli = (method: string, path: string, action?: string) =>
      requestUsage({ method, path, ...(action ? { action } : {}) });
    expect(restli('POST', '/aspects', 'ingestProposal')).toEqual({
      api: 'restli',
      operation: 'metadata_ingest',
    });
    expect(restli('POST', '/entities', 'search')?.operation).toBe('search_query');
    expect(restli('POST', '/entities', 'delete')?.operation).toBe('entity_delete');
    expect(restli('GET', '/entitiesV2/urn')?.operation).toBe('metadata_read');
    expect(restli('POST', '/runs', 'list')?.operation).toBe('other_read');
    expect(restli('POST', '/analytics', 'getTimeseriesStats')?.operation).toBe('search_query');
    expect(restli('POST', '/entities', 'toString')).toBeUndefined();
    for (const path of ['/health', '/config', '/actuator/prometheus', '/api/graphiql'])
      expect(restli('GET', path), path).toBeUndefined();
    expect(requestUsage({ method: 'GET', path: '/api/graphql' })).toBeUndefined();
  });

  it('counts reads and operations as readers and costly writes as writers', () => {
    expect(identityMetricsOf('metadata_query')).toEqual(['active_users', 'active_readers']);
    expect(identityMetricsOf('other_operations')).toEqual(['active_users', 'active_readers']);
    expect(identityMetricsOf('metadata_ingest')).toEqual(['active_users', 'active_writers']);
    expect(identityMetricsOf('other_write')).toEqual(['active_users']);
  });

  it("names the client kind from the User-Agent with the ecosystem's labels", () => {
    expect(agentClassOf('DataHub-Client/1.0.0 (sdk; datahub; 1.0.1)')).toBe('sdk');
    expect(agentClassOf('DataHub-Client/1.0.0 (cli; datahub; 1.0.1)')).toBe('cli');
    expect(agentClassOf('DataHub-Client/1.0 (ingestion; airflow-plugin/github-actions; 1.0.1)')).toBe(
      'ingestion',
    );
    expect(agentClassOf('DataHub-Client/1.0 (bot; probe; 1)')).toBe('robot');
    expect(agentClassOf('Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0')).toBe('browser');
    expect(agentClassOf('Googlebot/2.1')).toBe('robot');
    expect(agentClassOf('python-requests/2.32.3')).toBe('unknown');
    expect(agentClassOf(undefined)).toBe('unknown');
  });
});
