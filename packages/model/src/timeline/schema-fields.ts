import { compareJava, text, type Json } from './aspect-values.js';

const FIELD_PATH_V2 = '[version=2.0]';

export function fieldPathOf(field: Json): string {
  return text(field['fieldPath']) ?? '';
}

/**
 * A field path without its v2 type annotations (`[version=2.0].[type=struct].a.[type=int].b` → `a.b`),
 * as the ecosystem names fields in its messages; a v1 path is returned as is.
 */
export function downgradeFieldPath(fieldPath: string): string {
  if (!fieldPath.startsWith(FIELD_PATH_V2)) return fieldPath;
  return fieldPath
    .slice(FIELD_PATH_V2.length)
    .split('.')
    .filter((c) => c !== '' && !(c.startsWith('[') && c.endsWith(']')))
    .join('.');
}

/** The schema field's urn: the dataset urn and the field path, its `(`, `)` and `,` percent-encoded. */
export function schemaFieldUrn(datasetUrn: string, fieldPath: string): string {
  const encoded = fieldPath.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/,/g, '%2C');
  return `urn:li:schemaField:(${datasetUrn},${encoded})`;
}

export function sortByFieldPath(fields: readonly Json[]): Json[] {
  return [...fields].sort((a, b) => compareJava(fieldPathOf(a), fieldPathOf(b)));
}
