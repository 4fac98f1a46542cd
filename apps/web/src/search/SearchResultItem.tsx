import { Link } from '@tanstack/react-router';
import {
  descriptionOf,
  entityLink,
  nameOf,
  platformNameOf,
  typeLabel,
  type EntitySummary,
} from '../entity/entity-links';
import { snippetOf } from './search-input';
import styles from './SearchResultItem.module.css';

export interface SearchResultView {
  readonly entity: EntitySummary;
  readonly matchedFields: readonly { readonly name: string; readonly value: string }[];
}

/** One hit: its name (a link to its page), type and platform, a description snippet, what matched. */
export function SearchResultItem({ result }: { result: SearchResultView }) {
  const { entity } = result;
  const description = descriptionOf(entity);
  const platform = platformNameOf(entity);
  const matched = [...new Set(result.matchedFields.map((m) => m.name))];
  return (
    <li className={styles.item}>
      <div className={styles.meta}>{[typeLabel(entity.type), platform].filter(Boolean).join(' · ')}</div>
      <Link className={styles.name} {...entityLink(entity.urn, entity.type)}>
        {nameOf(entity)}
      </Link>
      {description ? <p className={styles.description}>{snippetOf(description)}</p> : null}
      {matched.length > 0 ? (
        <p className={styles.matched}>
          Matched: {matched.slice(0, 5).join(', ')}
          {matched.length > 5 ? ` and ${matched.length - 5} more` : ''}
        </p>
      ) : null}
    </li>
  );
}
