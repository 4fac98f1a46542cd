import type { StructuredPropertySearchDefinition } from './port.js';
import type { StructuredValueType } from './structured-property-fields.js';

const VALUE_TYPES: ReadonlySet<string> = new Set<StructuredValueType>([
  'string',
  'number',
  'date',
  'rich_text',
  'urn',
  'unknown',
]);

/** A definition of the view read back from its stored JSON; undefined when the shape is not one. */
export function definitionFromJson(raw: unknown): StructuredPropertySearchDefinition | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r['urn'] !== 'string' || typeof r['qualifiedName'] !== 'string') return undefined;
  if (typeof r['valueType'] !== 'string' || !VALUE_TYPES.has(r['valueType'])) return undefined;
  return {
    urn: r['urn'],
    qualifiedName: r['qualifiedName'],
    valueType: r['valueType'] as StructuredValueType,
    ...(typeof r['version'] === 'string' ? { version: r['version'] } : {}),
    ...(typeof r['versionSince'] === 'number' ? { versionSince: r['versionSince'] } : {}),
    removed: r['removed'] === true,
  };
}
