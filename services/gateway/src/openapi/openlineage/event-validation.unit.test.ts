import { describe, expect, it } from 'vitest';
import { MAX_EVENT_PROBLEMS, OpenLineageEventValidator } from './event-validation.js';

const validator = new OpenLineageEventValidator();
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python';
const FACET = {
  _producer: PRODUCER,
  _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json',
};
const base = { eventTime: '2026-11-29T10:00:00Z', producer: PRODUCER };
const runEvent = {
  ...base,
  eventType: 'START',
  run: { runId: '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a11' },
  job: { namespace: 'prod', name: 'etl.load' },
};

const problemsOf = (body: unknown) => {
  const checked = validator.check(body);
  return checked.ok ? [] : checked.problems;
};

describe('checking an OpenLineage event against the specification', () => {
  it('tells the kind of an event by its structure', () => {
    expect(validator.check(runEvent)).toMatchObject({ ok: true, event: { kind: 'RunEvent' } });
    expect(validator.check({ ...base, job: runEvent.job })).toMatchObject({
      ok: true,
      event: { kind: 'JobEvent' },
    });
    expect(validator.check({ ...base, dataset: { namespace: 'kafka', name: 't' } })).toMatchObject({
      ok: true,
      event: { kind: 'DatasetEvent' },
    });
  });

  it('names what a run event lacks or gets wrong, by its place in the event', () => {
    const { eventType: _t, ...noType } = runEvent;
    expect(problemsOf(noType)).toEqual([{ path: '/eventType', rule: 'required', message: 'is required' }]);
    expect(problemsOf({ ...runEvent, run: { runId: 'not-a-uuid' }, eventType: 'DONE' })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/eventType', rule: 'enum' }),
        expect.objectContaining({ path: '/run/runId', rule: 'format' }),
      ]),
    );
    expect(problemsOf({ ...base, eventType: 'START' })).toEqual([
      { path: '/job', rule: 'required', message: 'is required' },
    ]);
    expect(problemsOf([runEvent])).toEqual([expect.objectContaining({ path: '/', rule: 'type' })]);
  });

  it('checks an official facet against its schema and leaves a custom one opaque', () => {
    const withFacets = (facets: Record<string, unknown>) => ({
      ...runEvent,
      inputs: [{ namespace: 'bigquery', name: 'a.b', facets }],
    });
    expect(problemsOf(withFacets({ schema: { ...FACET, fields: [{ name: 'id', type: 'int' }] } }))).toEqual(
      [],
    );
    expect(problemsOf(withFacets({ schema: { ...FACET, fields: [{ type: 'int' }] } }))).toEqual([
      {
        path: '/inputs/0/facets/schema/fields/0/name',
        rule: 'required',
        message: 'is required',
        facet: 'schema',
      },
    ]);
    expect(problemsOf(withFacets({ myCompany_custom: { ...FACET, anything: [1, 2] } }))).toEqual([]);
    expect(problemsOf(withFacets({ schema: { _deleted: true } }))).toEqual([
      expect.objectContaining({ path: '/inputs/0/facets/schema/_producer', rule: 'required' }),
      expect.objectContaining({ path: '/inputs/0/facets/schema/_schemaURL', rule: 'required' }),
    ]);
  });

  it('lists at most the ecosystem limit of problems', () => {
    const inputs = Array.from({ length: 80 }, () => ({ namespace: 1, name: 2 }));
    expect(problemsOf({ ...runEvent, inputs })).toHaveLength(MAX_EVENT_PROBLEMS);
  });
});
