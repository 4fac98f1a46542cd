/**
 * The vocabulary of semantic changes between two versions of an aspect, as the ecosystem's timeline and
 * entity change events name them.
 */

/** What a change concerns (the ecosystem's ChangeCategory, in its order). */
export const CHANGE_CATEGORIES = [
  'DOCUMENTATION',
  'GLOSSARY_TERM',
  'OWNERSHIP',
  'TECHNICAL_SCHEMA',
  'TAG',
  'DOMAIN',
  'DEPRECATION',
  'LIFECYCLE',
  'RUN',
  'BUSINESS_ATTRIBUTE',
  'STRUCTURED_PROPERTY',
  'APPLICATION',
  'PARENT',
  'RELATED_ENTITIES',
  'ASSET_MEMBERSHIP',
  'VERSIONING',
] as const;
export type ChangeCategory = (typeof CHANGE_CATEGORIES)[number];

export type ChangeOperation =
  | 'ADD'
  | 'MODIFY'
  | 'REMOVE'
  | 'CREATE'
  | 'HARD_DELETE'
  | 'SOFT_DELETE'
  | 'REINSTATE'
  | 'STARTED'
  | 'COMPLETED';

/** How much a change moves the computed semantic version, weakest first (order matters: max wins). */
export const SEMANTIC_CHANGE_TYPES = ['NONE', 'PATCH', 'MINOR', 'MAJOR', 'EXCEPTIONAL'] as const;
export type SemanticChangeType = (typeof SEMANTIC_CHANGE_TYPES)[number];

export interface ChangeAuditStamp {
  readonly time: number;
  readonly actor: string;
}

/** One semantic change of an entity (the ecosystem's ChangeEvent, as JSON). */
export interface ChangeEvent {
  /** The entity changed; a schema field's urn for field-level documentation and labels. */
  readonly entityUrn: string;
  readonly category: ChangeCategory;
  readonly operation: ChangeOperation;
  /** What changed, e.g. the tag, owner or field urn. */
  readonly modifier?: string;
  /** Details that depend on category and operation (values are strings, numbers or booleans). */
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly auditStamp?: ChangeAuditStamp;
  readonly semVerChange: SemanticChangeType;
  readonly description: string;
}

/** The stronger of two semantic change types. */
export function maxSemanticChange(a: SemanticChangeType, b: SemanticChangeType): SemanticChangeType {
  return SEMANTIC_CHANGE_TYPES.indexOf(a) >= SEMANTIC_CHANGE_TYPES.indexOf(b) ? a : b;
}

/** The strongest semantic change among events (NONE for none). */
export function highestSemanticChange(events: readonly ChangeEvent[]): SemanticChangeType {
  return events.reduce<SemanticChangeType>((max, e) => maxSemanticChange(max, e.semVerChange), 'NONE');
}
