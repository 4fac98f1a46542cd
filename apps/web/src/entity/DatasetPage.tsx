import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { execute } from '../api/graphql-client';
import { displayNameOf } from '../auth/session';
import { Card } from '../design/Card';
import { Chip } from '../design/Chip';
import { ErrorMessage, Loading, Muted } from '../design/Status';
import { nameOf, platformNameOf, typeLabel } from './entity-links';
import { DatasetQuery } from './dataset-query';
import { tagsOf, termsOf } from './labels';
import { Markdown } from './Markdown';
import { SchemaTable } from './SchemaTable';
import { TagEditor } from './TagEditor';
import styles from './EntityPage.module.css';

/** A dataset: its properties, description, schema, owners, tags, terms and domain. */
export function DatasetPage() {
  const { urn } = useParams({ from: '/app/dataset/$urn' });
  const queryKey = ['dataset', urn] as const;
  const result = useQuery({ queryKey, queryFn: () => execute(DatasetQuery, { urn }) });
  if (result.isPending) return <Loading what="the dataset" />;
  if (result.error) return <ErrorMessage error={result.error} />;
  const dataset = result.data.dataset;
  if (!dataset) return <ErrorMessage error={`No dataset ${urn}`} />;

  const description = dataset.editableProperties?.description || dataset.properties?.description;
  const owners = dataset.ownership?.owners ?? [];
  const terms = termsOf(dataset.glossaryTerms);
  const domain = dataset.domain?.domain;
  const custom = dataset.properties?.customProperties ?? [];
  const subType = dataset.subTypes?.typeNames?.[0];

  return (
    <article className={styles.page} aria-labelledby="entity-title">
      <header className={styles.header}>
        <p className={styles.kind}>
          {[subType ?? typeLabel(dataset.type), platformNameOf(dataset), dataset.origin]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <h1 id="entity-title" className={styles.title}>
          {nameOf(dataset)}
        </h1>
        {dataset.properties?.qualifiedName ? (
          <p className={styles.muted}>
            <code>{dataset.properties.qualifiedName}</code>
          </p>
        ) : null}
      </header>
      <div className={styles.columns}>
        <div className={styles.main}>
          <Card title="About">
            {description ? <Markdown source={description} /> : <Muted>No description.</Muted>}
          </Card>
          <Card title={`Schema (${dataset.schemaMetadata?.fields.length ?? 0} fields)`}>
            <SchemaTable dataset={dataset} />
          </Card>
          {custom.length > 0 ? (
            <Card title="Properties">
              <dl className={styles.properties}>
                {custom.map((p) => (
                  <div key={p.key} className={styles.property}>
                    <dt>{p.key}</dt>
                    <dd>{p.value}</dd>
                  </div>
                ))}
              </dl>
            </Card>
          ) : null}
        </div>
        <aside className={styles.side} aria-label="Labels">
          <Card title="Tags">
            <TagEditor
              urn={dataset.urn}
              tags={tagsOf(dataset.tags)}
              canEdit={dataset.privileges?.canEditTags === true}
              queryKey={queryKey}
            />
          </Card>
          <Card title="Glossary terms">
            {terms.length === 0 ? <Muted>No terms</Muted> : null}
            <div className={styles.chips}>
              {terms.map((t) => (
                <Chip key={t.urn}>{t.name}</Chip>
              ))}
            </div>
          </Card>
          <Card title="Owners">
            {owners.length === 0 ? <Muted>No owners</Muted> : null}
            <ul className={styles.plain}>
              {owners.map(({ owner, type }) => (
                <li key={owner.urn}>
                  <Link to="/entity/$urn" params={{ urn: owner.urn }}>
                    {'username' in owner ? displayNameOf(owner) : owner.properties?.displayName || owner.name}
                  </Link>
                  {type ? <span className={styles.muted}> · {typeLabel(type)}</span> : null}
                </li>
              ))}
            </ul>
          </Card>
          <Card title="Domain">
            {domain ? (
              <Link to="/entity/$urn" params={{ urn: domain.urn }}>
                {domain.properties?.name ?? domain.urn}
              </Link>
            ) : (
              <Muted>No domain</Muted>
            )}
          </Card>
          {dataset.properties?.externalUrl ? (
            <Card title="Source">
              <a href={dataset.properties.externalUrl} target="_blank" rel="noopener noreferrer">
                View in {platformNameOf(dataset) ?? 'the source'}
              </a>
            </Card>
          ) : null}
        </aside>
      </div>
    </article>
  );
}
