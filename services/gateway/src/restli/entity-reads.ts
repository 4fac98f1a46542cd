import type { Request, Response } from 'express';
import {
  entityRegistry,
  parseUrn,
  ValidationError,
  type EntitySpec,
  type Urn,
  withDoubles,
} from '@catalog/model';
import type { StoredAspect } from '@catalog/store';
import type { EntityReads } from '../application/entity-reads.js';
import { requestContextOf } from '../auth/request-context.js';
import { readListParam } from './list-param.js';
import { sendJson } from './send-json.js';
import { sendRestliError } from './restli-errors.js';
import { snapshotOf } from './snapshot-codec.js';

/** The enveloped aspect of the v2 entity read. */
export function envelope(stored: StoredAspect): Record<string, unknown> {
  return {
    name: stored.aspect,
    type: 'VERSIONED',
    version: stored.version,
    value: withDoubles(stored.aspect, stored.value),
    created: stored.created,
    ...(stored.systemMetadata ? { systemMetadata: stored.systemMetadata } : {}),
  };
}

export function entityResponse(urn: Urn, aspects: readonly StoredAspect[]): Record<string, unknown> {
  return {
    urn: urn.raw,
    entityName: urn.entityType,
    aspects: Object.fromEntries(aspects.map((a) => [a.aspect, envelope(a)])),
  };
}

export function parseEntityUrn(raw: unknown, what = 'urn'): { urn: Urn; entity: EntitySpec } {
  if (typeof raw !== 'string' || raw === '') throw new ValidationError(`${what} is required`);
  const urn = parseUrn(raw);
  return { urn, entity: entityRegistry.requireEntity(urn.entityType) };
}

/** Aspect names asked for, checked against the entity; time-series ones are dropped (they have their own query). */
function versionedAspectNames(
  entity: EntitySpec,
  names: readonly string[] | undefined,
): string[] | undefined {
  if (names === undefined) return undefined;
  const out: string[] = [];
  for (const name of names) {
    const spec = entity.aspects.get(name);
    if (!spec) throw new ValidationError(`Unknown aspect ${name} for entity type ${entity.name}`);
    if (spec.kind === 'versioned') out.push(name);
  }
  return out;
}

/** GET /entitiesV2/{urn}?aspects=List(...): a missing entity is a 200 with no aspects, as in the ecosystem. */
export async function getEntityV2(req: Request, res: Response, reads: EntityReads): Promise<void> {
  const { urn, entity } = parseEntityUrn(pathKey(req));
  const names = versionedAspectNames(entity, readListParam(req.query['aspects'], 'aspects'));
  sendJson(res, entityResponse(urn, await reads.latest(requestContextOf(res), urn.raw, names)));
}

/** GET /entitiesV2?ids=List(...): the Rest.li batch-get shape, keyed by URN. */
export async function batchGetEntitiesV2(req: Request, res: Response, reads: EntityReads): Promise<void> {
  const ids = readListParam(req.query['ids'], 'ids');
  if (!ids || ids.length === 0) throw new ValidationError('ids is required, as ids=List(<urn>,...)');
  const requested = readListParam(req.query['aspects'], 'aspects');
  const parsed = ids.map((id) => parseEntityUrn(id, 'ids'));
  // Entities of one type share the aspect list, so group them to read each group in one call.
  const byType = new Map<string, { entity: EntitySpec; urns: Urn[] }>();
  for (const { urn, entity } of parsed) {
    const group = byType.get(entity.name) ?? { entity, urns: [] };
    group.urns.push(urn);
    byType.set(entity.name, group);
  }
  const ctx = requestContextOf(res);
  const results: Record<string, unknown> = {};
  for (const { entity, urns } of byType.values()) {
    const names = versionedAspectNames(entity, requested);
    const found = await reads.latestOfEach(
      ctx,
      urns.map((u) => u.raw),
      names,
    );
    for (const urn of urns) results[urn.raw] = entityResponse(urn, found.get(urn.raw) ?? []);
  }
  sendJson(res, { results, statuses: {}, errors: {} });
}

/** GET /aspects/{urn}?aspect=&version=: the union is keyed by the record's fully qualified name; absent is a bare 404. */
export async function getVersionedAspect(req: Request, res: Response, reads: EntityReads): Promise<void> {
  const { urn, entity } = parseEntityUrn(pathKey(req));
  const aspectName = req.query['aspect'];
  if (typeof aspectName !== 'string' || aspectName === '') throw new ValidationError('aspect is required');
  const spec = entity.aspects.get(aspectName);
  if (!spec) throw new ValidationError(`Unknown aspect ${aspectName} for entity type ${entity.name}`);
  if (spec.kind === 'timeseries') {
    throw new ValidationError(
      `${aspectName} is a time-series aspect; read it with action=getTimeseriesAspectValues`,
    );
  }
  const version = readVersion(req.query['version']);
  const stored = await reads.version(requestContextOf(res), urn.raw, aspectName, version);
  if (!stored) {
    res.status(404).end();
    return;
  }
  sendJson(res, {
    version: stored.version,
    aspect: { [spec.recordName]: withDoubles(stored.aspect, stored.value) },
    ...(stored.systemMetadata ? { systemMetadata: stored.systemMetadata } : {}),
  });
}

/** The versioned aspects a snapshot read asks for: those named (the key aspect always among them), or all. */
function snapshotAspectNames(
  entity: EntitySpec,
  requested: readonly string[] | undefined,
): string[] | undefined {
  const names = versionedAspectNames(entity, requested);
  return names === undefined ? undefined : [...new Set([entity.keyAspect, ...names])];
}

function requireSnapshot(entity: EntitySpec): void {
  if (!entity.snapshotName)
    throw new ValidationError(`Entity type ${entity.name} has no snapshot form; use /entitiesV2`);
}

/**
 * GET /entities/{urn}[?aspects=List(a,b)] (legacy): the snapshot union, the key aspect always included,
 * or 404 "Did not find <urn>".
 */
export async function getEntitySnapshot(req: Request, res: Response, reads: EntityReads): Promise<void> {
  const { urn, entity } = parseEntityUrn(pathKey(req));
  requireSnapshot(entity);
  const names = snapshotAspectNames(entity, readListParam(req.query['aspects'], 'aspects'));
  const aspects = await reads.latest(requestContextOf(res), urn.raw, names);
  if (aspects.length === 0) {
    sendRestliError(res, 404, `Did not find ${urn.raw}`);
    return;
  }
  sendJson(res, { value: snapshotOf(entity, urn.raw, aspects) });
}

/**
 * GET /entities?ids=List(u1,u2)[&aspects=List(a,b)] (legacy): the Rest.li batch map of snapshots, keyed
 * by URN; entities with nothing stored are left out, as the ecosystem does.
 */
export async function batchGetEntitySnapshots(
  req: Request,
  res: Response,
  reads: EntityReads,
): Promise<void> {
  const ids = readListParam(req.query['ids'], 'ids');
  if (!ids || ids.length === 0) throw new ValidationError('ids is required, as ids=List(<urn>,...)');
  const requested = readListParam(req.query['aspects'], 'aspects');
  const parsed = ids.map((id) => parseEntityUrn(id, 'ids'));
  const ctx = requestContextOf(res);
  const results: Record<string, unknown> = {};
  for (const { urn, entity } of parsed) {
    requireSnapshot(entity);
    const aspects = await reads.latest(ctx, urn.raw, snapshotAspectNames(entity, requested));
    if (aspects.length > 0) results[urn.raw] = { value: snapshotOf(entity, urn.raw, aspects) };
  }
  sendJson(res, { results, statuses: {}, errors: {} });
}

function readVersion(raw: unknown): number {
  if (raw === undefined) return 0;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) {
    throw new ValidationError(`version must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new ValidationError('version is too large');
  return n;
}

/**
 * The urn of a Rest.li resource path (`/aspects/{urn}`, `/entitiesV2/{urn}`, `/entities/{urn}`) without
 * the whitespace around it, which the ecosystem's Rest.li reads past (its smoke suite sends a key
 * followed by the indentation of a continued string literal).
 */
function pathKey(req: Request): string | undefined {
  const key: unknown = req.params['urn'];
  return typeof key === 'string' ? key.trim() : undefined;
}
