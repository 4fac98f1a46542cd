import type { GraphQLContext } from '../context.js';
import { list, num, schemaField, str } from './aspect-views.js';
import { refOf, type EntityRef } from './entity-ref.js';

type Json = Readonly<Record<string, unknown>>;

/**
 * The fields of the datasets a chart or dashboard reads (its `inputFields` aspect; the types are in
 * entity-schema.ts), each with the schema field entity it names, and a schema field's `documentation`
 * aspect, in the ecosystem's shapes.
 */
export const inputFieldsSchema = `
type Documentation { documentations: [DocumentationAssociation!]! }
type DocumentationAssociation { documentation: String! attribution: MetadataAttribution }
type MetadataAttribution {
  time: Long!
  actor: Entity!
  source: Entity
  sourceDetail: [StringMapEntry!]
}
extend type SchemaFieldEntity { documentation: Documentation }
`;

async function inputFields(ref: EntityRef, _args: unknown, ctx: GraphQLContext) {
  const value = await ctx.entities.aspect<Json>(ref.urn, 'inputFields');
  if (value === undefined) return null;
  return {
    fields: list(value['fields']).map((f) => {
      const urn = str(f['schemaFieldUrn']);
      const field = f['schemaField'] as Json | undefined;
      const entity = refOf(urn);
      return {
        schemaFieldUrn: urn,
        schemaField:
          field === undefined
            ? null
            : { ...schemaField(field, ref), ...(entity === undefined ? {} : { schemaFieldEntity: entity }) },
      };
    }),
  };
}

function attribution(value: unknown) {
  if (typeof value !== 'object' || value === null) return null;
  const a = value as Json;
  const actor = refOf(a['actor']);
  const time = num(a['time']);
  if (actor === undefined || time === null) return null;
  const detail = a['sourceDetail'];
  return {
    time,
    actor,
    source: refOf(a['source']) ?? null,
    sourceDetail:
      typeof detail === 'object' && detail !== null
        ? Object.entries(detail as Json).map(([key, v]) => ({ key, value: str(v) }))
        : null,
  };
}

export function inputFieldsResolvers(): Record<string, Record<string, unknown>> {
  return {
    Chart: { inputFields },
    Dashboard: { inputFields },
    SchemaFieldEntity: {
      documentation: async (ref: EntityRef, _args: unknown, ctx: GraphQLContext) => {
        const value = await ctx.entities.aspect<Json>(ref.urn, 'documentation');
        if (value === undefined) return null;
        return {
          documentations: list(value['documentations']).map((d) => ({
            documentation: str(d['documentation']) ?? '',
            attribution: attribution(d['attribution']),
          })),
        };
      },
    },
  };
}
