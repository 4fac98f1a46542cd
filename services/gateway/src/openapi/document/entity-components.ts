import { entityRegistry, type AspectSpec, type EntitySpec } from '@catalog/model';
import type { JsonSchema } from '../../api-contract/operation.js';
import { REQUIRED_MESSAGES } from '../../api-contract/request-input.js';
import { aspectJsonSchema, componentName, schemaRef } from './avro-json-schema.js';

/** The entity the ecosystem leaves out of its generated document. */
export const EXCLUDED_ENTITIES = new Set(['dataHubOpenAPISchema']);

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

export const entityRequestComponent = (entity: EntitySpec) => `${capitalized(entity.name)}EntityRequest_v3`;
export const entityPatchComponent = (entity: EntitySpec) =>
  `${capitalized(entity.name)}EntityRequestPatch_v3`;
export const aspectRequestComponent = (aspect: AspectSpec) =>
  `${componentName(aspect.recordName)}AspectRequest_v3`;

const HEADERS: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Proposal headers, e.g. If-Version-Match',
};

/**
 * The component schemas of the entity API, in one of two forms from the same definitions. `document`:
 * aspect values are the JSON Schemas generated from the registry's Avro schemas. `validation`: what a
 * request is checked against before it becomes a proposal; aspect values there are any JSON object,
 * because each proposal's value is then validated against the registry's Avro schema itself, the
 * source the document's aspect schemas are generated from (one check, with the registry's messages).
 */
export function entityApiComponents(mode: 'document' | 'validation'): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const named = new Map<string, JsonSchema>();
  const wrapper = (value: JsonSchema): JsonSchema => ({
    type: 'object',
    properties: { value, systemMetadata: ref('SystemMetadata'), headers: HEADERS },
    required: ['value'],
  });
  for (const entity of entityRegistry.entities()) {
    if (EXCLUDED_ENTITIES.has(entity.name)) continue;
    const aspects: Record<string, JsonSchema> = { urn: { type: 'string', description: 'The entity urn' } };
    const patches: Record<string, JsonSchema> = { urn: { type: 'string', description: 'The entity urn' } };
    for (const aspect of entity.aspects.values()) {
      const name = aspectRequestComponent(aspect);
      if (schemas[name] === undefined) {
        const value =
          mode === 'document'
            ? (aspectJsonSchema(aspect, named), { $ref: schemaRef(aspect.recordName) })
            : { type: 'object' };
        schemas[name] = wrapper(value);
      }
      aspects[aspect.name] = ref(name);
      patches[aspect.name] = ref('AspectPatchRequest');
    }
    // Other keys are not refused here: the route names an unknown aspect after it has checked the urn,
    // as the ecosystem orders those two errors.
    const entityObject = (properties: Record<string, JsonSchema>): JsonSchema => ({
      type: 'object',
      properties,
      required: ['urn'],
      description: `A ${entity.name}: its urn and aspects by name (or their lower-case spelling)`,
    });
    schemas[entityRequestComponent(entity)] = entityObject(aspects);
    schemas[entityPatchComponent(entity)] = entityObject(patches);
  }
  if (mode === 'document') for (const [name, schema] of named) schemas[componentName(name)] = schema;
  return { ...schemas, ...sharedComponents(wrapper) };
}

function sharedComponents(wrapper: (value: JsonSchema) => JsonSchema): Record<string, JsonSchema> {
  const patchOp: JsonSchema = {
    type: 'object',
    properties: {
      op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
      path: { type: 'string' },
      from: { type: 'string' },
      value: {},
    },
    required: ['op', 'path'],
  };
  const aspectsOf = (value: JsonSchema): JsonSchema => ({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { value, systemMetadata: ref('SystemMetadata') },
      required: ['value'],
    },
  });
  return {
    Error: {
      type: 'object',
      properties: { error: { type: 'string' }, message: { type: 'string' } },
      required: ['error'],
    },
    SystemMetadata: { type: 'object', additionalProperties: true },
    AspectRequest: wrapper({ type: 'object' }),
    AspectPatch: {
      type: 'object',
      properties: {
        patch: { type: 'array', items: patchOp },
        arrayPrimaryKeys: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
        forceGenericPatch: { type: 'boolean', default: false },
      },
      required: ['patch'],
      // The ecosystem's wording, with its period.
      [REQUIRED_MESSAGES]: { patch: 'Missing `patch` field.' },
    },
    AspectPatchOrOps: {
      description: 'A GenericJsonPatch, or a bare JSON Patch (RFC 6902) operation list',
      anyOf: [ref('AspectPatch'), { type: 'array', items: patchOp }],
    },
    AspectPatchRequest: {
      type: 'object',
      properties: { value: ref('AspectPatch'), systemMetadata: ref('SystemMetadata'), headers: HEADERS },
      required: ['value'],
    },
    BatchGetItem: {
      type: 'object',
      properties: { urn: { type: 'string' } },
      additionalProperties: {
        type: 'object',
        properties: { headers: HEADERS },
        description: 'An aspect to read; header If-Version-Match selects a stored version',
      },
      required: ['urn'],
    },
    CrossEntitiesScrollRequest: {
      type: 'object',
      properties: {
        entities: { type: 'array', items: { type: 'string' }, description: 'Entity names (none: all)' },
        aspects: {
          type: 'array',
          items: { type: 'string' },
          description: 'Absent: urns only; empty: every aspect; else those aspects',
        },
        filter: {
          type: 'object',
          description: 'The outer list is ORed, each criteria list ANDed',
          properties: {
            and: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  criteria: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        field: { type: 'string' },
                        values: { type: 'array', items: { type: 'string' } },
                        value: { type: 'string' },
                        condition: { type: 'string', default: 'EQUAL' },
                        negated: { type: 'boolean', default: false },
                      },
                      required: ['field'],
                    },
                  },
                },
              },
            },
          },
        },
        sortCriteria: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              field: { type: 'string' },
              order: { type: 'string', enum: ['ASCENDING', 'DESCENDING'] },
            },
            required: ['field'],
          },
        },
      },
    },
    ScrollResponse: {
      type: 'object',
      properties: {
        scrollId: { type: 'string', description: 'Absent on the last page' },
        entities: { type: 'array', items: { type: 'object' } },
        totalCount: { type: 'integer' },
        facets: { type: 'array', items: { type: 'object' } },
      },
      required: ['entities'],
    },
    ScrollResponseV2: {
      type: 'object',
      properties: { scrollId: { type: 'string' }, results: { type: 'array', items: { type: 'object' } } },
      required: ['results'],
    },
    EntityRequestV2: {
      type: 'object',
      properties: { urn: { type: 'string' }, aspects: aspectsOf({ type: 'object' }) },
      required: ['urn', 'aspects'],
    },
    EntityPatchRequestV2: {
      type: 'object',
      properties: { urn: { type: 'string' }, aspects: aspectsOf(ref('AspectPatch')) },
      required: ['urn', 'aspects'],
    },
  };
}
