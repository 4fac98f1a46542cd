import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
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
});
