import { randomUUID } from 'node:crypto';
import { genericAspectFromJson, type LogRecord, type MetadataChangeProposal } from '@catalog/events';
import { DEFAULT_STRUCTURED_PROPERTY_SETTINGS, type StructuredPropertySettings } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import { isSkipped, mongoForTests } from '@catalog/testkit';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyProposals, type ProposalEffects } from './apply-proposals.js';
import { proposalRecord } from './proposal-records.testing.js';
import { mongoDatabaseUnderTest, openSqliteUnderTest, type StoreUnderTest } from './stores.testing.js';

const STRING = 'urn:li:dataType:datahub.string';
const NUMBER = 'urn:li:dataType:datahub.number';
const DATASET_TYPE = 'urn:li:entityType:datahub.dataset';

/** A property urn unique to one test, so tests can share a database. */
function propertyUrn(name: string): string {
  return `urn:li:structuredProperty:io.test.${name}_${randomUUID().slice(0, 8)}`;
}

function datasetUrn(name: string): string {
  return `urn:li:dataset:(urn:li:dataPlatform:hive,sp.${name}_${randomUUID().slice(0, 8)},PROD)`;
}

const idOf = (urn: string) => urn.slice('urn:li:structuredProperty:'.length);

function definition(urn: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    qualifiedName: idOf(urn),
    valueType: STRING,
    cardinality: 'MULTIPLE',
    entityTypes: [DATASET_TYPE],
    ...overrides,
  };
}

function mcp(
  entityType: string,
  entityUrn: string,
  changeType: MetadataChangeProposal['changeType'],
  aspectName: string,
  value?: unknown,
  contentType?: string,
): MetadataChangeProposal {
  return {
    entityType,
    entityUrn,
    changeType,
    aspectName,
    ...(value === undefined ? {} : { aspect: genericAspectFromJson(value, contentType) }),
  };
}

const defineProperty = (
  urn: string,
  value: Record<string, unknown>,
  changeType: 'UPSERT' | 'CREATE' = 'UPSERT',
) => mcp('structuredProperty', urn, changeType, 'propertyDefinition', value);
const setStatus = (urn: string, removed: boolean) =>
  mcp('structuredProperty', urn, 'UPSERT', 'status', { removed });
const assign = (propertyUrn: string, ...values: unknown[]) => ({ propertyUrn, values });
const setValues = (entityUrn: string, ...properties: unknown[]) =>
  mcp('dataset', entityUrn, 'UPSERT', 'structuredProperties', { properties });
/** The SDK's patch builder: one op per property, keyed by propertyUrn. */
const patchValues = (entityUrn: string, ops: unknown[]) =>
  mcp(
    'dataset',
    entityUrn,
    'PATCH',
    'structuredProperties',
    { patch: ops, arrayPrimaryKeys: { properties: ['propertyUrn'] } },
    'application/json-patch+json',
  );

interface Run {
  readonly effects: ProposalEffects;
  readonly warnings: { details: object; message: string }[];
}

function suite(open: () => Promise<StoreUnderTest>): void {
  let underTest: StoreUnderTest;
  let store: AspectStore;
  beforeEach(async () => {
    underTest = await open();
    store = underTest.store;
  });
  afterEach(() => underTest.cleanup());

  async function apply(
    mcps: readonly MetadataChangeProposal[],
    settings: Partial<StructuredPropertySettings> = {},
  ): Promise<Run> {
    const warnings: Run['warnings'] = [];
    const records: LogRecord[] = mcps.map((m) => proposalRecord(m));
    const effects = await applyProposals(records, store, undefined, {
      structuredProperties: { ...DEFAULT_STRUCTURED_PROPERTY_SETTINGS, ...settings },
      logger: { warn: (details, message) => warnings.push({ details, message }) },
    });
    return { effects, warnings };
  }

  /** Applies proposals that must all succeed. */
  async function accept(...mcps: MetadataChangeProposal[]): Promise<Run> {
    const run = await apply(mcps);
    expect(run.effects.failed).toEqual([]);
    expect(run.effects.outcomes.every((o) => o.ok)).toBe(true);
    return run;
  }

  /**
   * Applies one proposal that must fail validation with this message (SCHEMA_VALIDATION: the
   * ecosystem's ValidationException, Rest.li 422 / OpenAPI 400 "Validation Error"), storing nothing.
   */
  async function refuse(proposal: MetadataChangeProposal, message: string, settings = {}): Promise<void> {
    const before = await store.getLatest(proposal.entityUrn!);
    const { effects } = await apply([proposal], settings);
    expect(effects.outcomes).toEqual([
      expect.objectContaining({ ok: false, code: 'SCHEMA_VALIDATION', message, urn: proposal.entityUrn }),
    ]);
    // The async path's failed proposal (FailedMetadataChangeProposal) carries the same message.
    expect(effects.failed).toEqual([expect.objectContaining({ key: proposal.entityUrn, error: message })]);
    expect(effects.versioned).toEqual([]);
    expect(await store.getLatest(proposal.entityUrn!)).toEqual(before);
  }

  const stored = async (urn: string, aspect: string) => (await store.get(urn, aspect))?.value;

  describe('definitions', () => {
    it('stores a valid definition, and refuses spaces, unknown data and entity types', async () => {
      const urn = propertyUrn('retention');
      await accept(defineProperty(urn, definition(urn, { valueType: NUMBER })));
      expect(await stored(urn, 'propertyDefinition')).toMatchObject({ valueType: NUMBER });

      const spaced = 'urn:li:structuredProperty:test me out';
      await refuse(
        defineProperty(spaced, definition(spaced, { qualifiedName: 'test.me' })),
        'Urn ID cannot have spaces',
      );
      const other = propertyUrn('other');
      await refuse(
        defineProperty(other, definition(other, { qualifiedName: 'has spaces' })),
        'Qualified names cannot have spaces',
      );
      await refuse(
        defineProperty(other, definition(other, { valueType: 'urn:li:dataType:datahub.boolean' })),
        'Invalid valueType urn:li:dataType:datahub.boolean: it must be one of [urn:li:dataType:datahub.string, ' +
          'urn:li:dataType:datahub.number, urn:li:dataType:datahub.urn, urn:li:dataType:datahub.rich_text, ' +
          'urn:li:dataType:datahub.date]',
      );
      await refuse(
        defineProperty(other, definition(other, { entityTypes: ['urn:li:entityType:datahub.nothing'] })),
        'Invalid entityTypes [urn:li:entityType:datahub.nothing]: each must be an entity type urn ' +
          'urn:li:entityType:datahub.<entity name> of a known entity type',
      );
      expect(await store.getLatest(other)).toEqual([]);
    });

    it('refuses breaking changes without a new version and takes them with one; the name never changes', async () => {
      const urn = propertyUrn('tier');
      const allowed = [{ value: { string: 'gold' } }, { value: { string: 'silver' } }];
      await accept(defineProperty(urn, definition(urn, { allowedValues: allowed })));
      await refuse(
        defineProperty(urn, definition(urn, { allowedValues: allowed, valueType: NUMBER })),
        'Allowed value {string=gold} does not fit valueType urn:li:dataType:datahub.number: it should be a number; ' +
          'Allowed value {string=silver} does not fit valueType urn:li:dataType:datahub.number: it should be a number; ' +
          'Value type cannot be changed as this is a backwards incompatible change',
      );
      await refuse(
        defineProperty(
          urn,
          definition(urn, { allowedValues: allowed, valueType: 'urn:li:dataType:datahub.rich_text' }),
        ),
        'Value type cannot be changed as this is a backwards incompatible change',
      );
      await refuse(
        defineProperty(urn, definition(urn, { allowedValues: allowed, cardinality: 'SINGLE' })),
        'Property definition cardinality cannot be changed from MULTI to SINGLE',
      );
      await refuse(
        defineProperty(urn, definition(urn, { allowedValues: allowed.slice(0, 1) })),
        'Cannot restrict values that were previously allowed',
      );
      await refuse(
        defineProperty(urn, definition(urn, { allowedValues: allowed, qualifiedName: 'io.test.renamed' })),
        'Cannot change the fully qualified name of a Structured Property',
      );
      await refuse(
        defineProperty(urn, definition(urn, { allowedValues: allowed, version: '2024.1' })),
        'Invalid version `2024.1` cannot contain the `.` character.',
      );
      // Compatible: a new allowed value, SINGLE → MULTIPLE, a description.
      await accept(
        defineProperty(
          urn,
          definition(urn, { allowedValues: [...allowed, { value: { string: 'bronze' } }], description: 'd' }),
        ),
      );
      // Breaking, with a version: taken; the same version again is not new.
      await accept(
        defineProperty(
          urn,
          definition(urn, { cardinality: 'SINGLE', allowedValues: allowed, version: '20240101000000' }),
        ),
      );
      await refuse(
        defineProperty(
          urn,
          definition(urn, {
            cardinality: 'SINGLE',
            allowedValues: allowed.slice(1),
            version: '20240101000000',
          }),
        ),
        'Cannot restrict values that were previously allowed',
      );
      expect(await stored(urn, 'propertyDefinition')).toMatchObject({
        version: '20240101000000',
        cardinality: 'SINGLE',
      });
    });

    it('validates a PATCH of a definition on its result', async () => {
      const urn = propertyUrn('patched');
      const allowed = [{ value: { string: 'a' } }, { value: { string: 'b' } }];
      await accept(defineProperty(urn, definition(urn, { allowedValues: allowed })));
      const patch = (ops: unknown[]) =>
        mcp('structuredProperty', urn, 'PATCH', 'propertyDefinition', ops, 'application/json-patch+json');
      await refuse(
        patch([{ op: 'remove', path: '/allowedValues/b' }]),
        'Cannot restrict values that were previously allowed',
      );
      await refuse(
        patch([{ op: 'replace', path: '/valueType', value: 'urn:li:dataType:datahub.rich_text' }]),
        'Value type cannot be changed as this is a backwards incompatible change',
      );
      await accept(patch([{ op: 'add', path: '/allowedValues/c', value: { value: { string: 'c' } } }]));
      expect((await stored(urn, 'propertyDefinition'))?.['allowedValues']).toHaveLength(3);
    });

    it('refuses updates of a soft-deleted property, and takes them again once it is restored', async () => {
      const urn = propertyUrn('retired');
      await accept(defineProperty(urn, definition(urn)), setStatus(urn, true));
      await refuse(
        defineProperty(urn, definition(urn, { description: 'late' })),
        'Cannot mutate a soft deleted Structured Property Definition',
      );
      await accept(setStatus(urn, false), defineProperty(urn, definition(urn, { description: 'back' })));
      expect(await stored(urn, 'propertyDefinition')).toMatchObject({ description: 'back' });
    });

    it("refuses a new property whose name, or its '.'/'_' form, another property has — also in one batch", async () => {
      const first = propertyUrn('cert');
      const name = idOf(first);
      await accept(defineProperty(first, definition(first, { qualifiedName: `${name}.status` })));
      const collide = `urn:li:structuredProperty:${name}_status`;
      const message =
        `Cannot create Structured Property ${collide}: its qualifiedName ${name}_status collides with ${first} ` +
        `(qualifiedName ${name}.status); qualified names that differ only by '.' and '_' share one search field`;
      await refuse(
        defineProperty(collide, definition(collide, { qualifiedName: `${name}_status` })),
        message,
      );
      // The same name under another urn collides too; an update of the owner does not.
      const again = propertyUrn('again');
      await refuse(
        defineProperty(again, definition(again, { qualifiedName: `${name}.status` })),
        expect.stringContaining('collides with') as unknown as string,
      );
      await accept(
        defineProperty(first, definition(first, { qualifiedName: `${name}.status`, description: 'x' })),
      );

      const a = propertyUrn('pair');
      const b = `${a}_x`;
      const { effects } = await apply([
        defineProperty(a, definition(a, { qualifiedName: `${idOf(a)}.x` })),
        defineProperty(b, definition(b, { qualifiedName: `${idOf(a)}_x` })),
      ]);
      expect(effects.outcomes.map((o) => o.ok)).toEqual([true, false]);
      expect(effects.outcomes[1]).toMatchObject({
        code: 'SCHEMA_VALIDATION',
        message: expect.stringContaining('collides with'),
      });
      expect(await store.getLatest(b)).toEqual([]);
    });
  });

  describe('values', () => {
    it('stores a definition and its first value written in one batch', async () => {
      const urn = propertyUrn('fresh');
      const dataset = datasetUrn('fresh');
      const { effects } = await accept(
        defineProperty(urn, definition(urn)),
        setValues(dataset, assign(urn, { string: 'v' })),
      );
      expect(effects.outcomes.map((o) => (o.ok ? o.status : o.message))).toEqual(['CREATED', 'CREATED']);
      expect(await stored(dataset, 'structuredProperties')).toEqual({
        properties: [assign(urn, { string: 'v' })],
      });
    });

    it('judges a value against a definition refused earlier in the batch as an orphan', async () => {
      const urn = propertyUrn('refused');
      const dataset = datasetUrn('refused');
      const { effects } = await apply([
        defineProperty(urn, definition(urn, { valueType: 'urn:li:dataType:datahub.nope' })),
        setValues(dataset, assign(urn, { string: 'v' })),
      ]);
      expect(effects.outcomes.map((o) => o.ok)).toEqual([false, false]);
      expect(effects.outcomes[1]).toMatchObject({
        message:
          `Structured properties write rejected for ${dataset}: no valid property assignments remain after ` +
          `removing values for non-existent properties: [${urn}]`,
      });
    });

    it('drops orphan assignments with a warning and stores the rest; all orphans fail; strict fails any', async () => {
      const urn = propertyUrn('kept');
      const orphan = propertyUrn('orphan');
      const dataset = datasetUrn('orphans');
      await accept(defineProperty(urn, definition(urn)));
      const { warnings } = await accept(
        setValues(dataset, assign(orphan, { string: 'x' }), assign(urn, { string: 'y' })),
      );
      expect(await stored(dataset, 'structuredProperties')).toEqual({
        properties: [assign(urn, { string: 'y' })],
      });
      expect(warnings).toEqual([
        {
          details: { entityUrn: dataset, propertyUrn: orphan },
          message: `Dropping structured property assignment for non-existent definition ${orphan} on ${dataset}`,
        },
      ]);
      await refuse(
        setValues(dataset, assign(orphan, { string: 'x' })),
        `Structured properties write rejected for ${dataset}: no valid property assignments remain after ` +
          `removing values for non-existent properties: [${orphan}]`,
      );
      await refuse(
        setValues(dataset, assign(orphan, { string: 'x' }), assign(urn, { string: 'z' })),
        `Unexpected null value found for ${orphan} Structured Property Definition.`,
        { dropMissingPropertyValuesWithWarning: false },
      );
    });

    it('refuses values of a soft-deleted property, of another entity type, or that break the definition', async () => {
      const retired = propertyUrn('retired');
      const single = propertyUrn('single');
      const chartOnly = propertyUrn('chart');
      const days = propertyUrn('days');
      const day = propertyUrn('day');
      await accept(
        defineProperty(retired, definition(retired)),
        setStatus(retired, true),
        defineProperty(single, definition(single, { cardinality: 'SINGLE' })),
        defineProperty(
          chartOnly,
          definition(chartOnly, { entityTypes: ['urn:li:entityType:datahub.chart'] }),
        ),
        defineProperty(
          days,
          definition(days, { valueType: NUMBER, allowedValues: [{ value: { double: 30 } }] }),
        ),
        defineProperty(day, definition(day, { valueType: 'urn:li:dataType:datahub.date' })),
      );
      const dataset = datasetUrn('rules');
      await refuse(
        setValues(dataset, assign(retired, { string: 'x' })),
        'Cannot apply a soft deleted Structured Property value',
      );
      await refuse(
        setValues(dataset, assign(chartOnly, { string: 'x' })),
        `Property: ${chartOnly} cannot be applied to entity type dataset: its entityTypes are [urn:li:entityType:datahub.chart]`,
      );
      await refuse(
        setValues(dataset, assign(single, { string: 'a' }, { string: 'b' })),
        `Property: ${single} has cardinality 1, but multiple values were assigned: [{string=a}, {string=b}]`,
      );
      await refuse(
        setValues(dataset, assign(single, { double: 1 })),
        `Property: ${single}, value: {double=1.0} should be a string`,
      );
      await refuse(
        setValues(dataset, assign(days, { double: 60 })),
        `Property: ${days}, value: {double=60.0} should be one of [{double=30.0}]`,
      );
      await refuse(
        setValues(dataset, assign(days, { string: 'soon' })),
        `Property: ${days}, value: {string=soon} should be a number; ` +
          `Property: ${days}, value: {string=soon} should be one of [{double=30.0}]`,
      );
      await refuse(
        setValues(dataset, assign(day, { string: '2024-02-30' })),
        `Property: ${day}, value: {string=2024-02-30} should be a date with format YYYY-MM-DD`,
      );
      await refuse(
        setValues(dataset, assign(single, { string: 'a' }), assign(single, { string: 'b' })),
        `Property: ${single} has multiple entries: [{propertyUrn=${single}, values=[{string=a}]}, ` +
          `{propertyUrn=${single}, values=[{string=b}]}]`,
      );
      await accept(setValues(dataset, assign(days, { double: 30 }), assign(day, { string: '2024-02-29' })));
      // An explicit empty aspect clears every value.
      await accept(setValues(dataset));
      expect(await stored(dataset, 'structuredProperties')).toEqual({ properties: [] });
    });

    it('refuses string-backed values over the keyword limit unless they are dropped from the index', async () => {
      const urn = propertyUrn('long');
      const dataset = datasetUrn('long');
      await accept(defineProperty(urn, definition(urn)));
      const long = 'x'.repeat(101);
      await refuse(
        setValues(dataset, assign(urn, { string: long })),
        `Property: ${urn}, value is 101 bytes which exceeds the maximum of 100 UTF-8 bytes for structured ` +
          'property values indexed as Elasticsearch keywords (structuredProperties.keywordMaxLength)',
        { keywordMaxLength: 100 },
      );
      const { effects } = await apply([setValues(dataset, assign(urn, { string: long }))], {
        keywordMaxLength: 100,
        dropOversizedKeywordValuesFromIndex: true,
      });
      expect(effects.failed).toEqual([]);
      expect(await stored(dataset, 'structuredProperties')).toEqual({
        properties: [assign(urn, { string: long })],
      });
    });

    it('keeps immutable values once set: no change, no removal (upsert, patch or delete)', async () => {
      const frozen = propertyUrn('frozen');
      const free = propertyUrn('free');
      const dataset = datasetUrn('frozen');
      await accept(
        defineProperty(frozen, definition(frozen, { immutable: true })),
        defineProperty(free, definition(free)),
      );
      await accept(setValues(dataset, assign(frozen, { string: 'v1' }), assign(free, { string: 'a' })));
      await refuse(
        setValues(dataset, assign(frozen, { string: 'v2' }), assign(free, { string: 'a' })),
        `Cannot mutate an immutable property: ${frozen}`,
      );
      await refuse(
        setValues(dataset, assign(free, { string: 'b' })),
        `Cannot delete an immutable property ${frozen}`,
      );
      await refuse(
        patchValues(dataset, [{ op: 'remove', path: `/properties/${frozen}` }]),
        `Cannot delete an immutable property ${frozen}`,
      );
      await refuse(
        mcp('dataset', dataset, 'DELETE', 'structuredProperties'),
        `Cannot delete an immutable property ${frozen}`,
      );
      await accept(setValues(dataset, assign(frozen, { string: 'v1' }), assign(free, { string: 'b' })));
    });

    it("validates the SDK's patches on their result, judging only what they change", async () => {
      const single = propertyUrn('single');
      const retired = propertyUrn('retired');
      const dataset = datasetUrn('patched');
      await accept(
        defineProperty(single, definition(single, { cardinality: 'SINGLE' })),
        defineProperty(retired, definition(retired)),
        setValues(dataset, assign(retired, { string: 'old' })),
        setStatus(retired, true),
      );
      // Adding a value of another property leaves the soft-deleted property's stored value alone.
      await accept(
        patchValues(dataset, [
          { op: 'add', path: `/properties/${single}`, value: assign(single, { string: 'a' }) },
        ]),
      );
      expect(await stored(dataset, 'structuredProperties')).toEqual({
        properties: [assign(retired, { string: 'old' }), assign(single, { string: 'a' })],
      });
      await refuse(
        patchValues(dataset, [{ op: 'add', path: `/properties/${single}/values/-`, value: { string: 'b' } }]),
        `Property: ${single} has cardinality 1, but multiple values were assigned: [{string=a}, {string=b}]`,
      );
      await refuse(
        patchValues(dataset, [
          { op: 'add', path: `/properties/${retired}`, value: assign(retired, { string: 'new' }) },
        ]),
        'Cannot apply a soft deleted Structured Property value',
      );
      const orphan = propertyUrn('orphan');
      await refuse(
        patchValues(dataset, [
          { op: 'add', path: `/properties/${orphan}`, value: assign(orphan, { string: 'x' }) },
        ]),
        `Unexpected null value found for ${orphan} Structured Property Definition.`,
        { dropMissingPropertyValuesWithWarning: false },
      );
      // With dropping on, the orphan is dropped and the rest of the patched value stored.
      const { effects, warnings } = await apply([
        patchValues(dataset, [
          { op: 'add', path: `/properties/${orphan}`, value: assign(orphan, { string: 'x' }) },
        ]),
      ]);
      expect(effects.outcomes).toEqual([expect.objectContaining({ ok: true, status: 'UNCHANGED' })]);
      expect(warnings).toHaveLength(1);
    });

    it('applies to schema fields through their own structuredProperties aspect', async () => {
      const urn = propertyUrn('field');
      await accept(
        defineProperty(urn, definition(urn, { entityTypes: ['urn:li:entityType:datahub.schemaField'] })),
      );
      const field = `urn:li:schemaField:(${datasetUrn('fields')},id)`;
      await accept(
        mcp('schemaField', field, 'UPSERT', 'structuredProperties', {
          properties: [assign(urn, { string: 'pk' })],
        }),
      );
      await refuse(
        setValues(datasetUrn('fields'), assign(urn, { string: 'pk' })),
        `Property: ${urn} cannot be applied to entity type dataset: its entityTypes are [urn:li:entityType:datahub.schemaField]`,
      );
    });
  });
}

describe('structured property write rules through persistence, on the embedded SQLite store', () => {
  suite(openSqliteUnderTest);
});

const mongo = await mongoForTests();
if (isSkipped(mongo)) console.warn(`skipping the MongoDB-wire structured property suite: ${mongo.skip}`);

describe.skipIf(isSkipped(mongo))(
  'structured property write rules through persistence, on the MongoDB-wire store',
  () => {
    if (isSkipped(mongo)) return;
    const database = mongoDatabaseUnderTest(mongo.uri);
    afterAll(() => database.drop());
    suite(() => database.open());
  },
);
