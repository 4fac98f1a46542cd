/**
 * The shapes of the ecosystem's OpenAPI v2 smoke tests (smoke-test/tests/openapi/v2/ in the public DataHub
 * repository), replayed on each family, written from their facts:
 * - structured_properties.json, for what it shows of the v2 entity API besides structured properties
 *   (those semantics come later): cleanup deletes, the default-async batch write answered with the urns,
 *   a single-aspect write of a raw value, and PATCH keyed by arrayPrimaryKeys answered under `aspects`;
 * - test_timeseries_scroll.py: dataset profiles written through the v3 aspect route and read back through
 *   GET /openapi/v2/timeseries/{entity}/{aspect}, paged by scrollId.
 * Each family gets its own catalog, so the fixtures' urns are used as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { startTestCatalog, type TestCatalog } from './harness.js';
import { call, compareLikeFixture, enc, settle, type CallOptions } from './openapi-fixture-helpers.js';

const V2 = '/openapi/v2/entity';
const V3 = '/openapi/v3/entity';

interface TimeseriesRow {
  readonly urn: string;
  readonly messageId?: string;
  readonly timestampMillis: number;
  readonly event: { readonly rowCount: number; readonly messageId?: string };
}
interface TimeseriesPage {
  readonly scrollId?: string | null;
  readonly results: readonly TimeseriesRow[];
}

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping OpenAPI v2 fixture replay on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`OpenAPI v2 smoke fixtures replayed on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const send = (method: string, path: string, body?: unknown, options?: CallOptions) =>
      call(base, method, path, body, options);

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    describe('structured_properties.json (its entity-API steps)', () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:test,datasetStructPropV2,PROD)';

      it('answers the delete of an entity that never existed with 200', async () => {
        compareLikeFixture(await send('DELETE', `${V2}/dataset/${enc(urn)}`), { statuses: [200] });
        compareLikeFixture(
          await send(
            'DELETE',
            `${V2}/structuredProperty/${enc('urn:li:structuredProperty:io.acryl.privacy.v2.retentionTime')}`,
          ),
          { statuses: [200] },
        );
      });

      it('accepts a batch write with the default (asynchronous) mode and answers only the urns', async () => {
        const res = await send(
          'POST',
          `${V2}/dataset?createIfNotExists=false&createEntityIfNotExists=false`,
          [{ urn, aspects: { status: { value: { removed: false } } } }],
        );
        compareLikeFixture(res, { json: [{ urn }] });
        const read = await settle(
          () => send('GET', `${V2}/dataset/${enc(urn)}`, undefined, { params: { aspects: 'status' } }),
          (r) => r.status === 200,
        );
        compareLikeFixture(read, {
          statuses: [200],
          json: { urn, aspects: { status: { value: { removed: false } } } },
        });
      });

      it('writes one aspect from its raw value with createIfNotExists=false, answering it under `aspects`', async () => {
        const res = await send('POST', `${V2}/dataset/${enc(urn)}/globalTags?createIfNotExists=false`, {
          tags: [{ tag: 'urn:li:tag:tag1' }],
        });
        compareLikeFixture(res, {
          json: { urn, aspects: { globalTags: { value: { tags: [{ tag: 'urn:li:tag:tag1' }] } } } },
        });
      });

      it('patches with arrayPrimaryKeys: an add keyed by the path answers the whole value, a remove of that key takes it out', async () => {
        const path = `${V2}/dataset/${enc(urn)}/globalTags`;
        const added = await send('PATCH', path, {
          patch: [{ op: 'add', path: '/tags/urn:li:tag:tag2', value: { tag: 'urn:li:tag:tag2' } }],
          arrayPrimaryKeys: { tags: ['tag'] },
        });
        compareLikeFixture(added, {
          json: {
            urn,
            aspects: {
              globalTags: { value: { tags: [{ tag: 'urn:li:tag:tag1' }, { tag: 'urn:li:tag:tag2' }] } },
            },
          },
        });
        const removed = await send('PATCH', path, {
          patch: [{ op: 'remove', path: '/tags/urn:li:tag:tag2', value: { tag: 'urn:li:tag:tag2' } }],
          arrayPrimaryKeys: { tags: ['tag'] },
        });
        compareLikeFixture(removed, {
          json: { urn, aspects: { globalTags: { value: { tags: [{ tag: 'urn:li:tag:tag1' }] } } } },
        });
      });
    });

    describe('test_timeseries_scroll.py', () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:test,timeseriesScrollTest,PROD)';
      const baseTimestamp = 1_700_000_000_000;
      const PROFILES = 5;
      const PAGE = 2;
      const messageIds = Array.from({ length: PROFILES }, (_, i) => `scroll_test_msg_${i}`);
      const window = {
        startTimeMillis: String(baseTimestamp - 1000),
        endTimeMillis: String(baseTimestamp + PROFILES * 1000 + 1000),
      };
      const scroll = (count: number, scrollId?: string | null) =>
        send('GET', '/openapi/v2/timeseries/dataset/datasetProfile', undefined, {
          params: { count: String(count), ...window, ...(scrollId ? { scrollId } : {}) },
        });

      /** Five profiles one second apart, each through the v3 single-aspect route, then waited for. */
      let ingested: Promise<void> | undefined;
      const ingest = () =>
        (ingested ??= (async () => {
          compareLikeFixture(await send('DELETE', `${V3}/dataset/${enc(urn)}`), {});
          for (let i = 0; i < PROFILES; i++) {
            const res = await send(
              'POST',
              `${V3}/dataset/${enc(urn)}/datasetProfile`,
              {
                value: {
                  timestampMillis: baseTimestamp + i * 1000,
                  messageId: messageIds[i],
                  rowCount: (i + 1) * 100,
                  columnCount: 10,
                },
              },
              { params: { createIfNotExists: 'false', async: 'false' } },
            );
            expect([200, 201, 202], res.text).toContain(res.status);
          }
          await settle(
            () => scroll(100),
            (r) => ((r.body as TimeseriesPage | undefined)?.results.length ?? 0) >= PROFILES,
          );
        })());

      it('answers a full first page with a scrollId', async () => {
        await ingest();
        const res = await scroll(PAGE);
        expect(res.status, res.text).toBe(200);
        const page = res.body as TimeseriesPage;
        expect(page.results).toHaveLength(PAGE);
        expect(page.scrollId).toBeTruthy();
      });

      it('pages through every profile once, each row naming its messageId', async () => {
        await ingest();
        const seen: string[] = [];
        let scrollId: string | null | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const res = await scroll(PAGE, scrollId);
          expect(res.status, res.text).toBe(200);
          const page = res.body as TimeseriesPage;
          if (page.results.length === 0) break;
          for (const row of page.results) {
            expect(row.urn).toBe(urn);
            expect(seen, `duplicate ${row.messageId}`).not.toContain(row.messageId);
            seen.push(row.messageId!);
          }
          scrollId = page.scrollId;
          if (!scrollId || page.results.length < PAGE) break;
        }
        expect([...seen].sort()).toEqual(messageIds);
        // Newest first: the last profile written has the latest timestamp.
        expect(seen[0]).toBe(messageIds[PROFILES - 1]);
      });

      it('answers a page holding fewer rows than asked without a scrollId', async () => {
        await ingest();
        const res = await scroll(PROFILES + 10);
        expect(res.status, res.text).toBe(200);
        const page = res.body as TimeseriesPage;
        expect(page.results).toHaveLength(PROFILES);
        expect(page.scrollId).toBeFalsy();
      });
    });
  });
}
