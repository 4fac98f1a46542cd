import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/** The pinned SDK's graph client (GraphQL and OpenAPI helpers), unchanged, against the catalog. */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface Report {
  platformEnv: string[];
  container: string[];
  onlyRemoved: string[];
  all: string[];
  me: string;
  related: [string, string][];
  tag: string;
  tagsAfterAdd: string[];
  removeTag: boolean;
  tagsAfterRemove: string[];
  expected: { hive: string[]; container: string[]; removed: string[]; all: string[]; upstream: string };
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK graph client on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK graph client on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'graphql_sdk.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('get_urns_by_filter pages through platform, env, container and status filters', () => {
      expect(report.platformEnv).toEqual(report.expected.hive);
      expect(report.container).toEqual(report.expected.container);
      expect(report.onlyRemoved).toEqual(report.expected.removed);
      expect(report.all).toEqual(report.expected.all);
    });

    it('execute_graphql answers me: the user its personal access token acts as', () => {
      expect(report.me).toBe('urn:li:corpuser:datahub');
    });

    it('get_related_entities pages through the OpenAPI relationships', () => {
      expect(report.related).toEqual([[report.expected.upstream, 'DownstreamOf']]);
    });

    it('create_tag, addTag and remove_tag go through the proposal path', () => {
      expect(report.tag).toMatch(/^urn:li:tag:sdk_/);
      expect(report.tagsAfterAdd).toEqual([report.tag]);
      expect(report.removeTag).toBe(true);
      expect(report.tagsAfterRemove).toEqual([]);
    });
  });
}
