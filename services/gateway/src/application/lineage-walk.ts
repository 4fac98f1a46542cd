import { entityRegistry, parseUrn } from '@catalog/model';
import type { GraphIndex } from '@catalog/search';
import type { AspectStore } from '@catalog/store';

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

/**
 * The relationship names of lineage edges in the registry, split by the way they point: most point
 * upstream (a dataset is DownstreamOf its source; a job Consumes its input), some downstream (a job
 * Produces its output).
 */
export const LINEAGE_RELATIONSHIPS = (() => {
  const upstream = new Set<string>();
  const downstream = new Set<string>();
  for (const entity of entityRegistry.entities())
    for (const spec of entity.aspects.values())
      for (const r of spec.relationships)
        if (r.isLineage === true) (r.isUpstream === false ? downstream : upstream).add(r.name);
  return { upstream: [...upstream].sort(), downstream: [...downstream].sort() } as const;
})();

/**
 * The lineage edges the registry declares, as `source type|relationship|target type` (the target
 * type `*` when the annotation names none): a relationship name is lineage only between these types
 * (a dataset's DownstreamOf to a schema field, from its column lineage, is not an entity lineage edge).
 */
const LINEAGE_TRIPLES = (() => {
  const triples = new Set<string>();
  for (const entity of entityRegistry.entities())
    for (const spec of entity.aspects.values())
      for (const r of spec.relationships)
        if (r.isLineage === true)
          for (const target of r.entityTypes.length === 0 ? ['*'] : r.entityTypes)
            triples.add(`${entity.name}|${r.name}|${target}`);
  return triples;
})();

function isLineageEdge(source: string, relationship: string, target: string): boolean {
  const type = (urn: string): string => urn.split(':')[2] ?? '';
  return (
    LINEAGE_TRIPLES.has(`${type(source)}|${relationship}|${type(target)}`) ||
    LINEAGE_TRIPLES.has(`${type(source)}|${relationship}|*`)
  );
}

/** One lineage step from an entity: the entity reached and what the edge went through (a query, a job). */
export interface LineageStep {
  readonly entity: string;
  /** The relationship of the edge (DownstreamOf, Consumes, Produces, ...). */
  readonly type: string;
  readonly via?: string;
  /** When the edge was made and by whom, when the graph knows it. */
  readonly createdAt?: number;
  readonly createdActor?: string;
}

/** Entity types (and optionally their platforms) walked through without counting a hop. */
export interface IgnoredHop {
  /** Registry entity type, e.g. `dataset`. */
  readonly entityType: string;
  /** Platform urns; empty or absent: every platform. */
  readonly platforms?: readonly string[];
}

export interface LineageWalkOptions {
  /** Hops followed at most. */
  readonly maxHops: number;
  readonly ignoreAsHops?: readonly IgnoredHop[];
  /** Edges whose known creation time is outside the window are not followed. */
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  /** Entities explored further per hop at most (all edges of each are still read). */
  readonly entitiesExploredPerHopLimit?: number;
}

/** An entity lineage reaches: its hop count and every shortest path to it (source first, via entities in). */
export interface ReachedEntity {
  readonly urn: string;
  readonly degree: number;
  readonly paths: readonly (readonly string[])[];
  /** Reached as the job or query an edge went through, not as an end of an edge. */
  readonly viaOnly: boolean;
  /** Walked through without counting a hop (ignoreAsHops). */
  readonly ignoredAsHop: boolean;
  /** Its own lineage was read (it was not at the last hop, nor cut by a limit). */
  readonly explored: boolean;
  /** A limit, not the hop count, kept its lineage from being read. */
  readonly truncatedChildren: boolean;
}

/** What a walk reached; partial when it stopped at its bound on entities. */
export interface LineageReach {
  readonly entities: ReadonlyMap<string, ReachedEntity>;
  readonly partial: boolean;
}

/** The ecosystem's hop limit of a lineage search (`lineageMaxHops`). */
export const LINEAGE_MAX_HOPS = 20;
/** Entities reached at most, so one hub dataset cannot make a request unbounded. */
const MAX_REACHED = 5_000;
/** Edges of one entity read per hop. */
const MAX_EDGES = 10_000;
/** Paths kept per entity (all shortest paths, up to this). */
const MAX_PATHS = 100;

type Json = Readonly<Record<string, unknown>>;

interface FineGrained {
  readonly upstreams: readonly string[];
  readonly downstreams: readonly string[];
  readonly query?: string;
}

/**
 * `urn:li:schemaField:(<parent>,<fieldPath>)`: the parent urn, or undefined for another urn. The parent
 * nests in the field's urn, so a field's platform and parent are known without reading anything.
 */
export function schemaFieldParent(urn: string): string | undefined {
  if (!urn.startsWith('urn:li:schemaField:(')) return undefined;
  try {
    return parseUrn(urn).parts[0];
  } catch {
    return undefined;
  }
}

/** The platform urn an entity's urn names (a schema field takes its parent's); undefined when none. */
export function platformOfUrn(urn: string): string | undefined {
  const parent = schemaFieldParent(urn);
  if (parent !== undefined) return platformOfUrn(parent);
  let parsed;
  try {
    parsed = parseUrn(urn);
  } catch {
    return undefined;
  }
  const first = parsed.parts[0];
  switch (parsed.entityType) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
    case 'mlFeatureTable':
      return first?.startsWith('urn:li:dataPlatform:') ? first : first && `urn:li:dataPlatform:${first}`;
    case 'chart':
    case 'dashboard':
    case 'dataFlow':
      return first && `urn:li:dataPlatform:${first}`;
    case 'dataJob':
      return first === undefined ? undefined : platformOfUrn(first);
    default:
      return undefined;
  }
}

function fineGrainedOf(value: Json | undefined): FineGrained[] {
  const list = value?.['fineGrainedLineages'];
  if (!Array.isArray(list)) return [];
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return list.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const f = item as Json;
    const query = typeof f['query'] === 'string' ? f['query'] : undefined;
    return [
      {
        upstreams: strings(f['upstreams']),
        downstreams: strings(f['downstreams']),
        ...(query === undefined ? {} : { query }),
      },
    ];
  });
}

/** The query each upstream dataset of an `upstreamLineage` value went through (`upstreams/*\/query`). */
function upstreamQueries(value: Json | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const list = value?.['upstreams'];
  if (!Array.isArray(list)) return out;
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { dataset, query } = item as Json;
    if (typeof dataset === 'string' && typeof query === 'string') out.set(dataset, query);
  }
  return out;
}

/**
 * Walks lineage as the ecosystem's graph holds it: entity edges from the graph index, the query an
 * upstream edge went through (`upstreams/*\/query`, its `via`), and column lineage between schema fields
 * from the fine-grained lineage of the datasets and jobs that declare it (a dataset's column edges go
 * through their query, a job's through the job). Nothing is decided for an actor here: the walk goes
 * through every entity, the use case decides what it shows.
 */
export class LineageWalk {
  constructor(
    private readonly graph: GraphIndex,
    private readonly store: AspectStore,
  ) {}

  /** The steps one hop from each of `urns` in a direction. */
  async steps(urns: readonly string[], direction: LineageDirection): Promise<Map<string, LineageStep[]>> {
    const up = direction === 'UPSTREAM';
    const out = new Map<string, LineageStep[]>(urns.map((u) => [u, []]));
    const edges = async (urn: string, edgeDirection: 'INCOMING' | 'OUTGOING', types: readonly string[]) =>
      types.length === 0
        ? []
        : (await this.graph.related({ urn, direction: edgeDirection, types, start: 0, count: MAX_EDGES }))
            .relationships;
    // Entity edges, and which datasets' upstreamLineage names the query each dataset edge went through.
    const lineageOf = new Set<string>();
    const datasetEdges: [from: string, step: LineageStep, downstream: string, upstream: string][] = [];
    for (const urn of urns) {
      if (schemaFieldParent(urn) !== undefined) continue;
      const found = [
        ...(await edges(urn, up ? 'OUTGOING' : 'INCOMING', LINEAGE_RELATIONSHIPS.upstream)).map((r) => ({
          r,
          pointsUp: true,
          fromUrn: up,
        })),
        ...(await edges(urn, up ? 'INCOMING' : 'OUTGOING', LINEAGE_RELATIONSHIPS.downstream)).map((r) => ({
          r,
          pointsUp: false,
          fromUrn: !up,
        })),
      ];
      const seen = new Set<string>();
      for (const { r, pointsUp, fromUrn } of found) {
        if (seen.has(r.entity)) continue;
        if (!(fromUrn ? isLineageEdge(urn, r.type, r.entity) : isLineageEdge(r.entity, r.type, urn)))
          continue;
        seen.add(r.entity);
        const step: LineageStep = {
          entity: r.entity,
          type: r.type,
          ...(r.created === undefined ? {} : { createdAt: r.created.time, createdActor: r.created.actor }),
        };
        out.get(urn)?.push(step);
        if (pointsUp && r.type === 'DownstreamOf') {
          const [downstream, upstream] = up ? [urn, r.entity] : [r.entity, urn];
          lineageOf.add(downstream);
          datasetEdges.push([urn, step, downstream, upstream]);
        }
      }
    }
    // Column lineage: the fields' parents' upstreamLineage (upstream) or the datasets whose lineage
    // names the field (downstream), and the jobs that produce or consume the parent.
    const fields = urns.filter((u) => schemaFieldParent(u) !== undefined);
    const jobsOf = new Map<string, string[]>();
    const declarersOf = new Map<string, string[]>();
    for (const field of fields) {
      const parent = schemaFieldParent(field) as string;
      if (up) declarersOf.set(field, [parent]);
      else
        declarersOf.set(
          field,
          (await edges(field, 'INCOMING', ['DownstreamOf'])).map((r) => r.entity),
        );
      const jobs = up
        ? (await edges(parent, 'INCOMING', ['Produces'])).map((r) => r.entity)
        : (await edges(parent, 'INCOMING', ['Consumes'])).map((r) => r.entity);
      jobsOf.set(
        field,
        jobs.filter((j) => j.startsWith('urn:li:dataJob:')),
      );
      for (const d of declarersOf.get(field) ?? []) lineageOf.add(d);
    }
    const jobUrns = [...new Set([...jobsOf.values()].flat())];
    const values = await this.aspects([...lineageOf], 'upstreamLineage');
    const jobValues = await this.aspects(jobUrns, 'dataJobInputOutput');

    // The query each dataset edge went through.
    for (const [from, step, downstream, upstream] of datasetEdges) {
      const query = upstreamQueries(values.get(downstream)).get(upstream);
      if (query === undefined) continue;
      const list = out.get(from) ?? [];
      const at = list.indexOf(step);
      if (at >= 0) list[at] = { ...step, via: query };
    }
    for (const field of fields) {
      const list = out.get(field) ?? [];
      const seen = new Set<string>();
      const add = (entity: string, via: string | undefined): void => {
        const key = `${entity}\u0000${via ?? ''}`;
        if (entity === field || seen.has(key)) return;
        seen.add(key);
        list.push({ entity, type: 'DownstreamOf', ...(via === undefined ? {} : { via }) });
      };
      const follow = (fine: readonly FineGrained[], via: (f: FineGrained) => string | undefined): void => {
        for (const f of fine) {
          const [from, to] = up ? [f.downstreams, f.upstreams] : [f.upstreams, f.downstreams];
          if (from.includes(field)) for (const entity of to) add(entity, via(f));
        }
      };
      for (const declarer of declarersOf.get(field) ?? [])
        follow(fineGrainedOf(values.get(declarer)), (f) => f.query);
      for (const job of jobsOf.get(field) ?? []) follow(fineGrainedOf(jobValues.get(job)), () => job);
    }
    return out;
  }

  /**
   * The entities reached from `urn` in a direction, each at the hop it is first reached, with every
   * shortest path to it. A job an edge went through is reached at that edge's hop; a query is not
   * (it is a transient node, only on paths). Entities of `ignoreAsHops` are walked through at the hop
   * they are reached, so what is behind them counts one hop less.
   */
  async walk(urn: string, direction: LineageDirection, options: LineageWalkOptions): Promise<LineageReach> {
    const reached = new Map<
      string,
      { degree: number; paths: string[][]; viaOnly: boolean; ignored: boolean }
    >();
    const pathsOf = (u: string): string[][] => (u === urn ? [[urn]] : (reached.get(u)?.paths ?? []));
    const ignored = (u: string): boolean => ignoredAsHop(u, options.ignoreAsHops ?? []);
    const inWindow = (step: LineageStep): boolean =>
      step.createdAt === undefined ||
      ((options.startTimeMillis === undefined || step.createdAt >= options.startTimeMillis) &&
        (options.endTimeMillis === undefined || step.createdAt <= options.endTimeMillis));
    const addPaths = (entry: { paths: string[][] }, paths: readonly string[][]): void => {
      const keys = new Set(entry.paths.map((p) => p.join('\u0000')));
      for (const p of paths) {
        if (entry.paths.length >= MAX_PATHS) return;
        const key = p.join('\u0000');
        if (keys.has(key)) continue;
        keys.add(key);
        entry.paths.push(p);
      }
    };
    let frontier = [urn];
    const expanded = new Set<string>([urn]);
    const explored = new Set<string>();
    const limit = options.entitiesExploredPerHopLimit;
    let partial = false;
    for (let hop = 1; hop <= options.maxHops && frontier.length > 0 && reached.size < MAX_REACHED; hop++) {
      const next: string[] = [];
      let level = frontier;
      while (level.length > 0) {
        const steps = await this.steps(level, direction);
        for (const u of level) explored.add(u);
        const again: string[] = [];
        for (const from of level) {
          for (const step of steps.get(from) ?? []) {
            if (!inWindow(step)) continue;
            const prefixes = pathsOf(from).map((p) => (step.via === undefined ? p : [...p, step.via]));
            if (step.via !== undefined && !step.via.startsWith('urn:li:query:') && step.via !== urn) {
              const via = reached.get(step.via);
              if (via === undefined)
                reached.set(step.via, {
                  degree: hop,
                  paths: prefixes.slice(0, MAX_PATHS),
                  viaOnly: true,
                  ignored: false,
                });
              else if (via.degree === hop) addPaths(via, prefixes);
            }
            if (step.entity === urn) continue;
            const paths = prefixes.map((p) => [...p, step.entity]);
            const known = reached.get(step.entity);
            if (known === undefined || (known.viaOnly && known.degree === hop)) {
              const ignore = ignored(step.entity);
              const entry = { degree: hop, paths: known?.paths ?? [], viaOnly: false, ignored: ignore };
              addPaths(entry, paths);
              reached.set(step.entity, entry);
              if (expanded.has(step.entity)) continue;
              if (!ignore && limit !== undefined && limit > 0 && next.length >= limit) continue;
              expanded.add(step.entity);
              (ignore ? again : next).push(step.entity);
            } else if (known.degree === hop) addPaths(known, paths);
          }
        }
        level = again;
      }
      frontier = next;
      if (reached.size >= MAX_REACHED && next.length > 0) partial = true;
    }
    const entities = new Map<string, ReachedEntity>();
    for (const [u, r] of reached) {
      const wasExplored = explored.has(u);
      entities.set(u, {
        urn: u,
        degree: r.degree,
        paths: r.paths,
        viaOnly: r.viaOnly,
        ignoredAsHop: r.ignored,
        explored: wasExplored,
        truncatedChildren: !wasExplored && !r.viaOnly && (r.degree < options.maxHops || r.ignored),
      });
    }
    return { entities, partial };
  }

  private async aspects(urns: readonly string[], aspect: string): Promise<Map<string, Json>> {
    const out = new Map<string, Json>();
    if (urns.length === 0) return out;
    for (const [u, stored] of await this.store.getLatestMany(urns, [aspect])) {
      const value = stored.find((s) => s.aspect === aspect)?.value;
      if (value !== undefined) out.set(u, value);
    }
    return out;
  }
}

function ignoredAsHop(urn: string, ignore: readonly IgnoredHop[]): boolean {
  if (ignore.length === 0) return false;
  const type = urn.split(':')[2] ?? '';
  return ignore.some(
    (i) =>
      i.entityType === type &&
      (i.platforms === undefined ||
        i.platforms.length === 0 ||
        i.platforms.includes(platformOfUrn(urn) ?? '')),
  );
}
