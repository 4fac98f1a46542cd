import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { execute } from '../api/graphql-client';
import { Card } from '../design/Card';
import { ErrorMessage, Loading, Muted } from '../design/Status';
import { EntityDetailsQuery } from './entity-details-query';
import { DomainCard, OwnersCard, TermsCard } from './EntityLabels';
import { descriptionOf, nameOf, platformNameOf, typeLabel } from './entity-links';
import { tagsOf, termsOf } from './labels';
import { Markdown } from './Markdown';
import { TagEditor } from './TagEditor';
import styles from './EntityPage.module.css';

/**
 * An entity of any family without a page of its own (dashboards, charts, flows and jobs, containers,
 * users and groups, tags, terms, domains, …): its name, platform, description, tags (editable where the
 * user may), terms, owners and domain, and a search for what it labels.
 */
export function EntityPage() {
  const { urn } = useParams({ from: '/app/entity/$urn' });
  const queryKey = ['entity', urn] as const;
  const result = useQuery({ queryKey, queryFn: () => execute(EntityDetailsQuery, { urn }) });
  if (result.isPending) return <Loading what="the entity" />;
  if (result.error) return <ErrorMessage error={result.error} />;
  const entity = result.data.entity;
  if (!entity) return <ErrorMessage error={`No entity ${urn}`} />;
  const description = descriptionOf(entity);
  const facet = FACET_OF_TYPE[entity.type];
  const labelled = 'ownership' in entity ? entity : undefined;
  const withTags = labelled !== undefined && 'tags' in labelled ? labelled : undefined;
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
      <div className={styles.columns}>
        <div className={styles.main}>
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
        </div>
        {labelled ? (
          <aside className={styles.side} aria-label="Labels">
            {withTags ? (
              <Card title="Tags">
                <TagEditor
                  urn={entity.urn}
                  tags={tagsOf(withTags.tags)}
                  canEdit={withTags.privileges?.canEditTags === true}
                  queryKey={queryKey}
                />
              </Card>
            ) : null}
            {withTags ? <TermsCard terms={termsOf(withTags.glossaryTerms)} /> : null}
            <OwnersCard owners={labelled.ownership?.owners ?? []} />
            {withTags ? <DomainCard domain={withTags.domain?.domain} /> : null}
          </aside>
        ) : null}
      </div>
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
