import { randomUUID } from 'node:crypto';
import { genericAspectFromJson, type MetadataChangeProposal } from '@catalog/events';
import type { AspectStore } from '@catalog/store';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyProposals } from './apply-proposals.js';
import { proposalRecord } from './proposal-records.testing.js';
import { mongoDatabaseUnderTest, openSqliteUnderTest, type StoreUnderTest } from './stores.testing.js';

const mongoUri = process.env['MONGODB_URI'];
const mongo = mongoUri === undefined ? undefined : mongoDatabaseUnderTest(mongoUri);
const STORES: readonly { name: string; open?: () => Promise<StoreUnderTest> }[] = [
  { name: 'embedded', open: openSqliteUnderTest },
  { name: 'mongodb', ...(mongo === undefined ? {} : { open: () => mongo.open() }) },
];
afterAll(async () => mongo?.drop());

const dataset = (name: string) =>
  `urn:li:dataset:(urn:li:dataPlatform:v,${name}_${randomUUID().slice(0, 8)},PROD)`;
const versionSet = () => `urn:li:versionSet:(vs_${randomUUID().slice(0, 8)},dataset)`;

function versionOf(urn: string, set: string, tag: string, sortId: string, scheme = 'LEXICOGRAPHIC_STRING') {
  const mcp: MetadataChangeProposal = {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'versionProperties',
    aspect: genericAspectFromJson({
      versionSet: set,
      version: { versionTag: tag },
      sortId,
      versioningScheme: scheme,
    }),
  };
  return mcp;
}

for (const family of STORES) {
  describe.skipIf(family.open === undefined)(`version set side effects (${family.name} store)`, () => {
    let underTest: StoreUnderTest;
    let store: AspectStore;
    beforeEach(async () => {
      underTest = await family.open!();
      store = underTest.store;
    });
    afterEach(() => underTest.cleanup());

    const apply = (mcp: MetadataChangeProposal) =>
      applyProposals([proposalRecord(mcp, randomUUID(), Date.now())], store);
    const value = async (urn: string, aspect: string) => (await store.get(urn, aspect))?.value;

    it('creates the set naming its first version latest, with that version’s scheme', async () => {
      const set = versionSet();
      const first = dataset('first');
      const effects = await apply(versionOf(first, set, 'first', 'abc', 'ALPHANUMERIC_GENERATED_BY_DATAHUB'));
      expect(effects.outcomes).toEqual([expect.objectContaining({ ok: true })]);
      expect(await value(set, 'versionSetProperties')).toEqual({
        latest: first,
        versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB',
      });
      expect(await value(first, 'versionProperties')).toMatchObject({ isLatest: true, sortId: 'abc' });
      expect(await value(set, 'versionSetKey')).toEqual({
        id: set.slice(19, set.indexOf(',')),
        entityType: 'dataset',
      });
      // Their change logs go out with the proposal's own.
      const logged = effects.versioned.map((o) => `${o.mcl.entityUrn} ${o.mcl.aspectName}`);
      expect(logged).toContain(`${set} versionSetProperties`);
    });

    it('moves latest to a version that sorts higher, and leaves it on the old one for a lower one', async () => {
      const set = versionSet();
      const old = dataset('old');
      const higher = dataset('higher');
      const lower = dataset('lower');
      await apply(versionOf(old, set, 'first', 'abc'));
      await apply(versionOf(lower, set, 'zero', 'aaa'));
      expect(await value(lower, 'versionProperties')).toMatchObject({ isLatest: false });
      expect(await value(old, 'versionProperties')).toMatchObject({ isLatest: true });
      expect(await value(set, 'versionSetProperties')).toMatchObject({ latest: old });

      await apply(versionOf(higher, set, 'second', 'bbb'));
      expect(await value(higher, 'versionProperties')).toMatchObject({ isLatest: true });
      expect(await value(old, 'versionProperties')).toMatchObject({ isLatest: false });
      expect(await value(set, 'versionSetProperties')).toEqual({
        latest: higher,
        versioningScheme: 'LEXICOGRAPHIC_STRING',
      });
    });

    it('keeps the latest of many versions written in order', async () => {
      const set = versionSet();
      const urns = Array.from({ length: 6 }, (_, i) => dataset(`v${i}`));
      for (const [i, urn] of urns.entries())
        await apply(versionOf(urn, set, `v${i}`, String(i).padStart(2, '0')));
      expect(await value(set, 'versionSetProperties')).toMatchObject({ latest: urns[5] });
      for (const urn of urns.slice(0, 5))
        expect(await value(urn, 'versionProperties')).toMatchObject({ isLatest: false });
      expect(await value(urns[5]!, 'versionProperties')).toMatchObject({ isLatest: true });
    });
  });
}
