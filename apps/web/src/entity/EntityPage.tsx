import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { execute } from '../api/graphql-client';
import { Card } from '../design/Card';
import { ErrorMessage, Loading, Muted } from '../design/Status';
import { graphql } from '../gql';
import { descriptionOf, nameOf, platformNameOf, typeLabel } from './entity-links';
import { Markdown } from './Markdown';
import styles from './EntityPage.module.css';

const EntityQuery = graphql(`
  query getEntitySummary($urn: String!) {
    entity(urn: $urn) {
      ...EntitySummaryFields
    }
  }
`);

/**
 * Any entity without a page of its own yet: its type, name, platform and description, and a search
 * for what it labels (a tag's, term's, domain's or owner's entities).
 */
export function EntityPage() {
  const { urn } = useParams({ from: '/app/entity/$urn' });
  const result = useQuery({ queryKey: ['entity', urn], queryFn: () => execute(EntityQuery, { urn }) });
  if (result.isPending) return <Loading what="the entity" />;
  if (result.error) return <ErrorMessage error={result.error} />;
  const entity = result.data.entity;
  if (!entity) return <ErrorMessage error={`No entity ${urn}`} />;
  const description = descriptionOf(entity);
  const facet = FACET_OF_TYPE[entity.type];
  return (
    <article className={styles.page} aria-labelledby="entity-title">
      <header className={styles.header}>
        <p className={styles.kind}>
          {[typeLabel(entity.type), platformNameOf(entity)].filter(Boolean).join(' · ')}
        </p>
        <h1 id="entity-title" className={styles.title}>
          {nameOf(entity)}
        </h1>
        <p className={styles.muted}>
          <code>{entity.urn}</code>
        </p>
      </header>
      <Card title="About">
        {description ? <Markdown source={description} /> : <Muted>No description.</Muted>}
      </Card>
      {facet ? (
        <p>
          <Link to="/search" search={{ [facet]: [entity.urn] } as never}>
            Find what is labelled {nameOf(entity)}
          </Link>
        </p>
      ) : null}
    </article>
  );
}

/** The search facet that lists the entities an entity of this type labels. */
const FACET_OF_TYPE: Record<string, string> = {
  TAG: 'tags',
  GLOSSARY_TERM: 'glossaryTerms',
  DOMAIN: 'domains',
  CORP_USER: 'owners',
  CORP_GROUP: 'owners',
  DATA_PLATFORM: 'platform',
};
