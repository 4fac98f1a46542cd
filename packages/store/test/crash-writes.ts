import type { AspectWrite } from '../src/index.js';

/**
 * The writes of the crash test, derived from a sequence number alone, so the test can rebuild any
 * write the killed child printed and redeliver it.
 */
export const CRASH_URN_COUNT = 5;
export const CRASH_ASPECTS = ['datasetProperties', 'status'] as const;

export function crashWrite(seq: number): AspectWrite {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,crash.t${seq % CRASH_URN_COUNT},PROD)`;
  return {
    requestId: `crash-${seq}`,
    mode: 'UPSERT',
    urn,
    aspect: CRASH_ASPECTS[Math.floor(seq / CRASH_URN_COUNT) % CRASH_ASPECTS.length] ?? 'status',
    value: { seq, payload: 'x'.repeat(seq % 200) },
    created: { time: 1_700_000_000_000 + seq, actor: 'urn:li:corpuser:crash' },
    keyAspect: {
      name: 'datasetKey',
      value: { platform: 'urn:li:dataPlatform:hive', name: `crash.t${seq % CRASH_URN_COUNT}` },
    },
  };
}

export function seqOfRequestId(requestId: string): number {
  return Number(requestId.slice('crash-'.length));
}
