import type { Request, Response } from 'express';
import { ActionBody } from './action-body.js';
import type { IngestContext } from './ingest-proposal.js';
import { proposalsOfEntity } from './snapshot-codec.js';
import { submitSnapshotProposals } from './snapshot-ingest.js';

/**
 * POST /entities?action=ingest `{entity: {value: {"<snapshot>": {urn, aspects}}}, systemMetadata?}`
 * (legacy, deprecated): every aspect becomes an UPSERT; 200 with an empty body.
 */
export async function ingestEntityAction(req: Request, res: Response, ctx: IngestContext): Promise<void> {
  const body = ActionBody.of(req);
  const proposals = proposalsOfEntity(body.raw('entity'), body.raw('systemMetadata'));
  await submitSnapshotProposals(req, res, ctx, proposals);
}
