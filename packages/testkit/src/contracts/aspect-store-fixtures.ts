import { randomUUID } from 'node:crypto';
import type { AspectWrite, AspectWriteMode, AuditStamp, SystemMetadata } from '@catalog/store';

/** Writes for the aspect store contract. Every name is unique per call, so suites never share state. */

export const ACTOR = 'urn:li:corpuser:contract';

export function stamp(time: number, extra: Partial<AuditStamp> = {}): AuditStamp {
  return { time, actor: ACTOR, ...extra };
}

/** A lowercase hex namespace: safe inside URNs and free of LIKE wildcards. */
export function uniqueNamespace(): string {
  return randomUUID().replaceAll('-', '').slice(0, 16);
}

export function datasetUrn(namespace: string, name: string): string {
  return `urn:li:dataset:(urn:li:dataPlatform:hive,${namespace}.${name},PROD)`;
}

export function datasetKeyOf(urn: string): NonNullable<AspectWrite['keyAspect']> {
  const name = /,([^,]*),PROD\)$/.exec(urn)?.[1] ?? urn;
  return { name: 'datasetKey', value: { platform: 'urn:li:dataPlatform:hive', name, origin: 'PROD' } };
}

export interface WriteExtras {
  readonly requestId?: string;
  readonly systemMetadata?: SystemMetadata | null;
  readonly created?: AuditStamp;
  readonly keyAspect?: AspectWrite['keyAspect'];
  readonly entityDefaults?: AspectWrite['entityDefaults'];
  readonly retention?: AspectWrite['retention'];
}

export function aspectWrite(
  mode: AspectWriteMode,
  urn: string,
  aspect: string,
  value: Readonly<Record<string, unknown>> | undefined,
  extras: WriteExtras = {},
): AspectWrite {
  return {
    requestId: extras.requestId ?? `req-${randomUUID()}`,
    mode,
    urn,
    aspect,
    ...(value === undefined ? {} : { value }),
    ...(extras.systemMetadata === undefined ? {} : { systemMetadata: extras.systemMetadata }),
    created: extras.created ?? stamp(1_700_000_000_000),
    ...(extras.keyAspect === undefined ? {} : { keyAspect: extras.keyAspect }),
    ...(extras.entityDefaults === undefined ? {} : { entityDefaults: extras.entityDefaults }),
    ...(extras.retention === undefined ? {} : { retention: extras.retention }),
  };
}

export function upsert(
  urn: string,
  aspect: string,
  value: Readonly<Record<string, unknown>>,
  extras: WriteExtras = {},
): AspectWrite {
  return aspectWrite('UPSERT', urn, aspect, value, extras);
}

/** Sort key of the scan order: urn, then aspect name, compared as the stores do (code points). */
export function byUrnThenAspect(
  a: { urn: string; aspect: string },
  b: { urn: string; aspect: string },
): number {
  if (a.urn !== b.urn) return a.urn < b.urn ? -1 : 1;
  if (a.aspect !== b.aspect) return a.aspect < b.aspect ? -1 : 1;
  return 0;
}
