import { PINNED_SDK_VERSION } from '@catalog/model';

/**
 * The body of GET /config, which the ecosystem's SDK and CLI read before they write. `noCode` must be
 * the string "true". From version 1.0.1 the SDK may write through the OpenAPI v3 entity API (clients in
 * SDK mode; the 1.7 emitter and graph default to Rest.li, and ingestion and the CLI keep to it): both
 * are served, and PATCH proposals are applied, so the version and `patchCapable` say so.
 * `managedIngestion.defaultCliVersion` is the CLI release ingestion runs with when its recipe names
 * none (UI_INGESTION_DEFAULT_CLI_VERSION, the ecosystem's name; by default the pinned acryl-datahub).
 */
export function serverConfig(
  version: string,
  defaultCliVersion: string = PINNED_SDK_VERSION,
): Record<string, unknown> {
  return {
    noCode: 'true',
    retention: 'true',
    statefulIngestionCapable: true,
    patchCapable: true,
    supportsImpactAnalysis: false,
    timeZone: 'GMT',
    versions: { 'acryldata/datahub': { version, commit: 'catalog' } },
    telemetry: { enabledCli: false, enabledIngestion: false },
    datahub: { serverType: 'prod', serverEnv: 'core' },
    managedIngestion: { enabled: false, defaultCliVersion },
  };
}

/**
 * `userType` of `GET /config?verbose=true`, as the ecosystem discloses it: `anonymous` without valid
 * credentials, `user` for anyone authenticated (it tells no admin apart either).
 */
export function configUserType(actorId: string): 'anonymous' | 'user' {
  return actorId === 'UNKNOWN' ? 'anonymous' : 'user';
}
