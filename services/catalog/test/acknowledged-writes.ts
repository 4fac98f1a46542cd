import { expect } from 'vitest';
import { proposalLag } from './audited-writes.js';
import { datasetUrn, ingest, proposal, readAllVersions, waitUntil } from './harness.js';

const PROPS = 'com.linkedin.dataset.DatasetProperties';

export interface Writers {
  /** Per entity URN, the values a 200 acknowledged, in order. */
  readonly acked: Map<string, string[]>;
  /** Non-200 answers seen (status and body). */
  readonly errors: string[];
  total(): number;
  /** Stops the writers and waits for their last request. */
  stop(): Promise<void>;
}

/**
 * Values a writer gives one entity before it moves on to the next: under the history the catalog keeps
 * by default (the ecosystem's retention, 20 versions besides the latest), so every acknowledged value
 * is still there to be counted.
 */
const WRITES_PER_ENTITY = 15;

/**
 * Writers that keep writing distinct values of datasetProperties to their own entities (`count` of
 * them synchronous, `asyncCount` asynchronous; each writer moves to a new entity of its own every
 * WRITES_PER_ENTITY values) and keep every value the catalog acknowledged. A request that fails on the
 * connection (the process died) is not acknowledged and not an error.
 */
export function startWriters(
  base: () => string,
  prefix: string,
  count: number,
  asyncCount: number,
  options: {
    readonly asyncPauseMs?: number;
    /** Values per entity before a writer moves on (WRITES_PER_ENTITY); a test that counts no versions
     * and names its writers' entities up front (a webhook filter by urn) keeps one entity per writer. */
    readonly writesPerEntity?: number;
  } = {},
): Writers {
  const writesPerEntity = options.writesPerEntity ?? WRITES_PER_ENTITY;
  const acked = new Map<string, string[]>();
  const errors: string[] = [];
  let stop = false;
  const writer = async (name: string, async: boolean): Promise<void> => {
    let generation = 0;
    let urn = datasetUrn(name);
    let values: string[] = [];
    acked.set(urn, values);
    for (let n = 0; !stop; n++) {
      if (values.length >= writesPerEntity) {
        urn = datasetUrn(`${name}_${++generation}`);
        values = [];
        acked.set(urn, values);
      }
      const value = `${urn}#${n}`;
      const res = await ingest(
        base(),
        proposal(urn, 'datasetProperties', { description: value }),
        async,
      ).catch(() => undefined);
      if (res?.status === 200) {
        values.push(value);
        // An asynchronous write is answered before it is applied: a pause keeps the writers from
        // running far ahead of persistence.
        if (async && options.asyncPauseMs) await new Promise((r) => setTimeout(r, options.asyncPauseMs));
        continue;
      }
      if (res) errors.push(`${res.status} ${res.text}`);
      // A refused or failed request is retried after a pause, so an outage does not become a busy loop.
      await new Promise((r) => setTimeout(r, res ? 200 : 50));
    }
  };
  const done = Promise.all([
    ...Array.from({ length: count }, (_, i) => writer(`${prefix}.sync_${i}`, false)),
    ...Array.from({ length: asyncCount }, (_, i) => writer(`${prefix}.async_${i}`, true)),
  ]);
  return {
    acked,
    errors,
    total: () => [...acked.values()].reduce((s, v) => s + v.length, 0),
    stop: async () => {
      stop = true;
      await done;
    },
  };
}

/**
 * Every acknowledged value is stored exactly once (async ones possibly later), and no value twice. The
 * versions are read once persistence has applied every logged proposal: a read while versions are
 * still being added could see one value both as the latest and, moved, in the history.
 */
export async function expectExactlyOnce(
  base: string,
  acked: Map<string, string[]>,
  timeoutMs = 60_000,
): Promise<number> {
  await waitUntil(
    () => proposalLag(base),
    (lag) => lag === 0,
    timeoutMs,
  );
  let total = 0;
  for (const [urn, values] of acked) {
    total += values.length;
    const stored = await waitUntil(
      async () =>
        (await readAllVersions(base, urn, 'datasetProperties', PROPS)).map(
          (v) => (v as { description: string }).description,
        ),
      (all) => values.every((v) => all.includes(v)),
      timeoutMs,
    );
    for (const value of values)
      expect(
        stored.filter((s) => s === value),
        `${value} stored once`,
      ).toHaveLength(1);
    expect(new Set(stored).size, `no value of ${urn} stored twice`).toBe(stored.length);
  }
  return total;
}
