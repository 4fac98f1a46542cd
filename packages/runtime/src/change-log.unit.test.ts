import { decodeMcl, encodeMcl } from '@catalog/events';
import { checkProposal, type CheckedProposal } from '@catalog/model';
import type { StoredAspect } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import { changeLogForStored, changeLogForTimeseries, systemMetadataFor } from './change-log.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.change_log,PROD)';
const ACTOR = 'urn:li:corpuser:writer';

function checked(systemMetadata?: Record<string, unknown>, aspectName = 'status'): CheckedProposal {
  return checkProposal({
    entityType: 'dataset',
    entityUrn: URN,
    changeType: 'UPSERT',
    aspectName,
    aspect: {
      value: JSON.stringify(aspectName === 'status' ? { removed: false } : { timestampMillis: 1 }),
      contentType: 'application/json',
    },
    ...(systemMetadata === undefined ? {} : { systemMetadata }),
  });
}

function stored(systemMetadata: StoredAspect['systemMetadata']): StoredAspect {
  return {
    urn: URN,
    aspect: 'status',
    version: 0,
    value: { removed: false },
    systemMetadata,
    created: { time: 2_000, actor: ACTOR },
  };
}

describe('systemMetadataFor', () => {
  it('fills lastObserved and stores no run id the writer did not send', () => {
    const sm = systemMetadataFor(checked(), 1_234);
    expect(sm).toEqual({ lastObserved: 1_234 });
    expect(sm).not.toHaveProperty('runId');
    expect(sm).not.toHaveProperty('lastRunId');
  });

  it('takes the default run id, as a decoded proposal carries it when none was sent, for no run id', () => {
    const decoded = { lastObserved: 0, runId: 'no-run-id-provided', lastRunId: 'no-run-id-provided' };
    expect(systemMetadataFor(checked(decoded), 1_234)).toEqual({ lastObserved: 1_234 });
  });

  it('keeps what the writer sent, run id included, and a lastObserved it gave', () => {
    const sent = { runId: 'run-1', lastObserved: 99, properties: { eventSource: 'OPENAPI' } };
    expect(systemMetadataFor(checked(sent), 1_234)).toEqual(sent);
  });
});

describe('change logs of stored aspects', () => {
  it('encode an absent runId and lastRunId as the ecosystem default, and carry the version stamps and schemaVersion', () => {
    const stamp = { actor: ACTOR, time: 2_000 };
    const mcl = changeLogForStored({
      entityType: 'dataset',
      changeType: 'UPSERT',
      current: stored({
        lastObserved: 2_000,
        version: '2',
        schemaVersion: 2,
        aspectCreated: stamp,
        aspectModified: stamp,
      }),
      previous: stored({ lastObserved: 1_000, version: '1', aspectCreated: stamp, aspectModified: stamp }),
      created: { time: 2_000, actor: ACTOR },
    });
    expect(mcl.systemMetadata).not.toHaveProperty('runId');
    const decoded = decodeMcl(encodeMcl(mcl));
    expect(decoded.systemMetadata).toEqual({
      lastObserved: 2_000,
      runId: 'no-run-id-provided',
      lastRunId: 'no-run-id-provided',
      version: '2',
      schemaVersion: 2,
      aspectCreated: { time: 2_000, actor: ACTOR },
      aspectModified: { time: 2_000, actor: ACTOR },
    });
    expect(decoded.previousSystemMetadata).toMatchObject({ runId: 'no-run-id-provided', version: '1' });
  });

  it('encode a sent runId and lastRunId as they are', () => {
    const mcl = changeLogForStored({
      entityType: 'dataset',
      changeType: 'UPSERT',
      current: stored({ lastObserved: 1, runId: 'run-2', lastRunId: 'run-1' }),
      created: { time: 2_000, actor: ACTOR },
    });
    expect(decodeMcl(encodeMcl(mcl)).systemMetadata).toEqual({
      lastObserved: 1,
      runId: 'run-2',
      lastRunId: 'run-1',
    });
  });

  it('leave out a stored stamp that is not an audit stamp rather than fail to encode', () => {
    const mcl = changeLogForStored({
      entityType: 'dataset',
      changeType: 'UPSERT',
      // Stored by an older or foreign writer: not the shape the type promises.
      current: stored({
        lastObserved: 1,
        aspectCreated: 'yesterday',
        aspectModified: { actor: ACTOR },
      } as never),
      created: { time: 2_000, actor: ACTOR },
    } as unknown as Parameters<typeof changeLogForStored>[0]);
    expect(mcl.systemMetadata).toEqual({ lastObserved: 1 });
    expect(() => encodeMcl(mcl)).not.toThrow();
  });

  it('give a time-series change log without a run id the default on the wire', () => {
    const proposal = checked(undefined, 'datasetProfile');
    const mcl = changeLogForTimeseries(proposal, systemMetadataFor(proposal, 5), { time: 5, actor: ACTOR });
    expect(decodeMcl(encodeMcl(mcl)).systemMetadata).toEqual({
      lastObserved: 5,
      runId: 'no-run-id-provided',
      lastRunId: 'no-run-id-provided',
    });
  });
});
