import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's graph calls, unchanged (edge_scrolls_sdk.py): scroll_lineage and
 * scroll_relationships (POST /openapi/v3/{lineage,relationship}/scroll), a dataset written only as a
 * time-series aspect materialized as an entity, get_aspect_counts, list_all_entity_urns and
 * get_dataset_urns_ignoring_case.
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

type Edge = [string, string, string];
interface Report {
  alpha: string;
  gamma: string;
  zeta: string;
  job: string;
  usage: string;
  aroundAlpha: Edge[];
  pagedOneByOne: Edge[];
  pages: number;
  jobUpstream: Edge[];
  jobDownstream: Edge[];
  alphaUpstream: Edge[];
  relationships: [string, string, string, string][];
  incomingSources: string[];
  usageKeyName: string | null;
  usageSearched: boolean;
  datasetKeyCount: number;
  listedHasUsage: boolean;
  ignoringCase: string[];
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK's edge scrolls on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK's lineage and relationship scrolls on ${family.name}`, () => {
    let catalog: TestCatalog;
    let r: Report;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      r = await pythonReport(found.python, 'edge_scrolls_sdk.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('scrolls the lineage edges touching a dataset, each with its upstream and downstream end, one page at a time too', () => {
      expect(r.aroundAlpha).toEqual([
        ['Consumes', r.alpha, r.job],
        ['DownstreamOf', r.alpha, r.zeta],
      ]);
      expect(r.pagedOneByOne).toEqual(r.aroundAlpha);
      // Two full pages of one edge, then the empty one without a scrollId.
      expect(r.pages).toBe(3);
    });

    it("keeps one direction relative to the urns: a job's input upstream, its output (Produces) downstream", () => {
      expect(r.jobUpstream).toEqual([['Consumes', r.alpha, r.job]]);
      expect(r.jobDownstream).toEqual([['Produces', r.job, r.gamma]]);
      expect(r.alphaUpstream).toEqual([]);
    });

    it('scrolls relationships by source urn and type, and INCOMING matches the urn as the destination', () => {
      expect(r.relationships).toEqual([['DownstreamOf', r.zeta, 'dataset', r.alpha]]);
      expect(r.incomingSources).toEqual([r.job, r.zeta].sort());
    });

    it('materializes a dataset written only as usage statistics: its key is readable and search finds it', () => {
      expect(r.usageKeyName).toBe(r.usage.split(',')[1]);
      expect(r.usageSearched).toBe(true);
      expect(r.listedHasUsage).toBe(true);
    });

    it('counts aspects by a LIKE pattern and finds a dataset by its lowercased urn', () => {
      // Only ZETA holds a key among the lower-cased names (ALPHA and GAMMA are only referenced).
      expect(r.datasetKeyCount).toBe(1);
      expect(r.ignoringCase).toEqual([r.usage]);
    });
  });
}
