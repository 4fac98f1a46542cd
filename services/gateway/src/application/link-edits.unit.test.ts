import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { LinkEdits } from './link-edits.js';

const ADMIN = 'urn:li:corpuser:admin';
const EDITOR = 'urn:li:corpuser:editor';
const NOBODY = 'urn:li:corpuser:nobody';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:kafka,links,PROD)';
const JDOE = { time: 1581407189000, actor: 'urn:li:corpuser:jdoe' };

function setup() {
  const store = new MemoryStore()
    .put(DATASET, 'datasetKey', { platform: 'urn:li:dataPlatform:kafka', name: 'links', origin: 'PROD' })
    .put(DATASET, 'institutionalMemory', {
      elements: [{ url: 'https://www.linkedin.com', description: 'Sample doc', createStamp: JDOE }],
    });
  const deps = fakeApplicationDeps(
    { [ADMIN]: { '*': ['EDIT_ENTITY'] }, [EDITOR]: { [DATASET]: ['EDIT_ENTITY_DOC_LINKS'] } },
    store,
  );
  const links = new LinkEdits(deps.stored, deps.policy, deps.proposals);
  const elements = () =>
    (store.entities.get(DATASET)?.get('institutionalMemory') as { elements: Record<string, unknown>[] })
      .elements;
  return { ...deps, links, elements };
}

describe('LinkEdits', () => {
  it('needs EDIT_ENTITY_DOC_LINKS or EDIT_ENTITY on the entity, asked before anything is read', async () => {
    const { links, written, elements } = setup();
    const link = { url: 'http://example.com', label: 'example' };
    await expect(links.addLink(graphqlContext(NOBODY), DATASET, link)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(
      links.addLink(graphqlContext(NOBODY), 'urn:li:dataset:(urn:li:dataPlatform:x,absent,PROD)', link),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(written).toEqual([]);
    await links.addLink(graphqlContext(EDITOR), DATASET, link);
    await links.removeLink(graphqlContext(ADMIN), DATASET, link.url, link.label);
    expect(elements()).toHaveLength(1);
  });

  it('adds a link with its settings after the others; the same url and label again is refused', async () => {
    const { links, elements } = setup();
    const link = { url: 'http://example.com', label: 'example', settings: { showInAssetPreview: true } };
    await links.addLink(graphqlContext(ADMIN), DATASET, link);
    expect(elements()[1]).toEqual({
      url: 'http://example.com',
      description: 'example',
      createStamp: { time: expect.any(Number), actor: ADMIN },
      settings: { showInAssetPreview: true },
    });
    await expect(links.addLink(graphqlContext(ADMIN), DATASET, link)).rejects.toThrow('already exists');
    // The same url under another label is another link.
    await links.addLink(graphqlContext(ADMIN), DATASET, { url: link.url, label: 'other' });
    expect(elements()).toHaveLength(3);
  });

  it('updates a link in place, keeping who created it and adding who updated it', async () => {
    const { links, elements } = setup();
    await links.addLink(graphqlContext(ADMIN), DATASET, { url: 'https://second.example', label: 'second' });
    await links.updateLink(graphqlContext(EDITOR), DATASET, {
      currentUrl: 'https://www.linkedin.com',
      currentLabel: 'Sample doc',
      url: 'http://example.com',
      label: 'example',
      settings: { showInAssetPreview: true },
    });
    expect(elements()[0]).toEqual({
      url: 'http://example.com',
      description: 'example',
      createStamp: JDOE,
      updateStamp: { time: expect.any(Number), actor: EDITOR },
      settings: { showInAssetPreview: true },
    });
    await expect(
      links.updateLink(graphqlContext(ADMIN), DATASET, {
        currentUrl: 'https://absent.example',
        currentLabel: 'x',
        url: 'https://y.example',
        label: 'y',
      }),
    ).rejects.toThrow('The link does not exist');
  });

  it('upserts: updates the link with the same url and label, adds another', async () => {
    const { links, elements } = setup();
    const settings = { showInAssetPreview: true };
    await links.upsertLink(graphqlContext(ADMIN), DATASET, {
      url: 'https://www.linkedin.com',
      label: 'Sample doc',
      settings,
    });
    await links.upsertLink(graphqlContext(ADMIN), DATASET, {
      url: 'https://example.com',
      label: 'e',
      settings,
    });
    expect(elements().map((e) => [e['url'], e['createStamp'], e['updateStamp'] !== undefined])).toEqual([
      ['https://www.linkedin.com', JDOE, true],
      ['https://example.com', expect.objectContaining({ actor: ADMIN }), false],
    ]);
  });

  it('removes by url and label, or every link of a url without a label', async () => {
    const { links, elements } = setup();
    await links.addLink(graphqlContext(ADMIN), DATASET, { url: 'https://www.linkedin.com', label: 'again' });
    await links.removeLink(graphqlContext(ADMIN), DATASET, 'https://www.linkedin.com', 'again');
    expect(elements().map((e) => e['description'])).toEqual(['Sample doc']);
    await links.addLink(graphqlContext(ADMIN), DATASET, { url: 'https://www.linkedin.com', label: 'again' });
    await links.removeLink(graphqlContext(ADMIN), DATASET, 'https://www.linkedin.com');
    expect(elements()).toEqual([]);
  });

  it('refuses urls that are not navigation urls, and entities that do not exist', async () => {
    const { links, written } = setup();
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'not a url'])
      await expect(links.addLink(graphqlContext(ADMIN), DATASET, { url, label: 'x' })).rejects.toThrow(
        /institutional memory/,
      );
    await expect(
      links.addLink(graphqlContext(ADMIN), 'urn:li:dataset:(urn:li:dataPlatform:x,absent,PROD)', {
        url: 'https://x.example',
        label: 'x',
      }),
    ).rejects.toThrow('Resource does not exist');
    expect(written).toEqual([]);
  });
});
