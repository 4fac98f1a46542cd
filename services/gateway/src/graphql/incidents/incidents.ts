import {
  INCIDENT_PRIORITIES,
  type IncidentFilters,
  type IncidentInfo,
  type RaiseIncidentInput,
  type StatusInput,
  type StoredIncident,
} from '../../application/incidents.js';
import type { GraphQLContext } from '../context.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';

/**
 * The ecosystem's incidents (incident.graphql) and asset health (entity.graphql's Health);
 * application/incidents.ts decides and answers. Assertion.info is the stored info (fields: assertions slice).
 */
export const incidentSchema = `
enum IncidentState { ACTIVE RESOLVED }
enum IncidentStage { TRIAGE INVESTIGATION WORK_IN_PROGRESS FIXED NO_ACTION_REQUIRED }
enum IncidentPriority { LOW MEDIUM HIGH CRITICAL }
enum IncidentType { FRESHNESS VOLUME FIELD SQL DATA_SCHEMA OPERATIONAL CUSTOM }
enum IncidentSourceType { MANUAL ASSERTION_FAILURE }
enum AssertionType { DATASET FRESHNESS VOLUME SQL FIELD DATA_SCHEMA CUSTOM }
enum HealthStatus { PASS WARN FAIL }
enum HealthStatusType { ASSERTIONS INCIDENTS TESTS }

type IncidentStatus { state: IncidentState! stage: IncidentStage message: String lastUpdated: AuditStamp! }
type IncidentSource { type: IncidentSourceType! source: Entity }
type EntityIncidentsResult { start: Int! count: Int! total: Int! incidents: [Incident!]! }
type AssertionInfo { type: AssertionType! }
extend type Assertion { info: AssertionInfo }
extend type Incident {
  incidentType: IncidentType!
  customType: String
  title: String
  description: String
  incidentStatus: IncidentStatus!
  priority: IncidentPriority
  assignees: [OwnerType!]
  entity: Entity!
  source: IncidentSource
  startedAt: Long
  created: AuditStamp!
}
type ActiveIncidentHealthDetails {
  latestIncidentUrn: String
  latestIncidentTitle: String
  lastActivityAt: Long
  count: Int!
}
type Health {
  type: HealthStatusType!
  reportedAt: Long
  status: HealthStatus!
  message: String
  activeIncidentHealthDetails: ActiveIncidentHealthDetails
  causes: [String!]
}
extend type Dataset {
  incidents(
    state: IncidentState
    stage: IncidentStage
    priority: IncidentPriority
    assigneeUrns: [String!]
    start: Int
    count: Int
  ): EntityIncidentsResult
  health: [Health!]
}
extend type Chart { health: [Health!] }
extend type Dashboard { health: [Health!] }
extend type DataFlow { health: [Health!] }
extend type DataJob { health: [Health!] }

input IncidentSourceInput { type: IncidentSourceType! }
input IncidentStatusInput { state: IncidentState! stage: IncidentStage message: String }
input RaiseIncidentInput {
  id: String
  type: IncidentType!
  customType: String
  title: String
  description: String
  resourceUrn: String
  resourceUrns: [String!]
  startedAt: Long
  source: IncidentSourceInput
  status: IncidentStatusInput
  priority: IncidentPriority
  assigneeUrns: [String!]
}

extend type Mutation {
  raiseIncident(input: RaiseIncidentInput!): String
  updateIncidentStatus(urn: String!, input: IncidentStatusInput!): Boolean
}
`;

const PRIORITY_NAMES = new Map<number, string>(
  Object.entries(INCIDENT_PRIORITIES).map(([name, n]) => [n, name]),
);

function incidentRef(incident: StoredIncident): EntityRef {
  return { urn: incident.urn, entity: 'incident', known: { info: incident.info } };
}

async function infoOf(ctx: GraphQLContext, ref: EntityRef): Promise<IncidentInfo | undefined> {
  return (
    (ref.known?.['info'] as IncidentInfo | undefined) ??
    (await ctx.entities.aspect<IncidentInfo>(ref.urn, 'incidentInfo'))
  );
}

type Field = (ref: EntityRef, args: unknown, ctx: GraphQLContext) => Promise<unknown>;
const field =
  (read: (info: IncidentInfo) => unknown): Field =>
  async (ref, _a, ctx) => {
    const info = await infoOf(ctx, ref);
    return info === undefined ? null : read(info);
  };

const statusView = (info: IncidentInfo) => ({
  state: info.status.state,
  stage: info.status.stage ?? null,
  message: info.status.message ?? null,
  lastUpdated: info.status.lastUpdated,
});

interface IncidentsArgs extends IncidentFilters {
  readonly start?: number | null;
  readonly count?: number | null;
}

/** An asset's health as the ecosystem reports it: its incidents (assertions are not counted here). */
const health = async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
  const { active, latest } = await ctx.services.app.incidents.health(ctx.auth, ref.urn);
  if (active === 0)
    return [
      {
        type: 'INCIDENTS',
        reportedAt: null,
        status: 'PASS',
        message: null,
        activeIncidentHealthDetails: null,
        causes: null,
      },
    ];
  const lastActivityAt = latest?.info.status.lastUpdated.time ?? null;
  return [
    {
      type: 'INCIDENTS',
      reportedAt: lastActivityAt ?? 0,
      status: 'FAIL',
      message: `${active} active incident${active > 1 ? 's' : ''}`,
      activeIncidentHealthDetails: {
        latestIncidentUrn: latest?.urn ?? null,
        latestIncidentTitle: latest?.info.title ?? null,
        lastActivityAt,
        count: active,
      },
      causes: ['ACTIVE_INCIDENTS'],
    },
  ];
};

export function incidentResolvers() {
  const incidents = (ctx: GraphQLContext) => ctx.services.app.incidents;
  return {
    Incident: {
      incidentType: field((i) => i.type),
      customType: field((i) => i.customType ?? null),
      title: field((i) => i.title ?? null),
      description: field((i) => i.description ?? null),
      incidentStatus: field(statusView),
      status: field(statusView),
      priority: field((i) => (i.priority === undefined ? null : (PRIORITY_NAMES.get(i.priority) ?? null))),
      assignees: field((i) => (i.assignees ?? []).flatMap((a) => refOf(a.actor) ?? [])),
      entity: field((i) => refOf(i.entities[0]) ?? null),
      source: field((i) =>
        i.source === undefined
          ? null
          : { type: i.source.type, source: i.source.sourceUrn ? (refOf(i.source.sourceUrn) ?? null) : null },
      ),
      startedAt: field((i) => i.startedAt ?? null),
      created: field((i) => i.created),
    },
    Assertion: {
      info: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        // The stored info: its other fields resolve in the assertions slice.
        const info = await ctx.entities.aspect<{ type?: string }>(ref.urn, 'assertionInfo');
        return info?.type === undefined ? null : info;
      },
    },
    Dataset: {
      incidents: async (ref: EntityRef, args: IncidentsArgs, ctx: GraphQLContext) => {
        const start = Math.max(0, args.start ?? 0);
        const count = Math.max(0, args.count ?? 20);
        const page = await incidents(ctx).forEntity(ctx.auth, ref.urn, args, start, count);
        return { start, count, total: page.total, incidents: page.incidents.map(incidentRef) };
      },
      health,
    },
    Chart: { health },
    Dashboard: { health },
    DataFlow: { health },
    DataJob: { health },
    Mutation: {
      raiseIncident: (_r: unknown, args: { input: RaiseIncidentInput }, ctx: GraphQLContext) =>
        incidents(ctx).raise(ctx.auth, args.input),
      updateIncidentStatus: async (
        _r: unknown,
        args: { urn: string; input: StatusInput },
        ctx: GraphQLContext,
      ) => {
        await incidents(ctx).updateStatus(ctx.auth, args.urn, args.input);
        return true;
      },
    },
  };
}
