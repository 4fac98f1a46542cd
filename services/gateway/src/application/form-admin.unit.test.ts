import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { FormAdmin } from './form-admin.js';

const ADMIN = 'urn:li:corpuser:admin';
const EDITOR = 'urn:li:corpuser:editor';
const NOBODY = 'urn:li:corpuser:nobody';
const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)';
const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)';
const PROPERTY = 'urn:li:structuredProperty:io.test.p';

function setup() {
  const store = new MemoryStore()
    .put(A, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'a', origin: 'PROD' })
    .put(B, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'b', origin: 'PROD' })
    .put(PROPERTY, 'propertyDefinition', { qualifiedName: 'io.test.p' });
  const deps = fakeApplicationDeps(
    { [ADMIN]: { '*': ['MANAGE_DOCUMENTATION_FORMS'] }, [EDITOR]: { [A]: ['EDIT_ENTITY'] } },
    store,
  );
  const forms = new FormAdmin(deps.stored, deps.policy, deps.proposals);
  const formsOf = (urn: string) =>
    store.entities.get(urn)?.get('forms') as Record<string, unknown[]> | undefined;
  return { ...deps, forms, formsOf };
}

const input = {
  id: 'f1',
  name: 'Form',
  prompts: [
    { id: 'p1', title: 'P', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: PROPERTY } },
  ],
};

describe('FormAdmin', () => {
  it('creating a form takes MANAGE_DOCUMENTATION_FORMS; its prompts must name existing properties', async () => {
    const { forms, written } = setup();
    await expect(forms.create(graphqlContext(EDITOR), input)).rejects.toThrow('Unable to create form');
    expect(written).toEqual([]);
    await expect(
      forms.create(graphqlContext(ADMIN), {
        ...input,
        prompts: [
          { ...input.prompts[0]!, structuredPropertyParams: { urn: 'urn:li:structuredProperty:absent' } },
        ],
      }),
    ).rejects.toThrow('does not exist');
    expect(await forms.create(graphqlContext(ADMIN), input)).toBe('urn:li:form:f1');
    expect(written[0]?.value).toMatchObject({ name: 'Form', type: 'COMPLETION', actors: { owners: true } });
  });

  it('assigning takes the forms privilege or EDIT_ENTITY on every asset; all missing assets are named', async () => {
    const { forms, written, formsOf } = setup();
    await forms.create(graphqlContext(ADMIN), input);
    const form = 'urn:li:form:f1';
    await expect(forms.assign(graphqlContext(NOBODY), form, [A])).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(forms.assign(graphqlContext(EDITOR), form, [A, B])).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    const x = 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)';
    const y = 'urn:li:dataset:(urn:li:dataPlatform:hive,y,PROD)';
    await expect(forms.assign(graphqlContext(ADMIN), form, [x, A, y])).rejects.toThrow(`${x}, ${y}`);
    expect(writesOf(written)).toEqual(['urn:li:form:f1 formInfo UPSERT']);
    await forms.assign(graphqlContext(EDITOR), form, [A, A]);
    await forms.assign(graphqlContext(ADMIN), form, [A]);
    expect(formsOf(A)?.['incompleteForms']).toEqual([
      { urn: form, incompletePrompts: [], completedPrompts: [] },
    ]);
  });

  it('removing touches only the named form, and is a no-op where it is not assigned', async () => {
    const { forms, written, formsOf } = setup();
    const ctx = graphqlContext(ADMIN);
    await forms.create(ctx, input);
    await forms.create(ctx, { ...input, id: 'f2', prompts: [] });
    await forms.assign(ctx, 'urn:li:form:f1', [A]);
    await forms.assign(ctx, 'urn:li:form:f2', [A]);
    const before = written.length;
    await forms.remove(ctx, 'urn:li:form:f1', [B]);
    expect(written.length).toBe(before);
    await forms.remove(ctx, 'urn:li:form:f1', [A]);
    expect((formsOf(A)?.['incompleteForms'] as { urn: string }[]).map((f) => f.urn)).toEqual([
      'urn:li:form:f2',
    ]);
  });
});
