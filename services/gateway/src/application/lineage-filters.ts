import { entityRegistry, parseUrn, ValidationError } from '@catalog/model';
import type { Criterion, Filter } from '@catalog/search';
import {
  LINEAGE_MAX_HOPS,
  platformOfUrn,
  schemaFieldParent,
  type LineageWalkOptions,
  type ReachedEntity,
} from './lineage-walk.js';

/** The hop-count filter of a lineage query, as the ecosystem's clients send it in `orFilters`. */
const DEGREE_FIELD = 'degree';
const DEGREE_VALUES = ['1', '2', '3+'] as const;

/**
 * Takes the `degree` criteria out of a lineage filter: they choose which hop counts are shown (`1`,
 * `2`, `3+` for three and more) and how deep the walk goes (no `3+`: the largest value asked). Any
 * other value is refused, as the ecosystem refuses it.
 */
export function splitDegreeFilter(filter: Filter): {
  readonly filter: Filter;
  readonly degrees: (degree: number) => boolean;
  readonly maxHops: number;
} {
  const values = new Set<string>();
  const or = filter.or.map((conjunction) => ({
    and: conjunction.and.filter((c) => {
      if (c.field !== DEGREE_FIELD) return true;
      for (const v of c.values) {
        if (!(DEGREE_VALUES as readonly string[]).includes(v))
          throw new ValidationError(
            `${JSON.stringify(v)} is not a valid filter value for degree filters (one of ${DEGREE_VALUES.join(', ')})`,
          );
        values.add(v);
      }
      return false;
    }),
  }));
  const stripped = { or: or.some((c) => c.and.length > 0) ? or : [] };
  if (values.size === 0) return { filter: stripped, degrees: () => true, maxHops: LINEAGE_MAX_HOPS };
  return {
    filter: stripped,
    degrees: (d) =>
      (d === 1 && values.has('1')) || (d === 2 && values.has('2')) || (d > 2 && values.has('3+')),
    maxHops: values.has('3+') ? LINEAGE_MAX_HOPS : values.has('2') ? 2 : 1,
  };
}

/** The walk options of lineage flags. */
export function walkFlags(
  flags: Omit<LineageWalkOptions, 'maxHops'> | undefined,
): Omit<LineageWalkOptions, 'maxHops'> {
  if (flags === undefined) return {};
  return {
    ...(flags.entitiesExploredPerHopLimit === undefined
      ? {}
      : { entitiesExploredPerHopLimit: flags.entitiesExploredPerHopLimit }),
    ...(flags.ignoreAsHops === undefined ? {} : { ignoreAsHops: flags.ignoreAsHops }),
    ...(flags.startTimeMillis === undefined ? {} : { startTimeMillis: flags.startTimeMillis }),
    ...(flags.endTimeMillis === undefined ? {} : { endTimeMillis: flags.endTimeMillis }),
  };
}

/** The registry entity type a urn names. */
export function entityTypeOf(urn: string): string {
  return urn.split(':')[2] ?? '';
}

/** The field path a schema field urn names (the parts after its parent). */
export function fieldPathOf(urn: string): string {
  try {
    return parseUrn(urn).parts.slice(1).join(',');
  } catch {
    return '';
  }
}

export interface GroupedReach {
  readonly degree: number;
  readonly degrees: readonly number[];
  readonly paths: readonly (readonly string[])[];
  readonly ignoredAsHop: boolean;
  readonly explored: boolean;
  readonly truncatedChildren: boolean;
}

/**
 * The entities a walk reached as a search shows them: with `asDatasets`, a schema field is shown as
 * the dataset holding it, at the least hop count of its fields, with the paths of those fields.
 */
export function groupReached(
  reached: ReadonlyMap<string, ReachedEntity>,
  asDatasets: boolean,
): Map<string, GroupedReach> {
  type Entry = {
    degree: number;
    degrees: Set<number>;
    paths: (readonly string[])[];
    ignoredAsHop: boolean;
    explored: boolean;
    truncatedChildren: boolean;
  };
  const out = new Map<string, Entry>();
  for (const r of reached.values()) {
    const key = (asDatasets ? schemaFieldParent(r.urn) : undefined) ?? r.urn;
    const entry = out.get(key);
    if (entry === undefined) {
      out.set(key, {
        degree: r.degree,
        degrees: new Set([r.degree]),
        paths: [...r.paths],
        ignoredAsHop: r.ignoredAsHop,
        explored: r.explored,
        truncatedChildren: r.truncatedChildren,
      });
      continue;
    }
    entry.degrees.add(r.degree);
    entry.explored ||= r.explored;
    entry.truncatedChildren ||= r.truncatedChildren;
    if (r.degree < entry.degree) {
      entry.degree = r.degree;
      entry.paths = [...r.paths];
      entry.ignoredAsHop = r.ignoredAsHop;
    } else if (r.degree === entry.degree) entry.paths.push(...r.paths);
  }
  return new Map([...out].map(([k, v]) => [k, { ...v, degrees: [...v.degrees].sort((a, b) => a - b) }]));
}

/** The filter with every conjunction narrowed to `urns`. */
export function withUrns(filter: Filter, urns: readonly string[]): Filter {
  const among: Criterion = { field: 'urn', values: urns, condition: 'EQUAL' };
  const conjunctions = filter.or.length === 0 ? [{ and: [] }] : filter.or;
  return { or: conjunctions.map((c) => ({ and: [...c.and, among] })) };
}

/** The fields a count off the graph can filter on: each read from the entity's urn. */
const GRAPH_FIELDS: Readonly<Record<string, (urn: string) => string | undefined>> = {
  urn: (urn) => urn,
  platform: platformOfUrn,
  parent: schemaFieldParent,
  _entityType: entityTypeOf,
  entityType: entityTypeOf,
};
const GRAPH_CONDITIONS = new Set(['EQUAL', 'IEQUAL', 'CONTAIN', 'START_WITH', 'END_WITH', 'IN', 'EXISTS']);

function graphField(field: string): ((urn: string) => string | undefined) | undefined {
  return GRAPH_FIELDS[field.replace(/\.keyword$/, '')];
}

/** Refuses a filter a count off the graph cannot answer (one on a field the urn does not hold). */
export function checkGraphFilter(filter: Filter): void {
  for (const conjunction of filter.or)
    for (const c of conjunction.and) {
      if (graphField(c.field) === undefined)
        throw new ValidationError(
          `A lineage count off the graph (includeGhostEntities) cannot filter on "${c.field}": only on degree, ${Object.keys(GRAPH_FIELDS).join(', ')}`,
        );
      if (!GRAPH_CONDITIONS.has(c.condition))
        throw new ValidationError(
          `A lineage count off the graph (includeGhostEntities) cannot filter with condition ${c.condition}`,
        );
    }
}

function matches(value: string | undefined, c: Criterion): boolean {
  const hit = (() => {
    if (value === undefined) return false;
    if (c.condition === 'EXISTS') return true;
    const normal = (s: string) =>
      c.condition === 'IEQUAL' || c.field.startsWith('_entityType') || c.field.startsWith('entityType')
        ? s.toLowerCase().replace(/_/g, '')
        : s;
    return c.values.some((v) => {
      switch (c.condition) {
        case 'CONTAIN':
          return value.includes(v);
        case 'START_WITH':
          return value.startsWith(v);
        case 'END_WITH':
          return value.endsWith(v);
        default:
          return normal(value) === normal(v);
      }
    });
  })();
  return c.negated === true ? !hit : hit;
}

/** Whether a reached entity matches a filter checked by checkGraphFilter. */
export function matchesGraphFilter(reached: { readonly urn: string }, filter: Filter): boolean {
  if (filter.or.length === 0) return true;
  return filter.or.some((conjunction) =>
    conjunction.and.every((c) => matches(graphField(c.field)?.(reached.urn), c)),
  );
}

/** The fields a search of these entity types offers as facets: the entity type and their filterable fields. */
export function facetFieldsOf(entityTypes: readonly string[]): string[] {
  const facets = new Set<string>(['_entityType']);
  for (const name of entityTypes)
    for (const spec of entityRegistry.requireEntity(name).aspects.values())
      if (spec.kind === 'versioned')
        for (const field of spec.searchable) if (field.addToFilters === true) facets.add(field.fieldName);
  return [...facets];
}
