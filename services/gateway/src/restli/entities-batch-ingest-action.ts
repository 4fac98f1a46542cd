import type { Request, Response } from 'express';
import { PreconditionError, ValidationError } from '@catalog/model';
import { ActionBody } from './action-body.js';
import type { IngestContext } from './ingest-proposal.js';
import { proposalsOfEntity } from './snapshot-codec.js';
import { submitSnapshotProposals } from './snapshot-ingest.js';

/**
 * POST /entities?action=batchIngest `{entities: [Entity], systemMetadata?: [SystemMetadata]}` (legacy):
 * systemMetadata, when given, pairs with entities by position (412 when the lengths differ). Every
 * entity is checked before anything is written; 200 with an empty body.
 */
export async function batchIngestEntitiesAction(
  req: Request,
  res: Response,
  ctx: IngestContext,
): Promise<void> {
  const body = ActionBody.of(req);
  const entities = body.raw('entities');
  if (!Array.isArray(entities)) throw new ValidationError('entities is required (an array)');
  const metadata = body.raw('systemMetadata');
  if (metadata !== undefined && metadata !== null) {
    if (!Array.isArray(metadata)) throw new ValidationError('systemMetadata must be an array');
    if (metadata.length !== entities.length)
      throw new PreconditionError('entities and systemMetadata length must match');
  }
  const list = Array.isArray(metadata) ? metadata : [];
  const proposals = entities.flatMap((entity, i) => proposalsOfEntity(entity, list[i], `entities[${i}]`));
  await submitSnapshotProposals(req, res, ctx, proposals);
}
