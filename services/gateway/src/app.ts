import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import type { Logger } from '@catalog/runtime';
import type { ProposalSubmitter } from './ingest/proposal-submitter.js';
import { ingestProposal, ingestProposalBatch, type IngestSettings } from './restli/ingest-proposal.js';
import {
  batchGetEntitiesV2,
  getEntitySnapshot,
  getEntityV2,
  getVersionedAspect,
} from './restli/entity-reads.js';
import { restliErrorHandler, sendRestliError } from './restli/restli-errors.js';
import { serverConfig } from './server-config.js';

export interface GatewaySettings extends IngestSettings {
  readonly maxBodyBytes: number;
  /** Version reported at /config. */
  readonly serverVersion: string;
  /** The actor of writes while authentication is off. */
  readonly defaultActor: string;
}

export interface GatewayDeps {
  readonly store: AspectStore;
  readonly submitter: ProposalSubmitter;
  readonly logger: Logger;
  readonly settings: GatewaySettings;
}

type Handler = (req: Request, res: Response) => Promise<void> | void;

/** Builds the HTTP interface over the ports it is given; main.ts decides which adapters those are. */
export function createGatewayApp(deps: GatewayDeps): Express {
  const { store, submitter, settings, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Rest.li clients send JSON, whatever Content-Type they set.
  const json = express.json({ limit: settings.maxBodyBytes, type: () => true, strict: false });

  app.use((_req, res, next) => {
    res.setHeader('X-RestLi-Protocol-Version', '2.0.0');
    next();
  });

  app.get('/health', (_req, res) => void res.status(200).end());
  app.get('/health/live', (_req, res) => void res.status(200).end());
  app.get('/config', (_req, res) => void res.json(serverConfig(settings.serverVersion)));

  const actions = (resource: string, table: Record<string, Handler>): Handler => {
    return async (req, res) => {
      const action = req.query['action'];
      const handler = typeof action === 'string' ? table[action] : undefined;
      if (!handler) {
        throw new ValidationError(
          `Unknown action ${JSON.stringify(action ?? null)} on /${resource}; supported: ${Object.keys(table).join(', ')}`,
        );
      }
      await handler(req, res);
    };
  };

  app.post(
    '/aspects',
    json,
    actions('aspects', {
      ingestProposal: (req, res) => ingestProposal(req, res, submitter, settings, settings.defaultActor),
      ingestProposalBatch: (req, res) =>
        ingestProposalBatch(req, res, submitter, settings, settings.defaultActor),
    }),
  );
  app.get('/aspects/:urn', (req, res) => getVersionedAspect(req, res, store));
  app.get('/entitiesV2/:urn', (req, res) => getEntityV2(req, res, store));
  app.get('/entitiesV2', (req, res) => batchGetEntitiesV2(req, res, store));
  app.get('/entities/:urn', (req, res) => getEntitySnapshot(req, res, store));

  app.use((req: Request, res: Response) => {
    sendRestliError(res, 404, `No resource at ${req.method} ${req.path}`);
  });
  app.use(restliErrorHandler(logger));
  return app;
}

export type { NextFunction };
