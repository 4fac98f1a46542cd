import { describe, expect, it } from 'vitest';
import { parseUrn } from '../urn.js';
import { defaultAspectsFor } from './default-aspects.js';
import { entityRegistry } from './entity-registry.js';

const defaultsOf = (urn: string) => {
  const parsed = parseUrn(urn);
  const key = entityRegistry.keyAspectFromUrn(parsed).value;
  return Object.fromEntries(
    defaultAspectsFor(entityRegistry.requireEntity(parsed.entityType), key).map((d) => [d.name, d.value]),
  );
};

describe('defaultAspectsFor', () => {
  it('gives a dataset its name folders and its platform', () => {
    expect(defaultsOf('urn:li:dataset:(urn:li:dataPlatform:hive,db.sales.orders,PROD)')).toEqual({
      browsePathsV2: { path: [{ id: 'db' }, { id: 'sales' }] },
      dataPlatformInstance: { platform: 'urn:li:dataPlatform:hive' },
    });
  });

  it('gives a dataset whose name has capitals its lowercased urn as an alias, the platform and origin kept', () => {
    expect(
      defaultsOf('urn:li:dataset:(urn:li:dataPlatform:bigquery,Proj.Sales.Orders,PROD)')['aliases'],
    ).toEqual({
      lowercasedUrn: 'urn:li:dataset:(urn:li:dataPlatform:bigquery,proj.sales.orders,PROD)',
    });
    expect(defaultsOf('urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)')['aliases']).toBeUndefined();
  });

  it('puts a dataset without folders in Default', () => {
    expect(defaultsOf('urn:li:dataset:(urn:li:dataPlatform:kafka,events,PROD)')['browsePathsV2']).toEqual({
      path: [{ id: 'Default' }],
    });
  });

  it('derives the platform of charts, dashboards, flows and jobs from their tool or orchestrator', () => {
    expect(defaultsOf('urn:li:chart:(Looker,c1)')['dataPlatformInstance']).toEqual({
      platform: 'urn:li:dataPlatform:looker',
    });
    expect(defaultsOf('urn:li:dashboard:(superset,d1)')['dataPlatformInstance']).toEqual({
      platform: 'urn:li:dataPlatform:superset',
    });
    expect(defaultsOf('urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)')).toEqual({
      browsePathsV2: { path: [{ id: 'Default' }] },
      dataPlatformInstance: { platform: 'urn:li:dataPlatform:airflow' },
    });
  });

  it('gives entities without a platform only what their aspects allow', () => {
    expect(defaultsOf('urn:li:corpuser:jdoe')).toEqual({});
    expect(defaultsOf('urn:li:tag:pii')).toEqual({});
    expect(defaultsOf('urn:li:glossaryTerm:t')['dataPlatformInstance']).toBeUndefined();
  });
});
