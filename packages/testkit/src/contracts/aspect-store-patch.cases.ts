import { ValidationError } from '@catalog/model';
import type { AspectStore, AspectWrite } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import { datasetKeyOf, datasetUrn, stamp, uniqueNamespace } from './aspect-store-fixtures.js';

/** A patch write that adds `tag` to globalTags, refusing the tag `urn:li:tag:refused`. */
function addTag(
  urn: string,
  tag: string,
  requestId = `req-${Math.random().toString(36).slice(2)}`,
): AspectWrite {
  return {
    requestId,
    mode: 'UPSERT',
    urn,
    aspect: 'globalTags',
    created: stamp(1_700_000_000_000),
    keyAspect: datasetKeyOf(urn),
    patch: (current) => {
      if (tag === 'urn:li:tag:refused') throw new ValidationError(`tag ${tag} is refused`);
      const tags = ((current?.['tags'] as { tag: string }[] | undefined) ?? []).filter((t) => t.tag !== tag);
      return { tags: [...tags, { tag }] };
    },
  };
}

const tagsOf = async (store: AspectStore, urn: string) =>
  ((await store.get(urn, 'globalTags'))?.value['tags'] as { tag: string }[] | undefined)?.map((t) => t.tag);

/**
 * Patches: the value is computed from version 0 inside the atomic write. Patches of one aspect compose
 * in batch order and across concurrent batches; a refused patch stores nothing; a redelivered one is
 * found by its request id and applies once.
 */
export function aspectStorePatchCases(store: () => AspectStore): void {
  describe('patches', () => {
    it('computes each patch from the latest value: patches in one batch compose in order', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'patched');
      const results = await store().applyBatch([addTag(urn, 'urn:li:tag:a'), addTag(urn, 'urn:li:tag:b')]);
      expect(results.map((r) => r.status)).toEqual(['CREATED', 'UPDATED']);
      expect(await tagsOf(store(), urn)).toEqual(['urn:li:tag:a', 'urn:li:tag:b']);
      const [again] = await store().applyBatch([addTag(urn, 'urn:li:tag:b')]);
      expect(again?.status).toBe('UNCHANGED');
    });

    it('loses nothing when batches patch one aspect at the same time', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'concurrent');
      const tags = Array.from({ length: 8 }, (_, i) => `urn:li:tag:t${i}`);
      await Promise.all(tags.map((tag) => store().applyBatch([addTag(urn, tag)])));
      expect((await tagsOf(store(), urn))?.sort()).toEqual([...tags].sort());
    });

    it('refuses a patch whose value the patch rejects, storing nothing, and moves on', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'refused');
      const results = await store().applyBatch([
        addTag(urn, 'urn:li:tag:a'),
        addTag(urn, 'urn:li:tag:refused'),
        addTag(urn, 'urn:li:tag:c'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['CREATED', 'INVALID', 'UPDATED']);
      expect(results[1]?.rejection).toEqual({
        code: 'VALIDATION',
        message: 'tag urn:li:tag:refused is refused',
      });
      expect(await tagsOf(store(), urn)).toEqual(['urn:li:tag:a', 'urn:li:tag:c']);
      expect((await store().listVersions(urn, 'globalTags')).length).toBe(2);
    });

    it('applies a redelivered patch once', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'redelivered');
      const write = addTag(urn, 'urn:li:tag:once', 'req-patch-once-' + uniqueNamespace());
      await store().applyBatch([write]);
      await store().applyBatch([addTag(urn, 'urn:li:tag:other')]);
      const [replayed] = await store().applyBatch([write]);
      expect(replayed?.replayed).toBe(true);
      expect(await tagsOf(store(), urn)).toEqual(['urn:li:tag:once', 'urn:li:tag:other']);
    });
  });
}
