import { describe, expect, it } from 'vitest';
import type { AspectStore, StoredAspect } from '@catalog/store';
import {
  hideSoftDeletedPropertyValues,
  visibleAspect,
  visibleAspectsByUrn,
} from './soft-deleted-property-values.js';

const RETIRED = 'urn:li:structuredProperty:io.retired';
const RESTORED = 'urn:li:structuredProperty:io.restored';
const ACTIVE = 'urn:li:structuredProperty:io.active';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)';
const CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,customers,PROD)';

const stored = (urn: string, aspect: string, value: Record<string, unknown>): StoredAspect => ({
  urn,
  aspect,
  version: 0,
  value,
  systemMetadata: null,
  created: { time: 1, actor: 'urn:li:corpuser:datahub' },
});

const assignment = (urn: string, ...properties: string[]) =>
  stored(urn, 'structuredProperties', {
    properties: properties.map((propertyUrn) => ({ propertyUrn, values: [{ string: propertyUrn }] })),
  });

/** A store holding the properties' statuses; it records the urns of each read. */
function statusStore(removed: Readonly<Record<string, boolean>>) {
  const reads: { urns: readonly string[]; aspects: readonly string[] | undefined }[] = [];
  const store: Pick<AspectStore, 'getLatestMany'> = {
    getLatestMany: async (urns, aspects) => {
      reads.push({ urns, aspects });
      return new Map(
        urns.flatMap((urn) =>
          removed[urn] === undefined ? [] : [[urn, [stored(urn, 'status', { removed: removed[urn] })]]],
        ),
      );
    },
  };
  return { store, reads };
}

const propertiesOf = (aspects: readonly StoredAspect[]) =>
  (aspects.find((a) => a.aspect === 'structuredProperties')?.value['properties'] as { propertyUrn: string }[])
    .map((p) => p.propertyUrn)
    .sort();

describe('hideSoftDeletedPropertyValues', () => {
  it('reads nothing and returns the lists as given when no structuredProperties aspect is among them', async () => {
    const { store, reads } = statusStore({});
    const lists = [[stored(ORDERS, 'status', { removed: false })], []];
    expect(await hideSoftDeletedPropertyValues(store, lists)).toBe(lists);
    expect(reads).toEqual([]);
  });

  it('drops only the values of soft-deleted properties, reading every status in one call', async () => {
    const { store, reads } = statusStore({ [RETIRED]: true, [RESTORED]: false });
    const datasetProperties = stored(ORDERS, 'datasetProperties', { name: 'orders' });
    const [orders, customers] = await hideSoftDeletedPropertyValues(store, [
      [datasetProperties, assignment(ORDERS, RETIRED, ACTIVE, RESTORED)],
      [assignment(CUSTOMERS, RETIRED)],
    ]);
    expect(propertiesOf(orders!)).toEqual([ACTIVE, RESTORED]);
    expect(orders![0]).toBe(datasetProperties);
    expect(propertiesOf(customers!)).toEqual([]);
    expect(reads).toEqual([{ urns: [RETIRED, ACTIVE, RESTORED], aspects: ['status'] }]);
  });

  it('leaves the aspect itself untouched when none of its properties is soft-deleted', async () => {
    const { store } = statusStore({ [ACTIVE]: false });
    const aspect = assignment(ORDERS, ACTIVE);
    expect(await visibleAspect(store, aspect)).toBe(aspect);
    expect(await visibleAspect(store, null)).toBeNull();
  });

  it('keeps the urns of a getLatestMany answer, hiding the soft-deleted values of each', async () => {
    const { store } = statusStore({ [RETIRED]: true });
    const found = new Map([
      [ORDERS, [assignment(ORDERS, RETIRED, ACTIVE)]],
      [CUSTOMERS, [stored(CUSTOMERS, 'status', { removed: false })]],
    ]);
    const visible = await visibleAspectsByUrn(store, found);
    expect([...visible.keys()]).toEqual([ORDERS, CUSTOMERS]);
    expect(propertiesOf(visible.get(ORDERS)!)).toEqual([ACTIVE]);
    expect(visible.get(CUSTOMERS)).toBe(found.get(CUSTOMERS));
  });
});
