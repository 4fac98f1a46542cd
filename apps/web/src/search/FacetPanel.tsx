import { useState } from 'react';
import { Button } from '../design/Button';
import { nameOf, typeLabel, type EntitySummary } from '../entity/entity-links';
import { urlValueOf } from './search-params';
import styles from './FacetPanel.module.css';

export interface FacetValue {
  readonly value: string;
  readonly count: number;
  readonly entity?: EntitySummary | null;
}

export interface Facet {
  readonly field: string;
  readonly displayName?: string | null;
  readonly aggregations: readonly FacetValue[];
}

/** The facets people filter by most, first; the others follow in the catalog's order. */
const FIRST = ['entity', 'platform', 'origin', 'tags', 'glossaryTerms', 'owners', 'domains'];
const TITLES: Record<string, string> = {
  entity: 'Type',
  platform: 'Platform',
  origin: 'Environment',
  tags: 'Tags',
  glossaryTerms: 'Glossary terms',
  owners: 'Owners',
  domains: 'Domains',
};
const SHOWN = 6;

/** A facet value as people read it: the entity's name, a type's label, else the value. */
export function facetValueLabel(field: string, value: FacetValue): string {
  if (field === 'entity') return typeLabel(value.value);
  if (value.entity) return nameOf(value.entity);
  return value.value;
}

function ordered(facets: readonly Facet[]): Facet[] {
  const rank = (f: Facet) => (FIRST.includes(f.field) ? FIRST.indexOf(f.field) : FIRST.length);
  return facets.filter((f) => f.aggregations.some((a) => a.count > 0)).sort((a, b) => rank(a) - rank(b));
}

/**
 * The facets of the results as groups of checkboxes, each value with its count. Checking one adds its
 * filter (values of one facet widen, facets narrow), unchecking removes it.
 */
export function FacetPanel({
  facets,
  chosen,
  onToggle,
}: {
  facets: readonly Facet[];
  chosen: Readonly<Record<string, readonly string[]>>;
  onToggle: (field: string, urlValue: string) => void;
}) {
  return (
    <>
      {ordered(facets).map((facet) => (
        <FacetGroup
          key={facet.field}
          facet={facet}
          chosen={chosen[facet.field] ?? []}
          onToggle={(value) => onToggle(facet.field, value)}
        />
      ))}
    </>
  );
}

function FacetGroup({
  facet,
  chosen,
  onToggle,
}: {
  facet: Facet;
  chosen: readonly string[];
  onToggle: (urlValue: string) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const values = facet.aggregations.filter(
    (a) => a.count > 0 || chosen.includes(urlValueOf(facet.field, a.value)),
  );
  const shown = expanded ? values : values.slice(0, SHOWN);
  const title = TITLES[facet.field] ?? facet.displayName ?? facet.field;
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{title}</legend>
      {shown.map((value) => {
        const urlValue = urlValueOf(facet.field, value.value);
        return (
          <label key={value.value} className={styles.option}>
            <input type="checkbox" checked={chosen.includes(urlValue)} onChange={() => onToggle(urlValue)} />
            <span className={styles.label}>{facetValueLabel(facet.field, value)}</span>
            <span className={styles.count}>
              {value.count.toLocaleString()}
              <span className="visually-hidden"> {value.count === 1 ? 'result' : 'results'}</span>
            </span>
          </label>
        );
      })}
      {values.length > SHOWN ? (
        <Button variant="ghost" size="small" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
          {expanded ? 'Show fewer' : `Show all ${values.length}`}
        </Button>
      ) : null}
    </fieldset>
  );
}
