/**
 * The OpenAPI v3 entity API under load:
 *   pnpm bench:openapi [--entities 10000] [--batch 100] [--patches 1000] [--c 16] [--url http://host:8080]
 * (1) batch create of `entities` datasets (sync POST /openapi/v3/entity/dataset, `batch` per request),
 * (2) a scroll over them (GET /openapi/v3/entity/dataset, pages of 1,000), (3) `patches` concurrent
 * PATCHes that each add one tag to the same aspect of one dataset: every tag must land.
 */
import { intArg, readArgs } from './lib/args.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { JsonClient, report, runLoad } from './lib/load.js';

const args = readArgs({ entities: '10000', batch: '100', patches: '1000', c: '16', url: '' });
const entities = intArg(args.entities, 'entities');
const batch = intArg(args.batch, 'batch');
const patches = intArg(args.patches, 'patches');
const c = intArg(args.c, 'c');

const catalog = args.url ? undefined : await startCatalogProcess();
const baseUrl = args.url || catalog!.baseUrl;
const client = new JsonClient(baseUrl, c);
const run = Date.now().toString(36);
const urn = (i: number) =>
  `urn:li:dataset:(urn:li:dataPlatform:snowflake,openapi_${run}.schema_${i % 20}.table_${i},PROD)`;
const V3 = '/openapi/v3/entity';

try {
  const rows: Record<string, string | number>[] = [];
  const created = await runLoad(Math.ceil(entities / batch), c, (b) =>
    client.expectOk(
      'POST',
      `${V3}/dataset?async=false`,
      Array.from({ length: Math.min(batch, entities - b * batch) }, (_, j) => {
        const i = b * batch + j;
        return {
          urn: urn(i),
          datasetProperties: { value: { name: `table_${i}`, description: `Table ${i} of run ${run}` } },
          status: { value: { removed: false } },
        };
      }),
    ),
  );
  rows.push(report(`batch create, ${batch} datasets (2 aspects) per request`, created, batch));

  // The scroll reads the search index: wait until it holds every entity.
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const body = JSON.parse(await client.expectOk('GET', `${V3}/dataset?count=1&query=${run}`)) as {
      totalCount: number;
    };
    if (body.totalCount >= entities) break;
    if (Date.now() > deadline) throw new Error(`only ${body.totalCount} of ${entities} searchable`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const pages: number[] = [];
  const scrollStarted = performance.now();
  let scrollId: string | undefined;
  let scrolled = 0;
  do {
    const t0 = performance.now();
    const body = JSON.parse(
      await client.expectOk(
        'GET',
        `${V3}/dataset?count=1000&query=${run}&aspects=datasetProperties${scrollId ? `&scrollId=${scrollId}` : ''}`,
      ),
    ) as { scrollId?: string; entities: unknown[] };
    pages.push(performance.now() - t0);
    scrolled += body.entities.length;
    scrollId = body.scrollId;
  } while (scrollId !== undefined);
  if (scrolled !== entities) throw new Error(`the scroll saw ${scrolled} of ${entities} entities`);
  rows.push(
    report(
      `scroll, ${scrolled} entities with their properties, pages of 1000`,
      {
        operations: pages.length,
        durationMs: performance.now() - scrollStarted,
        latenciesMs: pages,
        errors: 0,
      },
      1000,
    ),
  );

  const target = encodeURIComponent(urn(0));
  const patched = await runLoad(patches, c, (i) =>
    client.expectOk('PATCH', `${V3}/dataset/${target}/globalTags`, {
      patch: [{ op: 'add', path: `/tags/urn:li:tag:t${i}`, value: { tag: `urn:li:tag:t${i}` } }],
    }),
  );
  rows.push(report(`${patches} concurrent patches of one aspect, c=${c}`, patched));
  const tags = JSON.parse(await client.expectOk('GET', `${V3}/dataset/${target}/globalTags`)) as {
    value: { tags: unknown[] };
  };
  console.table(rows);
  console.log(`tags on the patched aspect: ${tags.value.tags.length} of ${patches} (every patch must land)`);
  if (tags.value.tags.length !== patches) process.exitCode = 1;
} finally {
  client.close();
  await catalog?.stop();
}
