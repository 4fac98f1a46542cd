import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest, RequestContext } from '@catalog/auth';
import type { EventLog, PartitionLag, TopicNames } from '@catalog/events';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { WriteTraces, type FailedWrite } from './write-traces.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)';
const T0 = Date.UTC(2026, 0, 1);
/** A trace id made at `millis`, as the gateway makes them (microseconds, then random). */
const traceAt = (millis: number, tail = '0123456789abcdef') =>
  (BigInt(millis) * 1000n).toString(16).padStart(16, '0') + tail;

const ctx = (actor = 'urn:li:corpuser:admin'): RequestContext => ({
  authentication: {
    actorUrn: actor,
    actorId: actor.split(':')[3]!,
    method: 'session-token',
    isSystem: false,
  },
  origin: { sourceIp: '127.0.0.1', userAgent: 'test', eventSource: 'OPENAPI', traceId: '0'.repeat(32) },
});

const policy = new AccessPolicy({
  settings: { restApiAuthorization: true },
  authorizer: { isAllowed: async (r: AuthorizationRequest) => r.actorUrn === 'urn:li:corpuser:admin' },
} as unknown as GatewayAuth);

const topics = { metadataChangeProposal: 'MCP', metadataChangeLogVersioned: 'MCL' } as TopicNames;

interface Fixture {
  rows?: StoredAspect[];
  failures?: FailedWrite[];
  /** Change logs the indexer dead-lettered. */
  dropped?: FailedWrite[];
  /** Per group: [committed, end] of its one partition. */
  persistence?: [number, number];
  indexer?: [number, number];
}

function traces(f: Fixture): { traces: WriteTraces; refreshed: () => number } {
  let refreshes = 0;
  const lagOf = ([offset, end]: [number, number]): PartitionLag[] => [
    { partition: 0, offset: String(offset), endOffset: String(end), lag: end - offset },
  ];
  const log = {
    lag: async (group: string) =>
      lagOf(group === 'persistence' ? (f.persistence ?? [5, 5]) : (f.indexer ?? [9, 9])),
  } as unknown as EventLog;
  const store = {
    getLatestMany: async () => new Map([[URN, f.rows ?? []]]),
  } as unknown as AspectStore;
  return {
    traces: new WriteTraces(
      {
        store,
        log,
        topics,
        groups: { persistence: 'persistence', indexer: 'indexer' },
        failures: {
          find: (traceId, urn, aspect) =>
            f.failures?.find((x) => x.traceId === traceId && x.urn === urn && x.aspectName === aspect),
          caughtUp: async () => true,
        },
        indexFailures: {
          find: (traceId, urn, aspect) =>
            f.dropped?.find((x) => x.traceId === traceId && x.urn === urn && x.aspectName === aspect),
          caughtUp: async () => true,
        },
        refresh: async () => void refreshes++,
        waitMs: 30,
        pollMs: 5,
      },
      policy,
    ),
    refreshed: () => refreshes,
  };
}

const row = (traceId: string, created: number, lastObserved = created): StoredAspect => ({
  urn: URN,
  aspect: 'status',
  version: 0,
  value: { removed: false },
  systemMetadata: { lastObserved, properties: { telemetryTraceId: traceId } },
  created: { time: created, actor: 'urn:li:corpuser:admin' },
});

const ask = (t: WriteTraces, traceId: string, aspects = ['status'], detailed = true) =>
  t.trace(ctx(), { traceId, aspects: { [URN]: aspects }, onlyIncludeErrors: false, detailed });

describe('the write trace', () => {
  it('is ACTIVE_STATE when the stored version carries the trace, in search once the indexer passed it (and refreshed)', async () => {
    const id = traceAt(T0);
    const { traces: t, refreshed } = traces({ rows: [row(id, T0)] });
    expect((await ask(t, id))[URN]?.['status']).toEqual({
      success: true,
      primaryStorage: { writeStatus: 'ACTIVE_STATE' },
      searchStorage: { writeStatus: 'ACTIVE_STATE' },
    });
    expect(refreshed()).toBe(1);
  });

  it('is ERROR in search with the reason when the indexer dead-lettered the change log of the stored write', async () => {
    const id = traceAt(T0);
    const reason = 'permanent failure in indexer after 1 attempt(s): mapping conflict';
    const { traces: t } = traces({
      rows: [row(id, T0)],
      dropped: [{ traceId: id, urn: URN, aspectName: 'status', error: reason }],
    });
    expect((await ask(t, id))[URN]?.['status']).toEqual({
      success: false,
      primaryStorage: { writeStatus: 'ACTIVE_STATE' },
      searchStorage: { writeStatus: 'ERROR', writeMessage: reason },
    });
  });

  it('keeps search PENDING while the indexer has not passed the change logs', async () => {
    const id = traceAt(T0);
    const { traces: t, refreshed } = traces({ rows: [row(id, T0)], indexer: [3, 9] });
    expect((await ask(t, id))[URN]?.['status']?.searchStorage).toEqual({
      writeStatus: 'PENDING',
      writeMessage: 'Consumer has not processed offset.',
    });
    expect(refreshed()).toBe(0);
  });

  it('is HISTORIC_STATE when a later trace wrote the stored version', async () => {
    const { traces: t } = traces({ rows: [row(traceAt(T0 + 1000), T0 + 1000)] });
    expect((await ask(t, traceAt(T0)))[URN]?.['status']?.primaryStorage.writeStatus).toBe('HISTORIC_STATE');
  });

  it('is NO_OP when the store only saw the value again after the trace (lastObserved moved past it)', async () => {
    const { traces: t } = traces({ rows: [row(traceAt(T0), T0, T0 + 5000)] });
    expect((await ask(t, traceAt(T0 + 2000)))[URN]?.['status']).toEqual({
      success: true,
      primaryStorage: { writeStatus: 'NO_OP' },
      searchStorage: { writeStatus: 'NO_OP' },
    });
  });

  it('is PENDING while persistence has not passed what its partition holds, ERROR once it has', async () => {
    const id = traceAt(T0 + 9000);
    const pending = traces({ rows: [row(traceAt(T0), T0)], persistence: [4, 5] });
    expect((await ask(pending.traces, id))[URN]?.['status']).toEqual({
      success: true,
      primaryStorage: { writeStatus: 'PENDING', writeMessage: 'Consumer has not processed offset.' },
      searchStorage: { writeStatus: 'PENDING', writeMessage: 'Pending primary storage write.' },
    });
    const passed = traces({ rows: [row(traceAt(T0), T0)], persistence: [5, 5] });
    expect((await ask(passed.traces, id))[URN]?.['status']?.primaryStorage).toEqual({
      writeStatus: 'ERROR',
      writeMessage: 'Consumer has processed past the offset.',
    });
  });

  it('takes an empty partition as passed, though its group never committed there', async () => {
    const { traces: t } = traces({ persistence: [-1, 0] });
    expect((await ask(t, traceAt(T0)))[URN]?.['status']?.primaryStorage.writeStatus).toBe('ERROR');
    const busy = traces({ persistence: [-1, 1] });
    expect((await ask(busy.traces, traceAt(T0)))[URN]?.['status']?.primaryStorage.writeStatus).toBe(
      'PENDING',
    );
  });

  it("is ERROR with persistence's reason when it refused the write (as exceptions when detailed)", async () => {
    const id = traceAt(T0);
    const failure = {
      traceId: id,
      urn: URN,
      aspectName: 'status',
      error: 'Expected version 3, actual version 1',
    };
    const { traces: t } = traces({ failures: [failure], persistence: [4, 5] });
    expect((await ask(t, id))[URN]?.['status']).toEqual({
      success: false,
      primaryStorage: { writeStatus: 'ERROR', writeExceptions: [{ message: failure.error }] },
      searchStorage: { writeStatus: 'ERROR', writeMessage: 'Primary storage write failed.' },
    });
    expect((await ask(t, id, ['status'], false))[URN]?.['status']?.primaryStorage).toEqual({
      writeStatus: 'ERROR',
      writeMessage: failure.error,
    });
  });

  it('answers time-series aspects NO_OP and TRACE_NOT_IMPLEMENTED, resolving aspect names in any case', async () => {
    const { traces: t } = traces({});
    expect((await ask(t, traceAt(T0), ['DATASETPROFILE']))[URN]).toEqual({
      datasetProfile: {
        success: true,
        primaryStorage: { writeStatus: 'NO_OP' },
        searchStorage: { writeStatus: 'TRACE_NOT_IMPLEMENTED' },
      },
    });
  });

  it('refuses a caller who may not read an urn, and names what is wrong with bad input', async () => {
    const { traces: t } = traces({});
    await expect(
      t.trace(ctx('urn:li:corpuser:nobody'), {
        traceId: traceAt(T0),
        aspects: { [URN]: ['status'] },
        onlyIncludeErrors: false,
        detailed: false,
      }),
    ).rejects.toThrow(/unauthorized to READ/);
    await expect(ask(t, 'xyz')).rejects.toThrow(/Invalid trace id/);
    await expect(ask(t, traceAt(T0), ['nope'])).rejects.toThrow(/Unknown aspect nope for entity dataset/);
  });
});
