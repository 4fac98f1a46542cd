import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { EventLog, TopicNames } from '@catalog/events';

export interface ConsumerGroups {
  readonly persistence: string;
  readonly indexer: string;
}

/** Which consumer group reads which topic, by the ecosystem's endpoint names. */
function watched(
  kind: string,
  topics: TopicNames,
  groups: ConsumerGroups,
): { group: string; topic: string } | undefined {
  switch (kind) {
    case 'mcp':
      return { group: groups.persistence, topic: topics.metadataChangeProposal };
    case 'mcl':
      return { group: groups.indexer, topic: topics.metadataChangeLogVersioned };
    case 'mcl-timeseries':
      return { group: groups.indexer, topic: topics.metadataChangeLogTimeseries };
    default:
      return undefined;
  }
}

/**
 * GET /openapi/operations/messaging/{mcp|mcl|mcl-timeseries}/consumer/lag[?detailed=true]: the shape the
 * ecosystem's clients poll to wait for the pipeline: consumerGroups → topic → metrics.totalLag, and with
 * `detailed` the committed offset and lag per partition.
 */
export async function consumerLag(
  req: Request,
  res: Response,
  deps: { log: EventLog; topics: TopicNames; groups: ConsumerGroups },
): Promise<void> {
  const raw = req.params['kind'];
  const kind = typeof raw === 'string' ? raw : '';
  if (kind === 'usage-events') {
    res.json({ consumerGroups: {} });
    return;
  }
  const target = watched(kind, deps.topics, deps.groups);
  if (!target)
    throw new ValidationError(
      `Unknown consumer kind ${kind}; expected mcp, mcl, mcl-timeseries or usage-events`,
    );
  const detailed = req.query['detailed'] === 'true';
  const lag = await deps.log.lag(target.group, target.topic);
  const totalLag = lag.reduce((sum, p) => sum + p.lag, 0);
  const maxLag = lag.reduce((max, p) => Math.max(max, p.lag), 0);
  res.json({
    consumerGroups: {
      [target.group]: {
        [target.topic]: {
          metrics: { totalLag, maxLag },
          ...(detailed
            ? {
                partitions: Object.fromEntries(
                  lag.map((p) => [String(p.partition), { offset: Number(p.offset), lag: p.lag }]),
                ),
              }
            : {}),
        },
      },
    },
  });
}
