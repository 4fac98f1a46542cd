import {
  EnvReader,
  readAdapterSettings,
  readConsumerSettings,
  readHealthPort,
  readLogLevel,
  readProcessNice,
  type ConsumerConfig,
  type ConsumerSettings,
} from '@catalog/runtime';
import type { TopicNames } from '@catalog/events';
import { AUDIT_EVENT_TYPES, isAuditEventType } from './audit-event-types.js';

/** What the audit consumer reads beyond the adapters: its consumer settings, retention and filters. */
export interface AuditSettings extends ConsumerSettings {
  /** AUDIT_RETENTION_DAYS (default 90): days an event is kept; whole days are dropped; 0 keeps them forever. */
  readonly retentionDays: number;
  /** AUDIT_EVENT_TYPES (comma list of known types; default every type): the types recorded, the rest dropped. */
  readonly recordedEventTypes: ReadonlySet<string>;
  /** ANALYTICS_USER_FILTERS (comma list of actor urns; default none): actors whose events are dropped. */
  readonly actorFilters: ReadonlySet<string>;
}

export type AuditConfig = ConsumerConfig & AuditSettings;

const DEFAULTS = {
  /** Audit events are small: a batch is one write of its events. */
  maxBatchSize: 1_000,
  /** As the indexer's (INDEXER_BATCH_WAIT_MS): one bulk request per batch, and the trail is read later. */
  batchWaitMs: 100,
};
const DEFAULT_RETENTION_DAYS = 90;
/** 100 years: long enough for anyone, short enough that the cut-off stays a valid date. */
const MAX_RETENTION_DAYS = 36_500;

/** AUDIT_GROUP_ID, AUDIT_MAX_BATCH, AUDIT_BATCH_WAIT_MS, AUDIT_RETENTION_DAYS, AUDIT_EVENT_TYPES and ANALYTICS_USER_FILTERS. */
export function readAuditSection(env: EnvReader, topics: TopicNames): AuditSettings {
  const types = env.list('AUDIT_EVENT_TYPES');
  const unknown = types.filter((t) => !isAuditEventType(t));
  if (unknown.length > 0)
    env.invalid(
      'AUDIT_EVENT_TYPES',
      `has unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => `"${t}"`).join(', ')} (known: ${AUDIT_EVENT_TYPES.join(', ')})`,
    );
  const actors = env.list('ANALYTICS_USER_FILTERS');
  const notUrns = actors.filter((a) => !a.startsWith('urn:li:'));
  if (notUrns.length > 0)
    env.invalid(
      'ANALYTICS_USER_FILTERS',
      `must list actor urns (urn:li:…), got ${notUrns.map((a) => `"${a}"`).join(', ')}`,
    );
  return {
    ...readConsumerSettings(env, 'audit', topics, DEFAULTS),
    retentionDays: env.int('AUDIT_RETENTION_DAYS', DEFAULT_RETENTION_DAYS, {
      min: 0,
      max: MAX_RETENTION_DAYS,
    }),
    recordedEventTypes: new Set(types.length === 0 ? AUDIT_EVENT_TYPES : types),
    actorFilters: new Set(actors),
  };
}

/** The whole validated configuration of the audit deployable; throws a ConfigError naming every bad variable. */
export function readAuditConfig(source: Readonly<Record<string, string | undefined>>): Readonly<AuditConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: AuditConfig = {
    ...readAuditSection(env, adapters.topics),
    logLevel: readLogLevel(env),
    healthPort: readHealthPort(env),
    nice: readProcessNice(env, 'audit', 10),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
