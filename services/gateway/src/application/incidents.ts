import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireEntityUrn, requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { Relationships } from './relationships.js';
import type { StoredEntities } from './stored-entities.js';

const EDIT_INCIDENTS = ['EDIT_ENTITY_INCIDENTS', 'EDIT_ENTITY'] as const;
const ENTITY = 'incident';
const INFO = 'incidentInfo';
/** The most incidents of one asset read to answer its listing and health. */
const MAX_INCIDENTS = 1000;

/** Priority names and the integers the aspect stores (lower is more severe). */
export const INCIDENT_PRIORITIES = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3 } as const;
export type IncidentPriorityName = keyof typeof INCIDENT_PRIORITIES;

/** The stored `incidentInfo`. */
export interface IncidentInfo {
  readonly type: string;
  readonly customType?: string;
  readonly title?: string;
  readonly description?: string;
  readonly entities: readonly string[];
  readonly priority?: number;
  readonly assignees?: readonly { readonly actor: string }[];
  readonly status: {
    readonly state: 'ACTIVE' | 'RESOLVED';
    readonly stage?: string;
    readonly message?: string;
    readonly lastUpdated: { readonly time: number; readonly actor: string };
  };
  readonly source?: { readonly type: string; readonly sourceUrn?: string };
  readonly startedAt?: number;
  readonly created: { readonly time: number; readonly actor: string };
}

export interface StoredIncident {
  readonly urn: string;
  readonly info: IncidentInfo;
}

export interface IncidentFilters {
  readonly state?: string | null;
  readonly stage?: string | null;
  readonly priority?: IncidentPriorityName | null;
  readonly assigneeUrns?: readonly string[] | null;
}

export interface StatusInput {
  readonly state: 'ACTIVE' | 'RESOLVED';
  readonly stage?: string | null;
  readonly message?: string | null;
}

export interface RaiseIncidentInput {
  readonly id?: string | null;
  readonly type: string;
  readonly customType?: string | null;
  readonly title?: string | null;
  readonly description?: string | null;
  readonly resourceUrn?: string | null;
  readonly resourceUrns?: readonly string[] | null;
  readonly startedAt?: number | null;
  readonly source?: { readonly type: string } | null;
  readonly status?: StatusInput | null;
  readonly priority?: IncidentPriorityName | null;
  readonly assigneeUrns?: readonly string[] | null;
}

/** The incident health of an asset: its active incidents, the latest first. */
export interface IncidentHealth {
  readonly active: number;
  readonly latest: StoredIncident | undefined;
}

/**
 * Incidents on assets, as the ecosystem's incident mutations and reads keep them: raising one or changing
 * its status takes EDIT_ENTITY_INCIDENTS (or EDIT_ENTITY) on every asset it is on, asked first; an
 * asset's incidents are those whose info names it (the IncidentOn edges), the newest first, each one the
 * actor may read; its incident health counts the active ones.
 */
export class Incidents {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    private readonly relationships: Relationships,
  ) {}

  /** Raises an incident (ACTIVE unless a status is given) and answers its urn. */
  async raise(ctx: RequestContext, input: RaiseIncidentInput): Promise<string> {
    const resources = [...(input.resourceUrns ?? []), ...(input.resourceUrn ? [input.resourceUrn] : [])];
    if (resources.length === 0)
      throw new ValidationError('An incident needs a resourceUrn or a non-empty resourceUrns');
    for (const urn of resources) await this.requireEdit(ctx, urn);
    const missing = await this.stored.missing(resources.map((r) => requireEntityUrn(r).urn));
    if (missing.length > 0)
      throw new ValidationError(`Failed to raise incident: ${missing[0]!} does not exist`);
    if (input.type === 'CUSTOM' && !input.customType)
      throw new ValidationError('A CUSTOM incident needs a customType');
    const urn = requireUrnOf(`urn:li:${ENTITY}:${input.id ?? randomUUID()}`, [ENTITY], 'id').urn;
    if (await this.stored.exists(urn)) throw new ValidationError(`Incident ${urn} already exists`);
    const stamp = { time: Date.now(), actor: ctx.authentication.actorUrn };
    const info: IncidentInfo = {
      type: input.type,
      ...(input.customType ? { customType: input.customType } : {}),
      ...(typeof input.title === 'string' ? { title: input.title } : {}),
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      entities: [...new Set(resources)],
      ...(input.priority ? { priority: INCIDENT_PRIORITIES[input.priority] } : {}),
      ...(input.assigneeUrns ? { assignees: input.assigneeUrns.map((actor) => ({ actor })) } : {}),
      status: statusOf(input.status ?? { state: 'ACTIVE' }, stamp),
      source: { type: input.source?.type ?? 'MANUAL' },
      ...(typeof input.startedAt === 'number' ? { startedAt: input.startedAt } : {}),
      created: stamp,
    };
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
    return urn;
  }

  /** Changes an incident's state, stage and message. */
  async updateStatus(ctx: RequestContext, urn: string, status: StatusInput): Promise<void> {
    requireUrnOf(urn, [ENTITY], 'urn');
    const info = await this.stored.aspect<IncidentInfo>(urn, INFO);
    if (info === undefined) throw new ValidationError(`Failed to update incident ${urn}: it does not exist`);
    for (const entity of info.entities) await this.requireEdit(ctx, entity);
    const stamp = { time: Date.now(), actor: ctx.authentication.actorUrn };
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: ENTITY, aspect: INFO, value: { ...info, status: statusOf(status, stamp) } },
    ]);
  }

  /** A page of the asset's incidents matching the filters, the newest first. */
  async forEntity(
    ctx: RequestContext,
    urn: string,
    filters: IncidentFilters,
    start: number,
    count: number,
  ): Promise<{ total: number; incidents: StoredIncident[] }> {
    const matching = (await this.of(ctx, urn)).filter(({ info }) => matches(info, filters));
    return { total: matching.length, incidents: matching.slice(start, start + count) };
  }

  async health(ctx: RequestContext, urn: string): Promise<IncidentHealth> {
    const active = (await this.of(ctx, urn)).filter(({ info }) => info.status.state === 'ACTIVE');
    return { active: active.length, latest: active[0] };
  }

  /** The incidents on the asset the actor may read, the newest first. */
  private async of(ctx: RequestContext, urn: string): Promise<StoredIncident[]> {
    const related = await this.relationships.related(ctx, {
      urn,
      direction: 'INCOMING',
      types: ['IncidentOn'],
      start: 0,
      count: MAX_INCIDENTS,
    });
    const urns = [...new Set(related.relationships.map((r) => r.entity))];
    const incidents: StoredIncident[] = [];
    for (const incident of urns) {
      const info = await this.stored.aspect<IncidentInfo>(incident, INFO);
      if (info?.entities.includes(urn)) incidents.push({ urn: incident, info });
    }
    return incidents.sort((a, b) => b.info.created.time - a.info.created.time || (a.urn < b.urn ? -1 : 1));
  }

  private requireEdit(ctx: RequestContext, resourceUrn: string): Promise<void> {
    return requireAnyOf(this.policy, ctx, EDIT_INCIDENTS, { resourceUrn });
  }
}

function statusOf(status: StatusInput, stamp: { time: number; actor: string }): IncidentInfo['status'] {
  return {
    state: status.state,
    ...(status.stage ? { stage: status.stage } : {}),
    ...(typeof status.message === 'string' ? { message: status.message } : {}),
    lastUpdated: stamp,
  };
}

function matches(info: IncidentInfo, filters: IncidentFilters): boolean {
  if (filters.state && info.status.state !== filters.state) return false;
  if (filters.stage && info.status.stage !== filters.stage) return false;
  if (filters.priority && info.priority !== INCIDENT_PRIORITIES[filters.priority]) return false;
  const assignees = filters.assigneeUrns ?? [];
  if (assignees.length > 0 && !(info.assignees ?? []).some((a) => assignees.includes(a.actor))) return false;
  return true;
}
