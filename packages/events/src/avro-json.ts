import avro from 'avsc';

/**
 * A value in Avro's JSON encoding (what the ecosystem's Avro JsonEncoder writes, and its events poll
 * serves): records as objects, a non-null union branch wrapped as `{"<branch name>": value}`, bytes and
 * fixed as one character per byte (ISO-8859-1), enums as their symbol. avsc's own JSON unwraps unions,
 * so the encoding walks the type itself.
 */
export function avroJsonOf(type: avro.Type, value: unknown): unknown {
  if (type instanceof avro.types.UnwrappedUnionType || type instanceof avro.types.WrappedUnionType) {
    if (value === null || value === undefined) return null;
    const branches = (type as unknown as { readonly types: readonly avro.Type[] }).types;
    const branch = branches.find((t) => t.typeName !== 'null' && t.isValid(value));
    if (!branch) throw new TypeError(`no branch of ${type.toString()} accepts the value`);
    return { [branchName(branch)]: avroJsonOf(branch, value) };
  }
  if (type instanceof avro.types.RecordType) {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of type.fields) out[field.name] = avroJsonOf(field.type, record[field.name]);
    return out;
  }
  if (type instanceof avro.types.ArrayType) {
    return (value as readonly unknown[]).map((item) => avroJsonOf(type.itemsType, item));
  }
  if (type instanceof avro.types.MapType) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      out[key] = avroJsonOf(type.valuesType, item);
    return out;
  }
  if (type instanceof avro.types.BytesType || type instanceof avro.types.FixedType) {
    return (value as Buffer).toString('latin1');
  }
  if (type instanceof avro.types.LongType && typeof value === 'bigint') return Number(value);
  return value;
}

/** A union branch's name in the JSON encoding: a named type's full name, else the primitive's. */
function branchName(type: avro.Type): string {
  return type.name ?? type.typeName;
}
