import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { execute } from '../api/graphql-client';
import { meQueryOptions } from '../auth/session';
import { Card } from '../design/Card';
import { ErrorMessage, Loading, Muted } from '../design/Status';
import { entityLink, nameOf, typeLabel } from '../entity/entity-links';
import { graphql } from '../gql';
import { urlValueOf } from '../search/search-params';
import { recentChanges } from './recent-changes';
import styles from './HomePage.module.css';

const EntityCountsQuery = graphql(`
  query getEntityCounts($input: EntityCountInput) {
    getEntityCounts(input: $input) {
      counts {
        entityType
        count
      }
    }
  }
`);

const PlatformsQuery = graphql(`
  query getPlatformCounts($input: AggregateAcrossEntitiesInput!) {
    aggregateAcrossEntities(input: $input) {
      facets {
        field
        aggregations {
          value
          count
          entity {
            ...EntitySummaryFields
          }
        }
      }
    }
  }
`);

const EntitiesQuery = graphql(`
  query getRecentEntities($urns: [String!]!) {
    entities(urns: $urns) {
      ...EntitySummaryFields
    }
  }
`);

const RECENT = 8;

/** The start page: what the catalog holds by type and platform, and what changed last. */
export function HomePage() {
  const me = useQuery(meQueryOptions);
  const counts = useQuery({ queryKey: ['entityCounts'], queryFn: () => execute(EntityCountsQuery, {}) });
  const platforms = useQuery({
    queryKey: ['platformCounts'],
    queryFn: () => execute(PlatformsQuery, { input: { query: '*', facets: ['platform'] } }),
  });
  const mayReadAudit = me.data?.me?.platformPrivileges.viewAnalytics === true;
  const recent = useQuery({
    queryKey: ['recentChanges'],
    enabled: mayReadAudit,
    queryFn: async () => {
      const changes = await recentChanges(RECENT);
      if (changes.length === 0) return [];
      const { entities } = await execute(EntitiesQuery, { urns: changes.map((c) => c.entityUrn) });
      return changes.map((change, i) => ({ change, entity: entities?.[i] ?? null }));
    },
  });

  const nonZero = (counts.data?.getEntityCounts?.counts ?? []).filter((c) => c.count > 0);
  const platformValues =
    platforms.data?.aggregateAcrossEntities?.facets?.find((f) => f.field === 'platform')?.aggregations ?? [];

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Catalog</h1>
      <Card title="What the catalog holds">
        {counts.isPending ? <Loading what="counts" /> : null}
        {counts.error ? <ErrorMessage error={counts.error} /> : null}
        {counts.isSuccess && nonZero.length === 0 ? <Muted>Nothing has been ingested yet.</Muted> : null}
        <ul className={styles.counts}>
          {nonZero.map((c) => (
            <li key={c.entityType}>
              <Link className={styles.count} to="/search" search={{ entity: [c.entityType] } as never}>
                <span className={styles.number}>{c.count.toLocaleString()}</span>
                <span>{typeLabel(c.entityType, c.count !== 1)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Card>
      <div className={styles.columns}>
        <Card title="Platforms">
          {platforms.isPending ? <Loading what="platforms" /> : null}
          {platforms.error ? <ErrorMessage error={platforms.error} /> : null}
          {platforms.isSuccess && platformValues.length === 0 ? <Muted>No platforms yet.</Muted> : null}
          <ul className={styles.list}>
            {platformValues.map((p) => (
              <li key={p.value}>
                <Link to="/search" search={{ platform: [urlValueOf('platform', p.value)] } as never}>
                  {p.entity ? nameOf(p.entity) : p.value}
                </Link>{' '}
                <span className={styles.muted}>{p.count.toLocaleString()}</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card title="Recently changed">
          {!mayReadAudit ? (
            <Muted>The audit trail needs the View Analytics privilege.</Muted>
          ) : recent.isPending ? (
            <Loading what="recent changes" />
          ) : recent.error ? (
            <ErrorMessage error={recent.error} />
          ) : recent.data.length === 0 ? (
            <Muted>No changes in the last 30 days.</Muted>
          ) : (
            <ul className={styles.list}>
              {recent.data.map(({ change, entity }) => (
                <li key={change.entityUrn}>
                  {entity ? (
                    <Link {...entityLink(entity.urn, entity.type)}>{nameOf(entity)}</Link>
                  ) : (
                    <span>{change.entityUrn}</span>
                  )}{' '}
                  <span className={styles.muted}>
                    {change.aspectName ?? 'changed'} ·{' '}
                    <time dateTime={new Date(change.timestamp).toISOString()}>
                      {new Date(change.timestamp).toLocaleString()}
                    </time>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
