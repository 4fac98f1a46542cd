import avro from 'avsc';
import type { Type } from 'avsc';
import { isUrn, parseUrn } from '../urn.js';

type LogicalSchema = ConstructorParameters<typeof avro.types.LogicalType>[0];

/**
 * The `urn` logical type over Avro strings. The wire stays a plain string (other Avro readers ignore the
 * logical type); here it lets the validator, and avsc's own isValid, reject strings that are not URNs.
 */
export class UrnType extends avro.types.LogicalType {
  /** Entity types the URN must have; undefined for any. */
  readonly entityTypes: readonly string[] | undefined;

  constructor(schema: LogicalSchema, opts?: unknown) {
    super(schema, opts);
    const declared = (schema as { entityTypes?: unknown }).entityTypes;
    this.entityTypes = Array.isArray(declared) ? declared.map(String) : undefined;
  }

  /** Why `value` does not fit, or undefined when it does. */
  problemWith(value: string): string | undefined {
    if (!isUrn(value)) return `not a valid urn: ${JSON.stringify(value)}`;
    if (this.entityTypes && this.entityTypes.length > 0) {
      const entityType = parseUrn(value).entityType;
      if (!this.entityTypes.includes(entityType)) {
        return `expected a ${this.entityTypes.join(' or ')} urn, got ${JSON.stringify(value)}`;
      }
    }
    return undefined;
  }

  protected override _fromValue(value: unknown): unknown {
    return value;
  }

  protected override _toValue(value: unknown): unknown {
    return typeof value === 'string' && this.problemWith(value) === undefined ? value : undefined;
  }

  protected override _resolve(type: Type): unknown {
    if (type instanceof UrnType || type.typeName === 'string') return (value: unknown) => value;
    return undefined;
  }

  protected override _export(schema: LogicalSchema): void {
    if (this.entityTypes) (schema as { entityTypes?: readonly string[] }).entityTypes = this.entityTypes;
  }
}
