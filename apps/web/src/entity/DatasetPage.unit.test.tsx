/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ME, renderApp, stubFetch } from '../test/render';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)';
const PII = { tag: { urn: 'urn:li:tag:pii', name: 'pii', properties: { name: 'PII', colorHex: '#ff0000' } } };

function dataset(canEditTags: boolean, tags: unknown[]) {
  return {
    dataset: {
      urn: URN,
      type: 'DATASET',
      name: 'sales.orders',
      origin: 'PROD',
      platform: { urn: 'urn:li:dataPlatform:hive', name: 'hive', properties: { displayName: 'Hive' } },
      properties: {
        name: 'orders',
        description:
          'One row per **order**. <img src=x onerror="window.pwned=1"><script>window.pwned=2</script>',
        qualifiedName: 'sales.orders',
        externalUrl: null,
        created: null,
        customProperties: [{ key: 'retention', value: '90 days' }],
      },
      editableProperties: null,
      subTypes: { typeNames: ['Table'] },
      schemaMetadata: {
        fields: [
          {
            fieldPath: '[version=2.0].[type=struct].customer.[type=string].email',
            type: 'STRING',
            nativeDataType: 'varchar(255)',
            description: 'Where to write',
            nullable: true,
            tags: { tags: [PII] },
            glossaryTerms: null,
          },
        ],
      },
      editableSchemaMetadata: {
        editableSchemaFieldInfo: [
          {
            fieldPath: '[version=2.0].[type=struct].customer.[type=string].email',
            description: 'The customer’s email',
            globalTags: null,
            glossaryTerms: {
              terms: [{ term: { urn: 'urn:li:glossaryTerm:Email', name: 'Email', properties: null } }],
            },
          },
        ],
      },
      ownership: {
        owners: [
          {
            type: 'TECHNICAL_OWNER',
            ownershipType: null,
            owner: {
              urn: 'urn:li:corpuser:jdoe',
              type: 'CORP_USER',
              username: 'jdoe',
              properties: { displayName: 'Jane Doe', fullName: null },
            },
          },
        ],
      },
      tags: { tags },
      glossaryTerms: null,
      domain: { domain: { urn: 'urn:li:domain:sales', type: 'DOMAIN', properties: { name: 'Sales' } } },
      privileges: { canEditTags },
    },
  };
}

describe('the dataset page', () => {
  it('shows the description as sanitized markdown, the schema with the catalog’s edits, owners and domain', async () => {
    stubFetch({ getMe: ME, getDataset: dataset(false, []) });
    await renderApp(`/dataset/${encodeURIComponent(URN)}`);
    await screen.findByRole('heading', { level: 1, name: 'orders' });
    expect(screen.getByText('order', { selector: 'strong' })).toBeTruthy();
    expect(document.querySelector('script, img[onerror]')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
    const row = screen.getByRole('row', { name: /customer\.email/ });
    expect(within(row).getByText('varchar(255)')).toBeTruthy();
    // The catalog's edited description wins over the source's; tags and terms of both are shown.
    expect(within(row).getByText('The customer’s email')).toBeTruthy();
    expect(within(row).queryByText('Where to write')).toBeNull();
    expect(within(row).getByText('PII')).toBeTruthy();
    expect(within(row).getByText('Email')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Jane Doe' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sales' })).toBeTruthy();
    expect(screen.getByText('90 days')).toBeTruthy();
  });

  it('hides the tag controls from a user who may not edit the tags', async () => {
    stubFetch({ getMe: ME, getDataset: dataset(false, [PII]) });
    await renderApp(`/dataset/${encodeURIComponent(URN)}`);
    const tags = await screen.findByRole('list', { name: 'Tags' });
    expect(within(tags).getByText('PII')).toBeTruthy();
    expect(screen.queryByLabelText('Tag to add')).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove tag/ })).toBeNull();
  });

  it('adds an existing tag with addTag and removes one with removeTag, reading the dataset again after each', async () => {
    let tags: unknown[] = [];
    const calls = stubFetch({
      getMe: ME,
      getDataset: () => dataset(true, tags),
      searchTags: {
        searchAcrossEntities: {
          searchResults: [
            { entity: { urn: 'urn:li:tag:pii', type: 'TAG', name: 'pii', properties: { name: 'PII' } } },
          ],
        },
      },
      addTag: () => {
        tags = [PII];
        return { addTag: true };
      },
      removeTag: () => {
        tags = [];
        return { removeTag: true };
      },
    });
    await renderApp(`/dataset/${encodeURIComponent(URN)}`);
    const input = await screen.findByLabelText('Tag to add');
    await userEvent.type(input, 'pii');
    await waitFor(() => expect(calls.some((c) => c.operation === 'searchTags')).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    const list = screen.getByRole('list', { name: 'Tags' });
    await within(list).findByText('PII');
    expect(calls.find((c) => c.operation === 'addTag')?.variables).toEqual({
      input: { resourceUrn: URN, tagUrn: 'urn:li:tag:pii' },
    });
    expect(calls.some((c) => c.operation === 'createTag')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Remove tag PII' }));
    await within(list).findByText('No tags');
    expect(calls.find((c) => c.operation === 'removeTag')?.variables).toEqual({
      input: { resourceUrn: URN, tagUrn: 'urn:li:tag:pii' },
    });
  });
});
