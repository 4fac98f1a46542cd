/**
 * Avro schemas are written as data. A named type (record, enum, fixed) must be defined inline at its first
 * use inside one schema document and referenced by full name afterwards, exactly as the ecosystem's
 * generated `.avsc` files do; the builder tracks which names a document has already defined.
 */
export type AvroSchemaJson =
  | string
  | readonly AvroSchemaJson[]
  | { readonly [key: string]: AvroSchemaJson | number | boolean | null | readonly string[] | undefined };

export interface NamedTypeDefinition {
  readonly fullName: string;
  readonly build: (schemas: SchemaDocument) => AvroSchemaJson;
}

/** One schema document under construction (one top-level event schema). */
export class SchemaDocument {
  private readonly defined = new Set<string>();

  /** The full definition the first time a name is used in this document, the bare full name afterwards. */
  use(definition: NamedTypeDefinition): AvroSchemaJson {
    if (this.defined.has(definition.fullName)) return definition.fullName;
    this.defined.add(definition.fullName);
    return definition.build(this);
  }
}

/** `["null", T]` with default null: how the ecosystem encodes an optional field. */
export function optionalField(
  name: string,
  type: AvroSchemaJson,
  extra: Record<string, AvroSchemaJson> = {},
) {
  return { name, type: ['null', type], default: null, ...extra };
}
