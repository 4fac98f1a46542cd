import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_GROUPS } from '../../api-contract/operation.js';
import { openApiDocument } from './openapi-document.js';

describe('openApiDocument', () => {
  const document = openApiDocument() as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, unknown> };
  };

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('covers the REST endpoints of every interface', () => {
    for (const path of [
      '/aspects',
      '/aspects/{urn}',
      '/entitiesV2/{urn}',
      '/entities',
      '/relationships',
      '/openapi/relationships/v1',
      '/openapi/v1/events/audit/search',
      '/openapi/openlineage/api/v1/lineage',
      '/openapi/v2/timeseries/{entityName}/{aspectName}',
      '/gms/operations',
      '/api/graphql',
      '/api/graphiql',
      '/config',
      '/schema-registry/api/subjects',
      '/openapi/v3/entity/dataset',
      '/openapi/v3/entity/dataset/{urn}',
      '/openapi/v3/entity/dataset/{urn}/globaltags',
      '/openapi/v3/entity/scroll',
      '/openapi/v3/entity/generic',
      '/openapi/v2/entity/{entity}/{urn}/{aspect}',
    ])
      expect(Object.keys(document.paths), path).toContain(path);
    expect(Object.keys(document.paths['/openapi/v3/entity/dataset/{urn}/globaltags']!).sort()).toEqual(
      ['delete', 'get', 'head', 'patch', 'post'].sort(),
    );
  });

  it('describes aspect bodies from the registry schemas, shared records once', () => {
    expect(document.components.schemas['com.linkedin.common.GlobalTags']).toMatchObject({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { $ref: '#/components/schemas/com.linkedin.common.TagAssociation' } },
      },
      required: ['tags'],
    });
    expect(document.components.schemas['com.linkedin.common.AuditStamp']).toBeDefined();
  });

  it('serves each group as a valid document of its own, the v3 group titled as the ecosystem titles it', async () => {
    for (const group of API_GROUPS) {
      const part = openApiDocument(group) as typeof document & { info: { title: string } };
      const result = await new Validator().validate(part as never);
      expect(result.errors ?? [], group).toEqual([]);
      expect(Object.keys(part.paths).length, group).toBeGreaterThan(0);
    }
    const v3 = openApiDocument('10-openapi-v3') as typeof document & { info: { title: string } };
    expect(v3.info.title).toBe('Entity API');
    expect(Object.keys(v3.paths).every((p) => p.startsWith('/openapi/v3/'))).toBe(true);
    expect(Object.keys(v3.paths)).toEqual(
      expect.arrayContaining([
        '/openapi/v3/entity/dataset',
        '/openapi/v3/relationship/scroll',
        '/openapi/v3/lineage/scroll',
      ]),
    );
    expect(v3.components.schemas['DatasetEntityRequest_v3']).toBeDefined();
    expect(v3.components.schemas['com.linkedin.common.GlobalTags']).toBeDefined();
    const restli = openApiDocument('70-restli') as typeof document;
    expect(Object.keys(restli.paths)).toContain('/entitiesV2/{urn}');
    expect(Object.keys(restli.paths)).not.toContain('/openapi/v3/entity/dataset');
  });

  it('documents each route with the parameters its requests are checked against', () => {
    const scroll = document.paths['/openapi/v3/entity/dataset']!['get'] as { parameters: { name: string }[] };
    const names = scroll.parameters.map((p) => p.name);
    for (const name of ['count', 'scrollId', 'sortCriteria', 'sortOrder', 'sliceId', 'sliceMax', 'aspects'])
      expect(names).toContain(name);
    const post = document.paths['/openapi/v3/entity/dataset/{urn}/globaltags']!['post'] as {
      parameters: { name: string }[];
    };
    expect(post.parameters.map((p) => p.name)).toContain('createIfEntityNotExists');
  });
});

describe('the document declares how to authenticate', () => {
  type Op = { security?: unknown[]; parameters?: { name: string; schema: { pattern?: string } }[] };
  const document = openApiDocument() as {
    security?: unknown[];
    paths: Record<string, Record<string, Op>>;
    components: { securitySchemes?: Record<string, unknown> };
  };

  it('has a bearer security scheme, required everywhere but on the public endpoints', () => {
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const path of ['/config', '/health', '/schema-registry/api/subjects']) {
      const operation = document.paths[path]?.['get'];
      if (operation === undefined) continue;
      expect(operation.security, path).toEqual([]);
    }
    expect(document.paths['/config']?.['get']?.security).toEqual([]);
    expect(document.paths['/aspects/{urn}']?.['get']?.security).toBeUndefined();
    expect(document.paths['/api/graphql']?.['post']?.security).toBeUndefined();
  });

  it('gives every urn parameter a pattern without control characters', () => {
    const pattern = new RegExp(document.paths['/aspects/{urn}']!['get']!.parameters![0]!.schema.pattern!);
    expect(pattern.test('urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)')).toBe(true);
    expect(pattern.test('urn:li:dataset:a\nb')).toBe(false);
    expect(pattern.test('urn:li:corpuser:a\u0000')).toBe(false);
    expect(pattern.test('not-a-urn')).toBe(false);
    let urnParameters = 0;
    for (const [path, methods] of Object.entries(document.paths))
      for (const operation of Object.values(methods))
        for (const p of operation.parameters ?? [])
          if (p.name === 'urn') {
            urnParameters++;
            expect(p.schema.pattern, path).toBe(pattern.source);
          }
    expect(urnParameters).toBeGreaterThan(100);
  });
});
