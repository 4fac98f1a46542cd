import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { writeDecided, type AspectChange } from './aspect-changes.js';
import { requireEdit } from './edit-privileges.js';
import { requireEntityUrn } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

type Json = Record<string, unknown>;

/** One lineage edge a user adds or removes: the downstream entity is DownstreamOf the upstream one. */
export interface LineageEdgeEdit {
  readonly downstreamUrn: string;
  readonly upstreamUrn: string;
}

/** What editing lineage asks on both ends of every edge, as the ecosystem asks it. */
const EDIT_LINEAGE = { privileges: ['EDIT_LINEAGE', 'EDIT_ENTITY'] } as const;
/** The marker the ecosystem puts on edges a user drew. */
const UI_PROPERTIES = { source: 'UI' } as const;

/** A list of an aspect that holds edges: the older urn list and the Edge list beside it. */
interface EdgeList {
  readonly urns: string;
  readonly edges: string;
  /** The entity types this list holds. */
  readonly types: readonly string[];
}

/** Where an entity type keeps the edges to what is upstream of it (datasets are upstreamLineage). */
const UPSTREAM_EDGES: Readonly<
  Record<string, { aspect: string; lists: readonly EdgeList[]; required?: true; initial?: Json }>
> = {
  chart: {
    aspect: 'chartInfo',
    required: true,
    lists: [{ urns: 'inputs', edges: 'inputEdges', types: ['dataset', 'chart'] }],
  },
  dashboard: {
    aspect: 'dashboardInfo',
    required: true,
    lists: [
      { urns: 'charts', edges: 'chartEdges', types: ['chart'] },
      { urns: 'datasets', edges: 'datasetEdges', types: ['dataset'] },
    ],
  },
  dataJob: {
    aspect: 'dataJobInputOutput',
    initial: { inputDatasets: [], outputDatasets: [] },
    lists: [
      { urns: 'inputDatasets', edges: 'inputDatasetEdges', types: ['dataset'] },
      { urns: 'inputDatajobs', edges: 'inputDatajobEdges', types: ['dataJob'] },
    ],
  },
};
/** A job's outputs: the downstream datasets of an edge whose upstream is the job. */
const JOB_OUTPUTS: EdgeList = { urns: 'outputDatasets', edges: 'outputDatasetEdges', types: ['dataset'] };

const isJob = (urn: string) => urn.startsWith('urn:li:dataJob:');
/** A urn list entry: a urn, or a single-member union of one (`{"string": urn}`). */
const entryUrn = (entry: unknown): unknown =>
  typeof entry === 'object' && entry !== null ? Object.values(entry)[0] : entry;

function grouped(
  edges: readonly LineageEdgeEdit[],
  by: 'downstreamUrn' | 'upstreamUrn',
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const edge of edges) {
    const other = by === 'downstreamUrn' ? edge.upstreamUrn : edge.downstreamUrn;
    out.set(edge[by], [...(out.get(edge[by]) ?? []), other]);
  }
  return out;
}

/**
 * Lineage a user draws (the ecosystem's updateLineage): each edge goes to the aspect of its downstream
 * entity that holds its upstreams (a dataset's upstreamLineage, a chart's or dashboard's info, a job's
 * inputs), or, when its upstream is a job, to the job's outputs. Added edges carry the actor, the time
 * and `source: UI`; removed ones leave both the urn list and the Edge list. Every entity named must
 * exist, and the actor needs EDIT_LINEAGE (or EDIT_ENTITY) on both ends of every edge, asked first.
 */
export class LineageEdits {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async update(
    ctx: RequestContext,
    edgesToAdd: readonly LineageEdgeEdit[],
    edgesToRemove: readonly LineageEdgeEdit[],
  ): Promise<void> {
    const all = [...edgesToAdd, ...edgesToRemove];
    for (const edge of all) {
      requireEntityUrn(edge.downstreamUrn);
      requireEntityUrn(edge.upstreamUrn);
    }
    const urns = [...new Set(all.flatMap((e) => [e.downstreamUrn, e.upstreamUrn]))];
    await requireEdit(
      this.policy,
      ctx,
      EDIT_LINEAGE,
      urns.map((urn) => ({ urn, column: false })),
    );
    const [missing] = await this.stored.missing(urns);
    if (missing !== undefined) throw new ValidationError(`Cannot update lineage: ${missing} does not exist`);

    const stamp = { time: Date.now(), actor: ctx.authentication.actorUrn };
    const edge = (destination: string, source: string) => ({
      destinationUrn: destination,
      sourceUrn: source,
      created: stamp,
      lastModified: stamp,
      properties: UI_PROPERTIES,
    });
    const changes: AspectChange[] = [];
    const addByDown = grouped(edgesToAdd, 'downstreamUrn');
    const removeByDown = grouped(edgesToRemove, 'downstreamUrn');
    for (const down of new Set([...addByDown.keys(), ...removeByDown.keys()])) {
      const entity = requireEntityUrn(down).entity;
      const add = addByDown.get(down) ?? [];
      const remove = new Set(removeByDown.get(down) ?? []);
      if (entity === 'dataset') {
        // A job upstream of a dataset is kept in the job's outputs (below).
        const upstreams = add.filter((u) => !isJob(u));
        if (upstreams.length === 0 && ![...remove].some((u) => !isJob(u))) continue;
        const wrong = upstreams.find((u) => requireEntityUrn(u).entity !== 'dataset');
        if (wrong !== undefined)
          throw new ValidationError(
            `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${wrong}`,
          );
        const value = { ...((await this.stored.aspect<Json>(down, 'upstreamLineage')) ?? {}) };
        const list = Array.isArray(value['upstreams']) ? [...(value['upstreams'] as Json[])] : [];
        for (const upstream of upstreams)
          if (!list.some((u) => u['dataset'] === upstream))
            list.push({
              dataset: upstream,
              auditStamp: stamp,
              created: stamp,
              type: 'TRANSFORMED',
              properties: UI_PROPERTIES,
            });
        value['upstreams'] = list.filter((u) => !remove.has(String(u['dataset'])));
        changes.push({ urn: down, entityType: entity, aspect: 'upstreamLineage', value });
        continue;
      }
      const spec = UPSTREAM_EDGES[entity];
      if (spec === undefined) continue;
      const accepted = [...new Set(spec.lists.flatMap((l) => l.types))];
      const wrong = add.find((u) => !accepted.includes(requireEntityUrn(u).entity));
      if (wrong !== undefined)
        throw new ValidationError(
          `Tried to add an upstream to a ${entity} that isn't a ${accepted.join(' or ')}. Upstream urn: ${wrong}`,
        );
      const current = await this.stored.aspect<Json>(down, spec.aspect);
      if (current === undefined && spec.required === true)
        throw new ValidationError(`Cannot update the lineage of ${down}: it has no ${spec.aspect}`);
      changes.push({
        urn: down,
        entityType: entity,
        aspect: spec.aspect,
        value: edited(current ?? spec.initial ?? {}, spec.lists, add, remove, (u) => edge(u, down)),
      });
    }
    // Edges whose upstream is a job: the job's outputs.
    const addByUp = grouped(edgesToAdd, 'upstreamUrn');
    const removeByUp = grouped(edgesToRemove, 'upstreamUrn');
    for (const job of new Set([...addByUp.keys(), ...removeByUp.keys()].filter(isJob))) {
      const add = (addByUp.get(job) ?? []).filter((d) => !isJob(d));
      const wrong = add.find((d) => requireEntityUrn(d).entity !== 'dataset');
      if (wrong !== undefined)
        throw new ValidationError(
          `Tried to add lineage edge with non-dataset node when we expect a dataset. Downstream urn: ${wrong}`,
        );
      const remove = new Set((removeByUp.get(job) ?? []).filter((d) => !isJob(d)));
      // A job downstream of this one changed its own inputs above: its aspect is edited on top of that.
      const earlier = changes.find((c) => c.urn === job && c.aspect === 'dataJobInputOutput');
      const current =
        (earlier?.value as Json | undefined) ??
        (await this.stored.aspect<Json>(job, 'dataJobInputOutput')) ??
        UPSTREAM_EDGES['dataJob']?.initial ??
        {};
      const value = edited(current, [JOB_OUTPUTS], add, remove, (d) => edge(d, job));
      if (earlier !== undefined) changes.splice(changes.indexOf(earlier), 1);
      changes.push({ urn: job, entityType: 'dataJob', aspect: 'dataJobInputOutput', value });
    }
    if (changes.length > 0) await writeDecided(this.proposals, ctx, changes);
  }
}

/** The aspect value with `add` put in the Edge list of their type (unless listed already) and `remove` left out of both lists. */
function edited(
  value: Json,
  lists: readonly EdgeList[],
  add: readonly string[],
  remove: ReadonlySet<string>,
  edgeTo: (urn: string) => Json,
): Json {
  const out: Json = { ...value };
  for (const list of lists) {
    const urns = Array.isArray(out[list.urns]) ? [...(out[list.urns] as unknown[])] : [];
    const edges = Array.isArray(out[list.edges]) ? [...(out[list.edges] as Json[])] : [];
    for (const urn of add) {
      if (!list.types.includes(urn.split(':')[2] ?? '')) continue;
      if (edges.some((e) => e['destinationUrn'] === urn) || urns.some((u) => entryUrn(u) === urn)) continue;
      edges.push(edgeTo(urn));
    }
    out[list.urns] = urns.filter((u) => !remove.has(String(entryUrn(u))));
    out[list.edges] = edges.filter((e) => !remove.has(String(e['destinationUrn'])));
  }
  return out;
}
