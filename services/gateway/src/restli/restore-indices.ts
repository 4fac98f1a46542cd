import type { Request, Response } from 'express';
import { parseUrn, ValidationError } from '@catalog/model';
import { MAX_RESTORE_BATCH, type IndexRestore } from '../application/index-restore.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';

/** POST /gms/operations?action=restoreIndices {urn?, aspect?, urnLike?, start=0, batchSize=10} (spec 4.10). */
export async function restoreIndices(req: Request, res: Response, restore: IndexRestore): Promise<void> {
  const body = ActionBody.of(req);
  const urn = body.optionalString('urn');
  if (urn !== undefined) parseUrn(urn);
  const aspect = body.optionalString('aspect');
  const urnLike = body.optionalString('urnLike');
  if (urn !== undefined && urnLike !== undefined) throw new ValidationError('Give urn or urnLike, not both');
  const start = body.int('start', 0, { min: 0 });
  const batchSize = body.int('batchSize', 10, { min: 1, max: MAX_RESTORE_BATCH });
  const done = await restore.restore(requestContextOf(res), {
    ...(urn === undefined ? {} : { urn }),
    ...(aspect === undefined ? {} : { aspect }),
    ...(urnLike === undefined ? {} : { urnLike }),
    start,
    batchSize,
  });
  res.json({
    value:
      `Restored ${done.aspects} aspects of ${done.entities} entities from row ${start}` +
      ` (batchSize ${batchSize}; scan ${done.scannedMs} ms, total ${done.totalMs} ms)` +
      (done.more ? `; more rows follow from row ${start + done.aspects}` : '; no more rows'),
  });
}
