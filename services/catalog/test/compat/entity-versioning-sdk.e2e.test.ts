import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's versioning helpers (link_asset_to_version_set, unlink_asset_from_version_set, over
 * GraphQL linkAssetVersion and unlinkAssetVersion), unchanged, as the ecosystem's smoke suite drives
 * them: no waits between the steps, since each mutation answers once its writes are indexed.
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface Report {
  set: string;
  entities: [string, string, string];
  before: string | null;
  linked: (string | null)[];
  relinked: string | null;
  afterLink: { latest: string | null; isLatest: (boolean | null)[] };
  sortIds: string[];
  unlinkLatest: string | null;
  afterUnlinkLatest: { latest: string | null; isLatest: (boolean | null)[] };
  unlinkRest: (string | null)[];
  afterUnlinkAll: string | null;
  unlinkUnversioned: string | null;
  relinkedAll: (string | null)[];
  afterRelink: string | null;
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK versioning helpers on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK versioning helpers on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'entity_versioning_sdk.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('links versions in order, the last linked the latest; linking one again answers None', () => {
      expect(report.before).toBeNull();
      expect(report.linked).toEqual([report.set, report.set, report.set]);
      expect(report.relinked).toBeNull();
      expect(report.afterLink).toEqual({ latest: report.entities[2], isLatest: [false, false, true] });
      expect(report.sortIds).toEqual(['AAAAAAAA', 'AAAAAAAB', 'AAAAAAAC']);
    });

    it('unlinking the latest hands it to the one below; the last unlinked takes the set with it', () => {
      expect(report.unlinkLatest).toBe(report.set);
      expect(report.afterUnlinkLatest).toEqual({ latest: report.entities[1], isLatest: [false, true, null] });
      expect(report.unlinkRest).toEqual([report.set, report.set]);
      expect(report.afterUnlinkAll).toBeNull();
      expect(report.unlinkUnversioned).toBeNull();
    });

    it('links the versions to the same set again', () => {
      expect(report.relinkedAll).toEqual([report.set, report.set, report.set]);
      expect(report.afterRelink).toBe(report.entities[2]);
    });
  });
}
