import jsonPatch, { type Operation } from 'fast-json-patch';
import type { ChangeCategory, ChangeEvent, SemanticChangeType } from './change-event.js';
import { highestSemanticChange, maxSemanticChange } from './change-event.js';
import { aspectChangeEvents, stampedInTimeline } from './aspect-diff.js';
import { compareJava, type Json } from './aspect-values.js';
import { timelineAspects, timelineCategoriesOf } from './timeline-registry.js';

/** One stored version of one aspect, as a timeline reads it. */
export interface AspectVersion {
  readonly aspect: string;
  /** The store's version number: 0 the latest, 1 the first value, then one more per later value. */
  readonly version: number;
  readonly value: Json;
  /** When this version was written (its audit stamp), ms since the epoch. */
  readonly createdOn: number;
  readonly createdBy: string;
}

/** The changes committed together at one time (the ecosystem's ChangeTransaction, as JSON). */
export interface ChangeTransaction {
  readonly timestamp: number;
  readonly actor: string;
  /** The computed semantic version after this transaction, e.g. `1.2.0-computed`. */
  readonly semVer: string;
  readonly semVerChange: SemanticChangeType;
  readonly changeEvents: readonly ChangeEvent[];
  /** `aspect:version;…` over the entity's aspects at that time, by aspect name. */
  readonly versionStamp: string;
  /** The JSON patch from the previous value to this one, when asked for. */
  readonly rawDiff?: readonly Operation[];
}

export interface TimelineRequest {
  readonly entityUrn: string;
  readonly entityType: string;
  readonly categories: ReadonlySet<ChangeCategory>;
  /** Every stored version of the entity's aspects (those the reader may see), in any order. */
  readonly versions: readonly AspectVersion[];
  /** Versions written in [startTime, endTime] make the timeline, each diffed with the one before it. */
  readonly startTime: number;
  readonly endTime: number;
  /** Include each transaction's JSON patch. */
  readonly raw?: boolean;
}

/** A version written before the first one kept: the absent value the first is diffed against. */
const ABSENT = Symbol('absent');
type Row = AspectVersion | typeof ABSENT;

interface Diffed {
  readonly timestamp: number;
  readonly actor: string;
  readonly events: readonly ChangeEvent[];
  readonly rawDiff: readonly Operation[];
}

/**
 * The entity's timeline: per write time, the semantic changes of the aspects the categories cover,
 * oldest first, with the semantic version they lead to. The first write time in the range is version
 * 0.0.0; each later one bumps the part its strongest change names (MAJOR, MINOR, PATCH), as the
 * ecosystem computes it. A pure function of the versions given.
 */
export function computeTimeline(request: TimelineRequest): ChangeTransaction[] {
  const rows = rowsInRange(request);
  const relevant = timelineAspects(request.entityType, request.categories);
  const groups = new Map<number, Diffed[]>();
  for (const aspect of [...relevant].sort(compareJava)) {
    const aspectRows = rows.get(aspect) ?? [];
    const categories = timelineCategoriesOf(request.entityType, aspect, request.categories);
    for (let i = 1; i < aspectRows.length; i++) {
      const previous = aspectRows[i - 1] as Row;
      const current = aspectRows[i] as AspectVersion;
      const before = previous === ABSENT ? undefined : previous.value;
      const events = aspectChangeEvents({
        entityUrn: request.entityUrn,
        aspect,
        previous: before,
        current: current.value,
        categories,
        ...(stampedInTimeline(aspect)
          ? { auditStamp: { time: current.createdOn, actor: current.createdBy } }
          : {}),
      });
      const group = groups.get(current.createdOn) ?? [];
      groups.set(current.createdOn, group);
      if (events.length > 0)
        group.push({
          timestamp: current.createdOn,
          actor: current.createdBy,
          events,
          rawDiff: request.raw === true ? jsonPatch.compare(before ?? {}, current.value) : [],
        });
    }
  }
  const transactions: ChangeTransaction[] = [];
  let version: [number, number, number] | undefined;
  for (const timestamp of [...groups.keys()].sort((a, b) => a - b)) {
    const diffed = groups.get(timestamp) ?? [];
    const events = diffed.flatMap((d) => d.events);
    const change = highestSemanticChange(events);
    version = nextVersion(version, change);
    const first = diffed[0];
    if (first === undefined) continue;
    transactions.push({
      timestamp,
      actor: first.actor,
      semVer: `${version.join('.')}-computed`,
      semVerChange: diffed.reduce<SemanticChangeType>(
        (max, d) => maxSemanticChange(max, highestSemanticChange(d.events)),
        'NONE',
      ),
      changeEvents: events,
      versionStamp: versionStamp(rows, timestamp),
      ...(request.raw === true ? { rawDiff: first.rawDiff } : {}),
    });
  }
  return transactions;
}

/** The semantic version after a group whose strongest change is `change` (the first group is 0.0.0). */
function nextVersion(
  previous: [number, number, number] | undefined,
  change: SemanticChangeType,
): [number, number, number] {
  if (previous === undefined) return [0, 0, 0];
  const [major, minor, patch] = previous;
  if (change === 'MAJOR') return [major + 1, 0, 0];
  if (change === 'MINOR') return [major, minor + 1, 0];
  if (change === 'PATCH') return [major, minor, patch + 1];
  return previous;
}

/**
 * Per aspect, its versions written in the range oldest first, after the version before the range (or
 * ABSENT when the first one in range is the aspect's first value); an aspect with none in range keeps
 * only its latest version, which stamps versions but is diffed with nothing.
 */
function rowsInRange(request: TimelineRequest): Map<string, Row[]> {
  const byAspect = new Map<string, AspectVersion[]>();
  for (const v of request.versions) byAspect.set(v.aspect, [...(byAspect.get(v.aspect) ?? []), v]);
  const rows = new Map<string, Row[]>();
  for (const [aspect, versions] of byAspect) {
    const history = [...versions].sort(
      (a, b) => a.createdOn - b.createdOn || chronologicalRank(a.version) - chronologicalRank(b.version),
    );
    const first = history.findIndex(
      (v) => v.createdOn >= request.startTime && v.createdOn <= request.endTime,
    );
    if (first < 0) {
      const latest = history.find((v) => v.version === 0) ?? history[history.length - 1];
      rows.set(aspect, latest === undefined ? [] : [latest]);
      continue;
    }
    const inRange = history.filter((v) => v.createdOn >= request.startTime && v.createdOn <= request.endTime);
    rows.set(aspect, [first === 0 ? ABSENT : (history[first - 1] as AspectVersion), ...inRange]);
  }
  return rows;
}

/** Version 0 is the newest value; the others were written in their number's order. */
function chronologicalRank(version: number): number {
  return version === 0 ? Number.MAX_SAFE_INTEGER : version;
}

/** Each aspect's version current at `timestamp` (written then, or the last one before), by aspect name. */
function versionStamp(rows: ReadonlyMap<string, readonly Row[]>, timestamp: number): string {
  const stamp: string[] = [];
  for (const aspect of [...rows.keys()].sort(compareJava)) {
    let match: AspectVersion | undefined;
    for (const row of rows.get(aspect) ?? []) {
      if (row === ABSENT) continue;
      if (row.createdOn > timestamp) break;
      match = row;
      if (row.createdOn === timestamp) break;
    }
    if (match !== undefined) stamp.push(`${aspect}:${match.version}`);
  }
  return stamp.join(';');
}
