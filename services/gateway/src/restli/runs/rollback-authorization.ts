import type { Response } from 'express';
import { entityOperationPrivileges, manageRequires } from '@catalog/auth';
import type { GatewayAuth } from '../../auth/gateway-auth.js';
import { requireRest } from '../../auth/rest-authorization.js';
import { entityTypeOfUrn } from '../../auth/route-guards.js';

/**
 * The ecosystem's rollback gate: MANAGE on ingestion sources (their UPDATE and DELETE privileges),
 * then DELETE on every entity the run's rows name. Off with REST API authorization, as its other
 * Rest.li checks.
 */
export async function authorizeRollback(
  auth: GatewayAuth,
  res: Response,
  urns: readonly string[],
): Promise<void> {
  await requireRest(auth, res, {
    privileges: manageRequires('dataHubIngestionSource'),
    resourceType: 'dataHubIngestionSource',
    message: 'User is unauthorized to update entity',
  });
  for (const urn of urns) {
    await requireRest(auth, res, {
      privileges: [entityOperationPrivileges('DELETE', entityTypeOfUrn(urn))],
      resourceUrn: urn,
      message: `User is unauthorized to delete entity: ${urn}`,
    });
  }
}
