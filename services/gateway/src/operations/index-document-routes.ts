import type { Express, RequestHandler } from 'express';
import { ValidationError } from '@catalog/model';
import type { IndexDocuments } from '../application/index-documents.js';
import { requestContextOf } from '../auth/request-context.js';

/** `POST /openapi/operations/elasticSearch/entity/raw`: a JSON array of urns → their search documents by urn. */
export function mountIndexDocumentRoutes(
  app: Express,
  documents: IndexDocuments,
  json: RequestHandler,
): void {
  app.post('/openapi/operations/elasticSearch/entity/raw', json, async (req, res) => {
    const body: unknown = req.body;
    if (!Array.isArray(body) || !body.every((u): u is string => typeof u === 'string'))
      throw new ValidationError('The body must be a JSON array of urn strings');
    res.json(await documents.raw(requestContextOf(res), body));
  });
}
