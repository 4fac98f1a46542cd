import type { AspectWrite } from '../port.js';

type RoundedWrite = Pick<
  AspectWrite,
  'requestId' | 'mode' | 'urn' | 'aspect' | 'keyAspect' | 'entityDefaults'
>;

/**
 * Splits a batch into rounds of independent writes, so a round runs as a few bulk commands and the
 * results still equal applying the batch one write at a time, in order. Each write goes in the round
 * after the last earlier write it depends on:
 * - a write to (urn, aspect) depends on earlier writes to that aspect, and on one whose key-aspect
 *   store touches it (the write's own aspect being the key aspect);
 * - storing the entity's key aspect (or an entity default) if absent depends on earlier writes to that
 *   aspect itself, but not on other writes that store it if absent (the round gives it to the first);
 * - DELETE_ENTITY depends on every earlier write to the entity, and every later one on it;
 * - a repeated request id depends on its first occurrence (which it must replay).
 */
export function planRounds(writes: readonly RoundedWrite[]): number[][] {
  const rounds: number[][] = [];
  const lastWrite = new Map<string, number>();
  const lastKeyStore = new Map<string, number>();
  const lastOnEntity = new Map<string, number>();
  const lastEntityDelete = new Map<string, number>();
  const lastRequest = new Map<string, number>();
  const at = (map: Map<string, number>, key: string) => map.get(key) ?? -1;
  writes.forEach((write, index) => {
    const { urn, requestId } = write;
    let round: number;
    if (write.mode === 'DELETE_ENTITY') {
      round = Math.max(at(lastOnEntity, urn), at(lastRequest, requestId)) + 1;
      lastEntityDelete.set(urn, round);
    } else {
      const target = `${write.aspect}|${urn}`;
      const stored =
        write.mode === 'DELETE' || write.keyAspect === undefined
          ? []
          : [write.keyAspect.name, ...(write.entityDefaults ?? []).map((d) => d.name)];
      const ifAbsent = stored.filter((name) => name !== write.aspect).map((name) => `${name}|${urn}`);
      round =
        Math.max(
          at(lastWrite, target),
          at(lastKeyStore, target),
          at(lastEntityDelete, urn),
          at(lastRequest, requestId),
          ...ifAbsent.map((t) => at(lastWrite, t)),
        ) + 1;
      lastWrite.set(target, round);
      for (const t of ifAbsent) lastKeyStore.set(t, Math.max(round, at(lastKeyStore, t)));
    }
    lastOnEntity.set(urn, Math.max(round, at(lastOnEntity, urn)));
    lastRequest.set(requestId, round);
    (rounds[round] ??= []).push(index);
  });
  return rounds;
}
