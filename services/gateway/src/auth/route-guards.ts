import type { Request, Response } from 'express';
import {
  ANALYTICS_READ_PRIVILEGES,
  entityOperationPrivileges,
  RESTORE_INDICES_PRIVILEGES,
  SEARCH_PRIVILEGES,
  SYSTEM_OPERATIONS_PRIVILEGES,
  TIMESERIES_READ_PRIVILEGES,
  timeseriesViewPrivilege,
} from '@catalog/auth';
import type { GatewayAuth } from './gateway-auth.js';
import { actorOf, requireAlways, requireRest } from './rest-authorization.js';

/** The entity type named by a urn (`urn:li:<type>:…`), or '' when it names none. */
export function entityTypeOfUrn(urn: string): string {
  return /^urn:li:([A-Za-z][\w]*):/.exec(urn)?.[1] ?? '';
}

/**
 * The privilege checks of the Rest.li, OpenAPI and operations routes, named by what the route does;
 * each refusal is a 403 with the ecosystem's text for it.
 */
export class RouteGuards {
  constructor(private readonly auth: GatewayAuth) {}

  /** Reading an entity (its aspects, versions, relationships). */
  readEntity(res: Response, urn: string | undefined): Promise<void> {
    const type = urn === undefined ? '' : entityTypeOfUrn(urn);
    return requireRest(this.auth, res, {
      privileges: [entityOperationPrivileges('READ', type)],
      ...(urn === undefined ? {} : { resourceUrn: urn }),
      message:
        urn === undefined
          ? 'User is unauthorized to get entities'
          : `User is unauthorized to get entity ${urn}`,
    });
  }

  /** Whether an entity exists (HEAD). */
  entityExists(res: Response, urn: string): Promise<void> {
    return requireRest(this.auth, res, {
      privileges: [entityOperationPrivileges('EXISTS', entityTypeOfUrn(urn))],
      resourceUrn: urn,
      message: `User is unauthorized to check existence of entity ${urn}`,
    });
  }

  /** Deleting an entity or aspects of it. */
  deleteEntity(res: Response, urn: string): Promise<void> {
    return requireRest(this.auth, res, {
      privileges: [entityOperationPrivileges('DELETE', entityTypeOfUrn(urn))],
      resourceUrn: urn,
      message: `User is unauthorized to delete entity: ${urn}`,
    });
  }

  /** Searching, browsing, listing or scrolling entities of a type (all types when absent). */
  search(res: Response, entityType?: string): Promise<void> {
    return requireRest(this.auth, res, {
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
  async readTimeseries(res: Response, urn: string, aspectName: string): Promise<void> {
    const type = entityTypeOfUrn(urn);
    const message = `User ${actorOf(res)} is unauthorized to get timeseries aspect ${aspectName} of ${urn}`;
    const view = timeseriesViewPrivilege(type, aspectName);
    await requireAlways(this.auth, res, {
      privileges: [entityOperationPrivileges('READ', type), ...(view ? [[view]] : [])],
      resourceUrn: urn,
      message,
    });
    await requireRest(this.auth, res, {
      privileges: [TIMESERIES_READ_PRIVILEGES],
      resourceUrn: urn,
      message,
    });
  }

  /** Scrolling one time-series aspect across the entities of a type. */
  async scrollTimeseries(res: Response, entityType: string, aspectName: string): Promise<void> {
    const message = `User ${actorOf(res)} is unauthorized to get timeseries aspect ${aspectName}`;
    const view = timeseriesViewPrivilege(entityType, aspectName);
    await requireAlways(this.auth, res, {
      privileges: [entityOperationPrivileges('READ', entityType), ...(view ? [[view]] : [])],
      resourceType: entityType,
      message,
    });
    await requireRest(this.auth, res, {
      privileges: [TIMESERIES_READ_PRIVILEGES],
      resourceType: entityType,
      message,
    });
  }

  /** Restoring indices from the store. */
  restoreIndices(res: Response): Promise<void> {
    return requireRest(this.auth, res, {
      privileges: [RESTORE_INDICES_PRIVILEGES],
      message: `User ${actorOf(res)} is unauthorized to restore indices.`,
    });
  }

  /** Reading analytics: the audit event search (ANALYTICS READ; there is no analytics write). */
  readAnalytics(res: Response): Promise<void> {
    return requireRest(this.auth, res, {
      privileges: [ANALYTICS_READ_PRIVILEGES],
      message: `${actorOf(res)} is unauthorized to READ ANALYTICS.`,
    });
  }

  /** The operations endpoints (consumer lag, transport, clean-up progress). */
  systemOperation(res: Response, what: string): Promise<void> {
    return requireRest(this.auth, res, {
      privileges: [SYSTEM_OPERATIONS_PRIVILEGES],
      message: `${actorOf(res)} is unauthorized to ${what}.`,
    });
  }
}

/** A urn from a request's query string, when it has one. */
export function queryUrn(req: Request, name = 'urn'): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' ? value : undefined;
}
