/**
 * Structured properties as their aspects hold them (JSON, unions as single-key objects), and what the
 * write rules need to know about each property. The shapes follow the ecosystem's
 * com.linkedin.structured records: StructuredPropertyDefinition (aspect `propertyDefinition` of entity
 * `structuredProperty`) and StructuredProperties (aspect `structuredProperties` of any entity).
 */

/** One value: the PrimitivePropertyValue union, `{string: ..}` or `{double: ..}`. */
export type PrimitiveValue = { readonly string: string } | { readonly double: number };

/** An allowed value of a definition. */
export interface AllowedValue {
  readonly value: PrimitiveValue;
  readonly description?: string;
}

export type Cardinality = 'SINGLE' | 'MULTIPLE';

/** The `propertyDefinition` aspect (the fields the rules read; others pass through). */
export interface PropertyDefinition {
  readonly qualifiedName: string;
  readonly valueType: string;
  readonly typeQualifier?: Readonly<Record<string, readonly string[]>>;
  readonly allowedValues?: readonly AllowedValue[];
  /** SINGLE when absent (the schema default). */
  readonly cardinality?: Cardinality;
  readonly entityTypes: readonly string[];
  readonly immutable?: boolean;
  readonly version?: string;
}

/** One assignment of the `structuredProperties` aspect. */
export interface ValueAssignment {
  readonly propertyUrn: string;
  readonly values: readonly PrimitiveValue[];
}

/** What is known of one structured property when a write is checked. */
export interface PropertyState {
  /** Its stored definition; undefined when it has none (an orphan's property). */
  readonly definition?: PropertyDefinition;
  /** Its `status.removed`: a soft-deleted property. */
  readonly removed: boolean;
}

/** Looks a property up by urn; undefined when nothing is known of it (treated as absent). */
export type PropertyLookup = (propertyUrn: string) => PropertyState | undefined;

/** The logical value types of the data-type urns (`urn:li:dataType:datahub.<type>`). */
export type LogicalValueType = 'string' | 'number' | 'date' | 'urn' | 'rich_text';
