import type { AspectSpec } from '@catalog/model';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

interface AvroLike {
  readonly typeName: string;
  readonly name?: string;
  readonly fields?: readonly { readonly name: string; readonly type: AvroLike; defaultValue(): unknown }[];
  readonly symbols?: readonly string[];
  readonly itemsType?: AvroLike;
  readonly valuesType?: AvroLike;
  readonly types?: readonly AvroLike[];
  readonly underlyingType?: AvroLike;
  readonly entityTypes?: readonly string[];
}

/**
 * The JSON Schema of an aspect value in the JSON the wire carries (the same rules the validator
 * applies): optional fields are the bare value or absent; other unions are single-key objects keyed by
 * the member's name; URN fields are strings of the `urn:li:` form. Named records become `$ref`s into
 * `components.schemas`, collected in `named`, so shared records appear once.
 */
export function aspectJsonSchema(spec: AspectSpec, named: Map<string, JsonSchema>): JsonSchema {
  return toSchema(spec.schema as unknown as AvroLike, named);
}

export function schemaRef(recordName: string): string {
  return `#/components/schemas/${componentName(recordName)}`;
}

/** Component names keep the record's full name, dots and all (allowed by OpenAPI). */
export function componentName(recordName: string): string {
  return recordName.replace(/[^A-Za-z0-9._-]/g, '_');
}

function toSchema(type: AvroLike, named: Map<string, JsonSchema>): JsonSchema {
  if (type.underlyingType !== undefined && type.typeName.startsWith('logical')) {
    const urn: JsonSchema = { type: 'string', pattern: '^urn:li:' };
    if (type.entityTypes?.length) urn['description'] = `A ${type.entityTypes.join(' or ')} urn`;
    return urn;
  }
  switch (type.typeName) {
    case 'record':
    case 'error': {
      const name = type.name ?? 'Record';
      if (!named.has(name)) {
        named.set(name, {}); // placeholder against recursion
        const properties: Record<string, JsonSchema> = {};
        const required: string[] = [];
        for (const field of type.fields ?? []) {
          const optional = isOptional(field.type);
          properties[field.name] = toSchema(optional ? nonNull(field.type) : field.type, named);
          if (!optional && field.defaultValue() === undefined) required.push(field.name);
        }
        named.set(name, { type: 'object', properties, ...(required.length > 0 ? { required } : {}) });
      }
      return { $ref: schemaRef(name) };
    }
    case 'enum':
      return { type: 'string', enum: [...(type.symbols ?? [])] };
    case 'array':
      return { type: 'array', items: toSchema(type.itemsType!, named) };
    case 'map':
      return { type: 'object', additionalProperties: toSchema(type.valuesType!, named) };
    case 'union:wrapped':
    case 'union:unwrapped': {
      if (isOptional(type)) return toSchema(nonNull(type), named);
      const members = (type.types ?? []).filter((m) => m.typeName !== 'null');
      return {
        oneOf: members.map((m) => ({
          type: 'object',
          properties: { [memberKey(m)]: toSchema(m, named) },
          required: [memberKey(m)],
          additionalProperties: false,
        })),
      };
    }
    case 'string':
    case 'bytes':
    case 'fixed':
      return { type: 'string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'int':
      return { type: 'integer', format: 'int32' };
    case 'long':
      return { type: 'integer', format: 'int64' };
    case 'float':
    case 'double':
      return { type: 'number' };
    default:
      return {};
  }
}

function isOptional(type: AvroLike): boolean {
  const members = type.types ?? [];
  return (
    type.typeName.startsWith('union') && members.length === 2 && members.some((m) => m.typeName === 'null')
  );
}

function nonNull(type: AvroLike): AvroLike {
  return (type.types ?? []).find((m) => m.typeName !== 'null') ?? type;
}

function memberKey(type: AvroLike): string {
  if (type.underlyingType !== undefined) return memberKey(type.underlyingType);
  return type.name ?? type.typeName;
}
