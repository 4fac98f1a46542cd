import { useQuery } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { execute } from '../api/graphql-client';
import { Icon } from '../design/Icon';
import { graphql } from '../gql';
import { entityLink, nameOf, platformNameOf, typeLabel, type EntitySummary } from '../entity/entity-links';
import styles from './SearchBox.module.css';

/** The id of the header's search input (`/` focuses it). */
export const SEARCH_BOX_ID = 'global-search';

const AutoCompleteQuery = graphql(`
  query getAutoCompleteMultipleResults($input: AutoCompleteMultipleInput!) {
    autoCompleteForMultiple(input: $input) {
      query
      suggestions {
        type
        suggestions
        entities {
          ...EntitySummaryFields
        }
      }
    }
  }
`);

/** How long typing must pause before suggestions are asked for. */
const DEBOUNCE_MS = 150;
const MAX_SUGGESTIONS = 8;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The header's search: a combobox (WAI-ARIA 1.2) that suggests entities as one types. Arrow keys move
 * through the suggestions, Enter opens the one chosen or, with none chosen, the results page; Escape
 * closes the list.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const currentQuery = useRouterState({
    select: (state) =>
      state.location.pathname === '/search' ? String(state.location.search['q'] ?? '') : '',
  });
  const [text, setText] = useState(currentQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  useEffect(() => setText(currentQuery), [currentQuery]);

  const query = useDebounced(text.trim(), DEBOUNCE_MS);
  const suggestions = useQuery({
    queryKey: ['autocomplete', query],
    queryFn: () => execute(AutoCompleteQuery, { input: { query, limit: MAX_SUGGESTIONS } }),
    enabled: open && query.length > 0,
    staleTime: 60_000,
  });
  const entities: EntitySummary[] = (suggestions.data?.autoCompleteForMultiple?.suggestions ?? [])
    .flatMap((group) => group.entities)
    .slice(0, MAX_SUGGESTIONS);
  const showList = open && query.length > 0 && entities.length > 0;

  const search = () => {
    setOpen(false);
    void navigate({ to: '/search', search: { q: text.trim() } as never });
  };
  const choose = (entity: EntitySummary) => {
    setOpen(false);
    setText('');
    void navigate(entityLink(entity.urn, entity.type));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && entities.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % entities.length);
    } else if (event.key === 'ArrowUp' && entities.length > 0) {
      event.preventDefault();
      setActive((i) => (i <= 0 ? entities.length - 1 : i - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = showList && active >= 0 ? entities[active] : undefined;
      if (chosen) choose(chosen);
      else search();
    }
  };

  return (
    <form
      role="search"
      className={styles.box}
      onSubmit={(event) => {
        event.preventDefault();
        search();
      }}
    >
      <label htmlFor={SEARCH_BOX_ID} className="visually-hidden">
        Search the catalog
      </label>
      <Icon name="search" />
      <input
        id={SEARCH_BOX_ID}
        className={styles.input}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-keyshortcuts="/"
        placeholder="Search datasets, dashboards, people…  ( / )"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label="Suggestions" className={styles.list} hidden={!showList}>
        {entities.map((entity, i) => (
          <li
            key={entity.urn}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={styles.option}
            // Chosen on mouse down: the input's blur (which closes the list) comes after.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(entity);
            }}
          >
            <span className={styles.optionName}>{nameOf(entity)}</span>
            <span className={styles.optionMeta}>
              {[typeLabel(entity.type), platformNameOf(entity)].filter(Boolean).join(' · ')}
            </span>
          </li>
        ))}
      </ul>
    </form>
  );
}
