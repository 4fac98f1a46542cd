import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { TimeseriesDocument } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireEntityUrn, requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { Relationships } from './relationships.js';
import type { StoredEntities } from './stored-entities.js';
import type { TimeseriesReads } from './timeseries-reads.js';

/** The ecosystem's privileges to edit an asset's assertions: EDIT_ENTITY_ASSERTIONS, or all (EDIT_ENTITY). */
const EDIT_ASSERTIONS = ['EDIT_ENTITY_ASSERTIONS', 'EDIT_ENTITY'] as const;
const ENTITY = 'assertion';
const INFO = 'assertionInfo';
const RUN_EVENT = 'assertionRunEvent';
/** The ecosystem's default page of an asset's assertions. */
const DEFAULT_COUNT = 200;
/** The key of an error result's message in its properties (the ecosystem's ERROR_MESSAGE_KEY). */
const ERROR_MESSAGE_KEY = 'message';

type Json = Readonly<Record<string, unknown>>;

export interface StdParameterInput {
  readonly value: string;
  readonly type: string;
}

export interface UpsertCustomAssertionInput {
  readonly entityUrn: string;
  readonly type: string;
  readonly description: string;
  readonly fieldPath?: string | null;
  readonly fieldPaths?: readonly string[] | null;
  readonly platform: { readonly urn?: string | null; readonly name?: string | null };
  readonly externalUrl?: string | null;
  readonly logic?: string | null;
  readonly scope?: string | null;
  readonly aggregation?: string | null;
  readonly operator?: string | null;
  readonly parameters?: {
    readonly value?: StdParameterInput | null;
    readonly minValue?: StdParameterInput | null;
    readonly maxValue?: StdParameterInput | null;
  } | null;
  readonly nativeType?: string | null;
  readonly nativeParameters?: readonly { readonly key: string; readonly value?: string | null }[] | null;
}

export interface AssertionResultInput {
  readonly timestampMillis?: number | null;
  readonly type: string;
  readonly properties?: readonly { readonly key: string; readonly value?: string | null }[] | null;
  readonly externalUrl?: string | null;
  readonly error?: { readonly type: string; readonly message: string } | null;
  readonly severity?: string | null;
}

export interface RunEventsQuery {
  readonly status?: string | null;
  readonly startTimeMillis?: number | null;
  readonly endTimeMillis?: number | null;
  readonly limit?: number | null;
}

export interface RunEventsPage {
  readonly total: number;
  readonly failed: number;
  readonly succeeded: number;
  readonly errored: number;
  /** The stored assertionRunEvent values, newest first, each with when it was last observed. */
  readonly runEvents: readonly { readonly value: Json; readonly lastObservedMillis?: number }[];
}

export interface EntityAssertionsPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly urns: readonly string[];
}

/**
 * Assertions on assets as the ecosystem's assertion mutations keep them (UpsertCustomAssertionResolver,
 * ReportAssertionResultResolver, DeleteAssertionResolver, AssertionService): each takes
 * EDIT_ENTITY_ASSERTIONS (or EDIT_ENTITY) on the asserted entity. An upsert writes the whole
 * `assertionInfo` (type CUSTOM, source EXTERNAL) and the `dataPlatformInstance`; a result is an
 * `assertionRunEvent` (status COMPLETE, runId its timestamp). An asset's assertions are the sources of
 * its incoming Asserts edges, those with an info and, unless asked, not soft-deleted.
 */
export class Assertions {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    private readonly relationships: Relationships,
    private readonly timeseries: TimeseriesReads,
  ) {}

  /** Creates or replaces a custom assertion (a new urn when none is given) and answers its urn. */
  async upsertCustom(
    ctx: RequestContext,
    urn: string | null | undefined,
    input: UpsertCustomAssertionInput,
  ): Promise<string> {
    const entityUrn = requireEntityUrn(input.entityUrn).urn;
    const assertionUrn =
      urn === null || urn === undefined
        ? `urn:li:${ENTITY}:${randomUUID()}`
        : requireUrnOf(urn, [ENTITY], 'urn').urn;
    await this.requireEdit(ctx, entityUrn);
    const info = {
      type: 'CUSTOM',
      description: input.description,
      ...(typeof input.externalUrl === 'string' ? { externalUrl: input.externalUrl } : {}),
      source: { type: 'EXTERNAL' },
      customAssertion: customInfo(entityUrn, input),
    };
    await writeDecided(this.proposals, ctx, [
      { urn: assertionUrn, entityType: ENTITY, aspect: INFO, value: info },
      {
        urn: assertionUrn,
        entityType: ENTITY,
        aspect: 'dataPlatformInstance',
        value: { platform: platformOf(input.platform) },
      },
    ]);
    return assertionUrn;
  }

  /** Records one run result of an assertion on the entity it asserts. */
  async reportResult(ctx: RequestContext, urn: string, input: AssertionResultInput): Promise<void> {
    const assertionUrn = requireUrnOf(urn, [ENTITY], 'urn').urn;
    const info = await this.stored.aspect<Json>(assertionUrn, INFO);
    const assertee = info === undefined ? undefined : asserteeOf(info);
    if (assertee === undefined)
      throw new ValidationError(
        `Failed to report Assertion Run Event. Assertion with urn ${assertionUrn} does not exist or is not associated with any entity.`,
      );
    await this.requireEdit(ctx, assertee);
    const timestampMillis = input.timestampMillis ?? Date.now();
    const event = {
      timestampMillis,
      runId: String(timestampMillis),
      assertionUrn,
      asserteeUrn: assertee,
      status: 'COMPLETE',
      result: resultOf(input),
    };
    await writeDecided(this.proposals, ctx, [
      { urn: assertionUrn, entityType: ENTITY, aspect: RUN_EVENT, value: event },
    ]);
  }

  /**
   * Deletes an assertion (its key, so the entity and its edges go); true also when it does not exist.
   * The privilege is asked on the asserted entity when the info names one.
   */
  async delete(ctx: RequestContext, urn: string): Promise<boolean> {
    const assertionUrn = requireUrnOf(urn, [ENTITY], 'urn').urn;
    if (!(await this.stored.exists(assertionUrn))) return true;
    const info = await this.stored.aspect<Json>(assertionUrn, INFO);
    const assertee = info === undefined ? undefined : asserteeOf(info);
    if (assertee !== undefined) await this.requireEdit(ctx, assertee);
    await writeDecided(this.proposals, ctx, [
      { urn: assertionUrn, entityType: ENTITY, aspect: 'assertionKey', changeType: 'DELETE' },
    ]);
    return true;
  }

  /** A page of the asset's assertions (graph order), as the ecosystem's EntityAssertionsResolver. */
  async forEntity(
    ctx: RequestContext,
    urn: string,
    page: {
      readonly start?: number | null;
      readonly count?: number | null;
      readonly includeSoftDeleted?: boolean | null;
    },
  ): Promise<EntityAssertionsPage> {
    const start = Math.max(0, page.start ?? 0);
    const count = Math.max(0, page.count ?? DEFAULT_COUNT);
    const related = await this.relationships.related(ctx, {
      urn,
      direction: 'INCOMING',
      types: ['Asserts'],
      start,
      count,
    });
    const urns: string[] = [];
    for (const candidate of new Set(related.relationships.map((r) => r.entity))) {
      const values = await this.stored.values(candidate);
      if (!values.has(INFO)) continue;
      if (page.includeSoftDeleted !== true && values.get('status')?.['removed'] === true) continue;
      urns.push(candidate);
    }
    return { start, count: related.covered, total: related.total, urns };
  }

  /** The assertion's run events, newest first, with the counts by result, as AssertionRunEventResolver. */
  async runEvents(ctx: RequestContext, urn: string, query: RunEventsQuery): Promise<RunEventsPage> {
    const documents: readonly TimeseriesDocument[] = await this.timeseries.values(ctx, {
      urn,
      entityType: ENTITY,
      aspect: RUN_EVENT,
      limit: query.limit ?? 10_000,
      ...(typeof query.startTimeMillis === 'number' ? { startTimeMillis: query.startTimeMillis } : {}),
      ...(typeof query.endTimeMillis === 'number' ? { endTimeMillis: query.endTimeMillis } : {}),
    });
    const runEvents = documents
      .filter(
        (d) => query.status === null || query.status === undefined || d.value['status'] === query.status,
      )
      .map((d) => ({
        value: d.value as Json,
        ...(typeof d.systemMetadata?.['lastObserved'] === 'number'
          ? { lastObservedMillis: d.systemMetadata['lastObserved'] }
          : {}),
      }));
    const completeWith = (type: string) =>
      runEvents.filter(
        ({ value }) =>
          value['status'] === 'COMPLETE' && (value['result'] as Json | undefined)?.['type'] === type,
      ).length;
    return {
      total: runEvents.length,
      failed: completeWith('FAILURE'),
      succeeded: completeWith('SUCCESS'),
      errored: completeWith('ERROR'),
      runEvents,
    };
  }

  private requireEdit(ctx: RequestContext, asserteeUrn: string): Promise<void> {
    return requireAnyOf(this.policy, ctx, EDIT_ASSERTIONS, { resourceUrn: asserteeUrn });
  }
}

/** The entity an assertion's info asserts, by its kind (the ecosystem's getEntityFromAssertionInfo). */
export function asserteeOf(info: Json): string | undefined {
  const kinds: readonly [string, string][] = [
    ['datasetAssertion', 'dataset'],
    ['freshnessAssertion', 'entity'],
    ['volumeAssertion', 'entity'],
    ['sqlAssertion', 'entity'],
    ['fieldAssertion', 'entity'],
    ['schemaAssertion', 'entity'],
    ['customAssertion', 'entity'],
  ];
  for (const [kind, field] of kinds) {
    const value = (info[kind] as Json | undefined)?.[field];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function platformOf(platform: UpsertCustomAssertionInput['platform']): string {
  if (typeof platform.urn === 'string')
    return requireUrnOf(platform.urn, ['dataPlatform'], 'platform.urn').urn;
  if (typeof platform.name === 'string' && platform.name !== '')
    return `urn:li:dataPlatform:${platform.name}`;
  throw new ValidationError(
    'Failed to upsert Custom Assertion. Platform Name or Platform Urn must be specified.',
  );
}

function fieldUrn(entityUrn: string, fieldPath: string): string {
  return `urn:li:schemaField:(${entityUrn},${fieldPath})`;
}

function customInfo(entityUrn: string, input: UpsertCustomAssertionInput): Record<string, unknown> {
  let fields: string[] | undefined;
  if (input.fieldPaths !== null && input.fieldPaths !== undefined && input.fieldPaths.length > 0) {
    if (input.fieldPaths.some((p) => p.trim() === ''))
      throw new ValidationError(
        'Failed to upsert Custom Assertion. fieldPaths must not contain blank entries; omit fieldPaths for dataset-level assertions.',
      );
    fields = input.fieldPaths.map((p) => fieldUrn(entityUrn, p));
  } else if (typeof input.fieldPath === 'string') {
    if (input.fieldPath.trim() === '')
      throw new ValidationError(
        'Failed to upsert Custom Assertion. fieldPath must not be blank when provided; omit fieldPath for dataset-level assertions.',
      );
    fields = [fieldUrn(entityUrn, input.fieldPath)];
  }
  const parameters = input.parameters;
  const nativeParameters = (input.nativeParameters ?? []).filter(
    (e): e is { key: string; value: string } => typeof e.value === 'string',
  );
  return {
    type: input.type,
    entity: entityUrn,
    ...(fields === undefined ? {} : { field: fields[0], fields }),
    ...(input.scope ? { scope: input.scope } : {}),
    ...(input.aggregation ? { aggregation: input.aggregation } : {}),
    ...(input.operator ? { operator: input.operator } : {}),
    ...(parameters
      ? {
          parameters: {
            ...(parameters.value ? { value: { ...parameters.value } } : {}),
            ...(parameters.maxValue ? { maxValue: { ...parameters.maxValue } } : {}),
            ...(parameters.minValue ? { minValue: { ...parameters.minValue } } : {}),
          },
        }
      : {}),
    ...(typeof input.nativeType === 'string' ? { nativeType: input.nativeType } : {}),
    ...(nativeParameters.length > 0
      ? { nativeParameters: Object.fromEntries(nativeParameters.map((e) => [e.key, e.value])) }
      : {}),
    ...(typeof input.logic === 'string' ? { logic: input.logic } : {}),
  };
}

function resultOf(input: AssertionResultInput): Record<string, unknown> {
  const properties = (input.properties ?? []).filter(
    (e): e is { key: string; value: string } => typeof e.value === 'string',
  );
  return {
    type: input.type,
    ...(typeof input.externalUrl === 'string' ? { externalUrl: input.externalUrl } : {}),
    ...(input.type === 'ERROR' && input.error
      ? { error: { type: input.error.type, properties: { [ERROR_MESSAGE_KEY]: input.error.message } } }
      : {}),
    ...(properties.length > 0
      ? { nativeResults: Object.fromEntries(properties.map((e) => [e.key, e.value])) }
      : {}),
    ...(input.type === 'FAILURE' && input.severity ? { severity: input.severity } : {}),
  };
}
