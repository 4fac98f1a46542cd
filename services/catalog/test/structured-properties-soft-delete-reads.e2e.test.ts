import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { datasetUrn, enc, proposal, request, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * Spec 3.2: while a structured property is soft-deleted (its status removed=true), reads of entities
 * omit its values; a restore shows them again, as nothing was deleted. Proven on every Rest.li and
 * OpenAPI (v3 and v2) read that returns an entity's `structuredProperties` aspect, on both families;
 * the values of other properties are untouched.
 */

type Json = Record<string, unknown>;

/** One request (writes answered once stored and indexed); anything but a 200 fails the test. */
async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Json> {
  const res = await request(base, method, path, body, contentType);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return (res.body ?? {}) as Json;
}

type Assignment = { properties: { propertyUrn: string }[] };

/** The property urns of a structuredProperties value, sorted. */
const urnsOf = (value: unknown) =>
  ((value as Assignment | undefined)?.properties ?? []).map((p) => p.propertyUrn).sort();

const STRING = 'urn:li:dataType:datahub.string';
const DATASET_TYPE = 'urn:li:entityType:datahub.dataset';
const ASPECT = 'structuredProperties';
const RECORD = 'com.linkedin.structured.StructuredProperties';

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping soft-deleted property reads on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(
    `reads of soft-deleted property values on ${family.name}`,
    () => {
      let catalog: TestCatalog;
      let base: string;
      const run = Math.random().toString(36).slice(2, 8);
      const property = (name: string) => `urn:li:structuredProperty:io.softdel_${run}.${name}`;
      const retired = property('retired');
      const kept = property('kept');
      const dropped = property('dropped');
      const orders = datasetUrn(`softdel_${run}.orders`);
      const customers = datasetUrn(`softdel_${run}.customers`);

      /** Rest.li batch ingest, answered once stored and indexed. */
      const ingest = (proposals: Json[]) =>
        call(base, 'POST', '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
      const definition = (urn: string) =>
        proposal(urn, 'propertyDefinition', {
          qualifiedName: urn.slice('urn:li:structuredProperty:'.length),
          valueType: STRING,
          cardinality: 'MULTIPLE',
          entityTypes: [DATASET_TYPE],
        });
      const values = (...properties: string[]) => ({
        properties: properties.map((propertyUrn) => ({
          propertyUrn,
          values: [{ string: `${propertyUrn}!` }],
        })),
      });
      const softDelete = (removed: boolean) => ingest([proposal(retired, 'status', { removed })]);

      /** Our entities among a page of OpenAPI entities (v3: aspects at the top; v2: under `aspects`). */
      const ours = (entities: unknown, nested: boolean) =>
        Object.fromEntries(
          (entities as Json[])
            .filter((e) => e['urn'] === orders || e['urn'] === customers)
            .map((e) => {
              const aspects = (nested ? e['aspects'] : e) as Json;
              return [e['urn'], urnsOf((aspects[ASPECT] as Json | undefined)?.['value'])];
            }),
        );

      /**
       * The property urns each read route returns for `orders` (and, where it reads several, `customers`),
       * keyed by route.
       */
      const readEveryRoute = async (): Promise<Record<string, unknown>> => {
        const o = enc(orders);
        const entityV2 = (body: Json) =>
          urnsOf(((body['aspects'] as Json)[ASPECT] as Json | undefined)?.['value']);
        const restliBatch = await call(base, 'GET', `/entitiesV2?ids=List(${o},${enc(customers)})`);
        const batch = restliBatch['results'] as Record<string, Json>;
        const snapshot = await call(base, 'GET', `/entities/${o}`);
        const snapshotAspects = (
          (snapshot['value'] as Json)['com.linkedin.metadata.snapshot.DatasetSnapshot'] as Json
        )['aspects'] as Json[];
        const v3Scroll = await call(base, 'GET', `/openapi/v3/entity/dataset?count=100&aspects=${ASPECT}`);
        const crossScroll = await call(base, 'POST', '/openapi/v3/entity/scroll?count=100', {
          entities: ['dataset'],
          aspects: [ASPECT],
        });
        const v2Scroll = await call(base, 'GET', `/openapi/v2/entity/dataset?count=100&aspects=${ASPECT}`);
        const batchItems = [
          { urn: orders, [ASPECT]: {} },
          { urn: customers, [ASPECT]: {} },
        ];
        return {
          'Rest.li GET /entitiesV2/{urn}': entityV2(await call(base, 'GET', `/entitiesV2/${o}`)),
          'Rest.li GET /entitiesV2?ids=': {
            [orders]: entityV2(batch[orders]!),
            [customers]: entityV2(batch[customers]!),
          },
          'Rest.li GET /aspects/{urn}': urnsOf(
            (
              (await call(base, 'GET', `/aspects/${o}?aspect=${ASPECT}`))['aspect'] as Record<string, unknown>
            )[RECORD],
          ),
          'Rest.li GET /entities/{urn}': urnsOf(snapshotAspects.find((a) => RECORD in a)?.[RECORD]),
          'v3 GET entity': ours([await call(base, 'GET', `/openapi/v3/entity/dataset/${o}`)], false),
          'v3 GET aspect': urnsOf(
            (await call(base, 'GET', `/openapi/v3/entity/dataset/${o}/${ASPECT}`))['value'],
          ),
          'v3 batchGet': ours(
            await call(base, 'POST', '/openapi/v3/entity/dataset/batchGet', batchItems),
            false,
          ),
          'v3 generic batchGet': ours(
            (await call(base, 'POST', '/openapi/v3/entity/generic/batchGet', { dataset: batchItems }))[
              'dataset'
            ],
            false,
          ),
          'v3 scroll': ours(v3Scroll['entities'], false),
          'v3 cross-entity scroll': ours(crossScroll['entities'], false),
          'v2 GET entity': ours([await call(base, 'GET', `/openapi/v2/entity/dataset/${o}`)], true),
          'v2 GET aspect': ours([await call(base, 'GET', `/openapi/v2/entity/dataset/${o}/${ASPECT}`)], true),
          'v2 batch': ours(
            (
              await call(base, 'POST', '/openapi/v2/entity/batch/dataset', {
                urns: [orders, customers],
                aspectNames: [ASPECT],
              })
            )['entities'],
            true,
          ),
          'v2 scroll': ours(v2Scroll['results'], true),
        };
      };

      /** What every route returns when `orders` shows `forOrders` and `customers` shows `forCustomers`. */
      const everyRouteShows = (ordersShows: string[], customersShows: string[]) => {
        const forOrders = [...ordersShows].sort();
        const both = { [orders]: forOrders, [customers]: [...customersShows].sort() };
        const one = { [orders]: forOrders };
        return {
          'Rest.li GET /entitiesV2/{urn}': forOrders,
          'Rest.li GET /entitiesV2?ids=': both,
          'Rest.li GET /aspects/{urn}': forOrders,
          'Rest.li GET /entities/{urn}': forOrders,
          'v3 GET entity': one,
          'v3 GET aspect': forOrders,
          'v3 batchGet': both,
          'v3 generic batchGet': both,
          'v3 scroll': both,
          'v3 cross-entity scroll': both,
          'v2 GET entity': one,
          'v2 GET aspect': one,
          'v2 batch': both,
          'v2 scroll': both,
        };
      };

      beforeAll(async () => {
        catalog = await startTestCatalog(family.env());
        base = catalog.baseUrl;
        await ingest([definition(retired), definition(kept), definition(dropped)]);
        await ingest([
          proposal(orders, 'datasetProperties', { name: 'orders' }),
          proposal(orders, ASPECT, values(retired, kept, dropped)),
          proposal(customers, 'datasetProperties', { name: 'customers' }),
          proposal(customers, ASPECT, values(retired)),
        ]);
      });
      afterAll(async () => catalog?.dispose());

      it('returns every value on every read route while the property is active', async () => {
        expect(await readEveryRoute()).toEqual(everyRouteShows([retired, kept, dropped], [retired]));
      });

      it('omits the soft-deleted property’s values on every read route, other properties’ values untouched', async () => {
        await softDelete(true);
        expect(await readEveryRoute()).toEqual(everyRouteShows([kept, dropped], []));
        // The property itself still reads as soft-deleted; its definition is still there.
        expect(
          await call(base, 'GET', `/openapi/v3/entity/structuredproperty/${enc(retired)}/status`),
        ).toEqual({
          value: { removed: true },
        });
      });

      it('answers a v2 PATCH with the remaining properties, the soft-deleted one left out', async () => {
        const patched = await call(
          base,
          'PATCH',
          `/openapi/v2/entity/dataset/${enc(orders)}/${ASPECT}`,
          {
            patch: [{ op: 'remove', path: `/properties/${dropped}` }],
            arrayPrimaryKeys: { properties: ['propertyUrn'] },
          },
          'application/json-patch+json',
        );
        expect(patched['urn']).toBe(orders);
        expect(urnsOf(((patched['aspects'] as Json)[ASPECT] as Json)['value'])).toEqual([kept]);
      });

      it('shows the values again once the property is restored: nothing was deleted', async () => {
        await softDelete(false);
        expect(await readEveryRoute()).toEqual(everyRouteShows([retired, kept], [retired]));
      });
    },
  );
}
