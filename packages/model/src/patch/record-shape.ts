import avro from 'avsc';
import type { Type, types } from 'avsc';

/** The type itself, or the one non-null member of an optional union, or a logical type's underlying type. */
function unwrap(type: Type | undefined): Type | undefined {
  let current = type;
  for (;;) {
    if (current === undefined) return undefined;
    if (current instanceof avro.types.LogicalType) {
      current = current.underlyingType;
      continue;
    }
    if (current.typeName.startsWith('union')) {
      const members = (current as types.WrappedUnionType).types.filter((m) => m.typeName !== 'null');
      if (members.length !== 1) return current;
      current = members[0];
      continue;
    }
    return current;
  }
}

/** The type of a record's field (optional unions unwrapped), or undefined when there is no such field. */
export function fieldType(record: Type | undefined, name: string): Type | undefined {
  const shape = unwrap(record);
  if (shape === undefined || (shape.typeName !== 'record' && shape.typeName !== 'error')) return undefined;
  return unwrap((shape as types.RecordType).fields.find((f) => f.name === name)?.type);
}

/** The type at a field path of a record. */
export function typeAt(record: Type | undefined, path: readonly string[]): Type | undefined {
  let current = unwrap(record);
  for (const step of path) current = fieldType(current, step);
  return current;
}

/** The element type of the array at a field path of a record. */
export function itemTypeAt(record: Type | undefined, path: readonly string[]): Type | undefined {
  const array = typeAt(record, path);
  return array?.typeName === 'array' ? unwrap((array as types.ArrayType).itemsType) : undefined;
}

export type ScalarKind = 'string' | 'number' | 'boolean';

/** How a scalar field of a record is written in JSON, or undefined when the field is not a scalar. */
export function scalarKindOf(record: Type | undefined, name: string): ScalarKind | undefined {
  const type = fieldType(record, name);
  switch (type?.typeName) {
    case 'string':
    case 'enum':
      return 'string';
    case 'int':
    case 'long':
    case 'float':
    case 'double':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}
