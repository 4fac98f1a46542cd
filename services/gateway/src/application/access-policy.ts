import {
  ANALYTICS_READ_PRIVILEGES,
  COUNTS_READ_PRIVILEGES,
  entityOperationPrivileges,
  RESTORE_INDICES_PRIVILEGES,
  SEARCH_PRIVILEGES,
  SYSTEM_OPERATIONS_PRIVILEGES,
  TIMESERIES_READ_PRIVILEGES,
  timeseriesViewPrivilege,
  type RequestContext,
} from '@catalog/auth';
import { entityRegistry, ForbiddenError, parseUrn } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { unlessUnavailable } from '../auth/auth-unavailable.js';

/** One privilege question: every group must hold (any one privilege of each). */
export interface Requirement {
  /** Any-of groups that must all be satisfied (MANAGE = update set AND delete set). */
  readonly privileges: readonly (readonly string[])[];
  readonly resourceUrn?: string;
  readonly resourceType?: string;
  /** The 403 message, in the ecosystem's words for the operation. */
  readonly message: string;
}

/**
 * Entity types whose reads are decided whatever REST_API_AUTHORIZATION_ENABLED says: what they hold
 * (secrets, invites, access tokens, connections) must not become readable by every authenticated caller
 * because an operator turned the ecosystem's REST toggle off.
 */
const ALWAYS_GUARDED_TYPES: ReadonlySet<string> = new Set([
  'dataHubSecret',
  'inviteToken',
  'dataHubAccessToken',
  'dataHubConnection',
  'webhook',
]);

/** The platform privilege that lets one manage anyone's group memberships, one's own included. */
const MANAGE_USERS_AND_GROUPS = ['MANAGE_USERS_AND_GROUPS'];
/** Editing a dataset's queries: with it, the dataset's queries are readable too. */
const EDIT_QUERIES_PRIVILEGES = ['EDIT_ENTITY_QUERIES', 'EDIT_ENTITY'];

/**
 * The datasets a query is about (its querySubjects: datasets, and the datasets of schema fields), whose
 * privileges decide whether it may be read.
 */
function subjectDatasetsOf(value: Readonly<Record<string, unknown>> | undefined): string[] {
  const subjects = Array.isArray(value?.['subjects']) ? (value['subjects'] as unknown[]) : [];
  const datasets = new Set<string>();
  for (const subject of subjects) {
    const urn = (subject as { entity?: unknown } | null)?.entity;
    if (typeof urn !== 'string') continue;
    try {
      const parsed = parseUrn(urn);
      if (parsed.entityType === 'dataset') datasets.add(urn);
      else if (parsed.entityType === 'schemaField') {
        const parent = entityRegistry.keyAspectFromUrn(parsed).value['parent'];
        if (typeof parent === 'string' && parent.startsWith('urn:li:dataset:')) datasets.add(parent);
      }
    } catch {
      // A subject that is not a urn names no dataset.
    }
  }
  return [...datasets];
}

/** What adding someone else to a group takes, on that group. */
const GROUP_GRANT_PRIVILEGES = ['EDIT_GROUP_MEMBERS', 'MANAGE_USERS_AND_GROUPS'];

/** The entity type named by a urn (`urn:li:<type>:…`), or '' when it names none. */
export function entityTypeOfUrn(urn: string): string {
  return /^urn:li:([A-Za-z][\w]*):/.exec(urn)?.[1] ?? '';
}

/** The acting user's urn. */
export function actorOf(ctx: RequestContext): string {
  return ctx.authentication.actorUrn;
}

/**
 * The one place the catalog asks whether the acting identity may do what it asked. Every application
 * operation calls it; no interface does. The system actor always may. GraphQL decides always; the
 * Rest.li and OpenAPI routes decide only with REST_API_AUTHORIZATION_ENABLED (the ecosystem's toggle),
 * except for platform operations and the always-guarded entity types. A refusal is a ForbiddenError with
 * the ecosystem's text; an authorizer that cannot read its facts is a 503.
 */
export class AccessPolicy {
  /** `store` reads what some decisions depend on: a query's subjects (see mayRead). */
  constructor(
    private readonly auth: GatewayAuth,
    private readonly store?: Pick<AspectStore, 'get'>,
  ) {}

  /** Whether the interface the request came through enforces entity privileges. */
  enforcesEntityPrivileges(ctx: RequestContext, entityType?: string): boolean {
    if (ctx.origin.eventSource === 'GRAPHQL') return true;
    if (entityType !== undefined && ALWAYS_GUARDED_TYPES.has(entityType)) return true;
    return this.auth.settings.restApiAuthorization;
  }

  /** Whether the actor holds any of `privileges` (on the resource, when one is named). */
  async holds(
    ctx: RequestContext,
    privileges: readonly string[],
    resource: {
      readonly resourceUrn?: string;
      readonly resourceType?: string;
      /** The domains a write gives the resource: domain-scoped policies match these (see Proposals). */
      readonly proposedDomains?: readonly string[];
    } = {},
  ): Promise<boolean> {
    const { authentication } = ctx;
    if (authentication.isSystem) return true;
    return unlessUnavailable('Authorization could not be decided', () =>
      this.auth.authorizer.isAllowed({
        actorUrn: authentication.actorUrn,
        privileges,
        ...(resource.resourceUrn === undefined ? {} : { resourceUrn: resource.resourceUrn }),
        ...(resource.resourceType === undefined ? {} : { resourceType: resource.resourceType }),
        ...(resource.proposedDomains === undefined ? {} : { proposedDomains: resource.proposedDomains }),
      }),
    );
  }

  /** Throws a 403 unless every group of the requirement holds; asked whatever the REST toggle says. */
  async require(ctx: RequestContext, requirement: Requirement): Promise<void> {
    if (ctx.authentication.isSystem) return;
    for (const anyOf of requirement.privileges) {
      const resource = {
        ...(requirement.resourceUrn === undefined ? {} : { resourceUrn: requirement.resourceUrn }),
        ...(requirement.resourceType === undefined ? {} : { resourceType: requirement.resourceType }),
      };
      if (!(await this.holds(ctx, anyOf, resource))) throw new ForbiddenError(requirement.message);
    }
  }

  /** As require, but only where the interface enforces entity privileges (see enforcesEntityPrivileges). */
  async requireForEntity(ctx: RequestContext, requirement: Requirement): Promise<void> {
    const type =
      requirement.resourceType ??
      (requirement.resourceUrn === undefined ? undefined : entityTypeOfUrn(requirement.resourceUrn));
    if (!this.enforcesEntityPrivileges(ctx, type)) return;
    await this.require(ctx, requirement);
  }

  /**
   * Adding `member` to `groups` (the ecosystem's privilege-grant rule for group membership), whatever
   * route writes it and whatever the REST toggle says: EDIT_GROUP_MEMBERS or MANAGE_USERS_AND_GROUPS on
   * every group added. Actors adding themselves need MANAGE_USERS_AND_GROUPS: owning a group gives its
   * owners EDIT_GROUP_MEMBERS (the default asset-owners policy), and that must not let them join it and
   * take the roles and policies it carries. A membership write whose groups cannot be known (a patch
   * that does not apply) is decided with that strictest floor.
   */
  async requireGroupGrant(
    ctx: RequestContext,
    member: string,
    groups: readonly string[] | 'unresolved',
  ): Promise<void> {
    if (ctx.authentication.isSystem) return;
    if (groups === 'unresolved') {
      await this.require(ctx, {
        privileges: [MANAGE_USERS_AND_GROUPS],
        message: `Unauthorized to modify groups on ${member} (proposed value could not be resolved, so MANAGE_USERS_AND_GROUPS is required)`,
      });
      return;
    }
    if (groups.length === 0) return;
    const listed = `[${groups.join(', ')}]`;
    if (member === actorOf(ctx)) {
      await this.require(ctx, {
        privileges: [MANAGE_USERS_AND_GROUPS],
        message: `Unauthorized to grant groups ${listed} to self on ${member} (self grants require MANAGE_USERS_AND_GROUPS)`,
      });
      return;
    }
    const refused: string[] = [];
    for (const group of groups)
      if (!(await this.holds(ctx, GROUP_GRANT_PRIVILEGES, { resourceUrn: group }))) refused.push(group);
    if (refused.length > 0)
      throw new ForbiddenError(
        `Unauthorized to grant groups ${listed} (requires EDIT_GROUP_MEMBERS on [${refused.join(', ')}])`,
      );
  }

  /**
   * Whether the actor may read the entity (its aspects, versions, relationships). A query is also
   * readable through the datasets it is about, as the ecosystem's view authorization decides it: when
   * the actor may read every one of them, or edit their queries (a query with no subject has none).
   */
  async mayRead(ctx: RequestContext, urn: string): Promise<boolean> {
    const type = entityTypeOfUrn(urn);
    if (!this.enforcesEntityPrivileges(ctx, type)) return true;
    if (await this.holds(ctx, entityOperationPrivileges('READ', type), { resourceUrn: urn })) return true;
    return type === 'query' && this.mayReadThroughSubjects(ctx, urn);
  }

  private async mayReadThroughSubjects(ctx: RequestContext, queryUrn: string): Promise<boolean> {
    const store = this.store;
    if (store === undefined) return false;
    const subjects = await unlessUnavailable('Authorization could not be decided', () =>
      store.get(queryUrn, 'querySubjects'),
    );
    const datasets = subjectDatasetsOf(subjects?.value);
    if (datasets.length === 0) return false;
    for (const dataset of datasets) {
      const resource = { resourceUrn: dataset };
      const allowed =
        (await this.holds(ctx, entityOperationPrivileges('READ', 'dataset'), resource)) ||
        (await this.holds(ctx, EDIT_QUERIES_PRIVILEGES, resource));
      if (!allowed) return false;
    }
    return true;
  }

  /**
   * Those of `urns` the actor may read, in their order: what a list, a scroll, a search page or a
   * relationship answer keeps. Each urn is decided as a single read of it would be.
   */
  async readable(ctx: RequestContext, urns: readonly string[]): Promise<string[]> {
    if (ctx.authentication.isSystem || urns.length === 0) return [...urns];
    const allowed = await Promise.all(urns.map((urn) => this.mayRead(ctx, urn)));
    return urns.filter((_, i) => allowed[i]);
  }

  /**
   * The platform privileges the actor holds without naming a resource (`all` for the system actor, which
   * holds every one): what GraphQL `me` shows as its platformPrivileges.
   */
  async platformPrivileges(ctx: RequestContext): Promise<ReadonlySet<string> | 'all'> {
    if (ctx.authentication.isSystem) return 'all';
    return unlessUnavailable('Authorization could not be decided', () =>
      this.auth.authorizer.platformPrivileges(actorOf(ctx)),
    );
  }

  /** Reading an entity; refused with the ecosystem's text. */
  async readEntity(ctx: RequestContext, urn: string | undefined): Promise<void> {
    // The system actor reads everything: decided before a requirement and its message are built.
    if (ctx.authentication.isSystem) return;
    const type = urn === undefined ? '' : entityTypeOfUrn(urn);
    await this.requireForEntity(ctx, {
      privileges: [entityOperationPrivileges('READ', type)],
      ...(urn === undefined ? {} : { resourceUrn: urn }),
      message:
        urn === undefined
          ? 'User is unauthorized to get entities'
          : `User is unauthorized to get entity ${urn}`,
    });
  }

  /**
   * Reading an entity's timeline (its change history, or `what` is read from it: a schema's blame or
   * versions): viewing the entity, always decided on GraphQL with the ecosystem's text; on the REST routes, with REST_API_AUTHORIZATION_ENABLED, the Get
   * Timeline API privilege as well.
   */
  async readTimeline(ctx: RequestContext, urn: string, what = 'change history'): Promise<void> {
    const type = entityTypeOfUrn(urn);
    if (ctx.origin.eventSource !== 'GRAPHQL')
      await this.requireForEntity(ctx, {
        privileges: [['GET_TIMELINE_PRIVILEGE']],
        resourceUrn: urn,
        message: `${actorOf(ctx)} is unauthorized to get the timeline for entity ${urn}`,
      });
    await this.requireForEntity(ctx, {
      privileges: [entityOperationPrivileges('READ', type)],
      resourceUrn: urn,
      message:
        ctx.origin.eventSource === 'GRAPHQL'
          ? `Unauthorized to view ${what} for entity: ${urn}`
          : `${actorOf(ctx)} is unauthorized to view entity ${urn}`,
    });
  }

  /** Whether an entity exists (HEAD). */
  async entityExists(ctx: RequestContext, urn: string): Promise<void> {
    await this.requireForEntity(ctx, {
      privileges: [entityOperationPrivileges('EXISTS', entityTypeOfUrn(urn))],
      resourceUrn: urn,
      message: `User is unauthorized to check existence of entity ${urn}`,
    });
  }

  /** Deleting an entity or aspects of it. */
  async deleteEntity(ctx: RequestContext, urn: string): Promise<void> {
    await this.requireForEntity(ctx, {
      privileges: [entityOperationPrivileges('DELETE', entityTypeOfUrn(urn))],
      resourceUrn: urn,
      message: `User is unauthorized to delete entity: ${urn}`,
    });
  }

  /** Searching, browsing, listing or scrolling entities of a type (all types when absent). */
  async search(ctx: RequestContext, entityType?: string): Promise<void> {
    await this.requireForEntity(ctx, {
      privileges: [SEARCH_PRIVILEGES],
      ...(entityType === undefined || entityType === '' ? {} : { resourceType: entityType }),
      message: 'User is unauthorized to search.',
    });
  }

  /**
   * Reading time-series values (spec 5.3): viewing the entity, the matching View Dataset Profile /
   * Usage / Operations privilege for those aspects, and with REST API authorization the Get Timeseries
   * Aspect API privilege.
   */
  async readTimeseries(ctx: RequestContext, urn: string, aspectName: string): Promise<void> {
    const type = entityTypeOfUrn(urn);
    const message = `User ${actorOf(ctx)} is unauthorized to get timeseries aspect ${aspectName} of ${urn}`;
    const view = timeseriesViewPrivilege(type, aspectName);
    await this.require(ctx, {
      privileges: [entityOperationPrivileges('READ', type), ...(view ? [[view]] : [])],
      resourceUrn: urn,
      message,
    });
    await this.requireForEntity(ctx, { privileges: [TIMESERIES_READ_PRIVILEGES], resourceUrn: urn, message });
  }

  /** Scrolling one time-series aspect across the entities of a type. */
  async scrollTimeseries(ctx: RequestContext, entityType: string, aspectName: string): Promise<void> {
    const message = `User ${actorOf(ctx)} is unauthorized to get timeseries aspect ${aspectName}`;
    const view = timeseriesViewPrivilege(entityType, aspectName);
    await this.require(ctx, {
      privileges: [entityOperationPrivileges('READ', entityType), ...(view ? [[view]] : [])],
      resourceType: entityType,
      message,
    });
    await this.requireForEntity(ctx, {
      privileges: [TIMESERIES_READ_PRIVILEGES],
      resourceType: entityType,
      message,
    });
  }

  /** Restoring indices from the store. */
  async restoreIndices(ctx: RequestContext): Promise<void> {
    await this.requireForEntity(ctx, {
      privileges: [RESTORE_INDICES_PRIVILEGES],
      message: `User ${actorOf(ctx)} is unauthorized to restore indices.`,
    });
  }

  /** Reading analytics: the audit event search (ANALYTICS READ; there is no analytics write). */
  async readAnalytics(ctx: RequestContext): Promise<void> {
    await this.requireForEntity(ctx, {
      privileges: [ANALYTICS_READ_PRIVILEGES],
      message: `${actorOf(ctx)} is unauthorized to READ ANALYTICS.`,
    });
  }

  /**
   * Reading the system information (components and configuration): MANAGE_SYSTEM_OPERATIONS, decided
   * whatever the REST toggle says, as it shows how the service is configured.
   */
  async readSystemInfo(ctx: RequestContext): Promise<void> {
    await this.require(ctx, {
      privileges: [SYSTEM_OPERATIONS_PRIVILEGES],
      message: `${actorOf(ctx)} is not authorized for system operations.`,
    });
  }

  /**
   * Reading the entity registry's models (`/openapi/v1/registry/models`): MANAGE_SYSTEM_OPERATIONS,
   * decided whatever the REST toggle says, as the ecosystem asks it.
   */
  async readEntityRegistry(ctx: RequestContext): Promise<void> {
    await this.require(ctx, {
      privileges: [SYSTEM_OPERATIONS_PRIVILEGES],
      message: `${actorOf(ctx)} is not authorized to get the entity registry.`,
    });
  }

  /**
   * Polling a topic's events: `privilege` is the topic's (GET_PLATFORM_EVENTS for the platform events,
   * GET_METADATA_CHANGE_LOG_EVENTS for the change logs), asked whatever the REST toggle says, as the
   * ecosystem's events API does.
   */
  async pollEvents(ctx: RequestContext, privilege: string, topic: string): Promise<void> {
    await this.require(ctx, {
      privileges: [[privilege]],
      message: `${actorOf(ctx)} is unauthorized to poll the events of ${topic}.`,
    });
  }

  /** Counting stored aspects (the ecosystem's COUNTS READ). */
  async readCounts(ctx: RequestContext): Promise<void> {
    await this.requireForEntity(ctx, {
      privileges: [COUNTS_READ_PRIVILEGES],
      message: `${actorOf(ctx)} is unauthorized to READ COUNTS.`,
    });
  }

  /** The operations endpoints (consumer lag, transport, clean-up progress). */
  async systemOperation(ctx: RequestContext, what: string): Promise<void> {
    await this.requireForEntity(ctx, {
      privileges: [SYSTEM_OPERATIONS_PRIVILEGES],
      message: `${actorOf(ctx)} is unauthorized to ${what}.`,
    });
  }
}
