import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { execute } from '../api/graphql-client';
import { Card } from '../design/Card';
import { ErrorMessage, Loading, Muted } from '../design/Status';
import { nameOf, platformNameOf, typeLabel } from './entity-links';
import { DatasetQuery } from './dataset-query';
import { tagsOf, termsOf } from './labels';
import { DomainCard, OwnersCard, TermsCard } from './EntityLabels';
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
          <TermsCard terms={terms} />
          <OwnersCard owners={owners} />
          <DomainCard domain={domain} />
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
