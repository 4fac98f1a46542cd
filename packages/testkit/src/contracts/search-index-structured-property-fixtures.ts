import {
  STRUCTURED_PROPERTY_URNS_FIELD,
  structuredPropertyFieldName,
  type Condition,
  type Criterion,
  type EntityDocument,
  type Filter,
  type SearchScalar,
  type StructuredPropertySearchDefinition,
  type StructuredValueType,
} from '@catalog/search';

/** One conjunction of criteria. */
export const and = (...criteria: Criterion[]): Filter => ({ or: [{ and: criteria }] });
export const c = (field: string, condition: Condition, values: string[] = []): Criterion => ({
  field,
  condition,
  values,
});

/** A definition of the view: `io.<ns>.<name>` (a unique, dotted qualified name). */
export function definition(
  ns: string,
  name: string,
  valueType: StructuredValueType,
  extra: Partial<StructuredPropertySearchDefinition> = {},
): StructuredPropertySearchDefinition {
  const qualifiedName = `io.${ns}.${name}`;
  return {
    urn: `urn:li:structuredProperty:${qualifiedName}`,
    qualifiedName,
    valueType,
    removed: false,
    ...extra,
  };
}

/** A document with structured property values, in the fields the indexer gives them. */
export function withValues(
  doc: EntityDocument,
  values: readonly (readonly [StructuredPropertySearchDefinition, readonly SearchScalar[]])[],
): EntityDocument {
  const fields: Record<string, SearchScalar | readonly SearchScalar[]> = { ...doc.fields };
  fields[STRUCTURED_PROPERTY_URNS_FIELD] = values.map(([d]) => d.urn);
  for (const [d, v] of values) fields[structuredPropertyFieldName(d)] = v;
  return { ...doc, fields };
}

/** The document without one field. */
export function without(doc: EntityDocument, field: string): EntityDocument {
  return {
    ...doc,
    fields: Object.fromEntries(Object.entries(doc.fields).filter(([name]) => name !== field)),
  };
}
