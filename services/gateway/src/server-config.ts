/**
 * The body of GET /config, which the ecosystem's SDK and CLI read before they write. `noCode` must be
 * the string "true". The reported version stays below 1.0.1 so SDK clients keep to the Rest.li
 * endpoints this service implements instead of switching to OpenAPI v3 writes.
 */
export function serverConfig(version: string): Record<string, unknown> {
  return {
    noCode: 'true',
    retention: 'true',
    statefulIngestionCapable: true,
    patchCapable: false,
    supportsImpactAnalysis: false,
    timeZone: 'GMT',
    versions: { 'acryldata/datahub': { version, commit: 'catalog' } },
    telemetry: { enabledCli: false, enabledIngestion: false },
    datahub: { serverType: 'prod', serverEnv: 'core' },
    managedIngestion: { enabled: false, defaultCliVersion: '' },
  };
}
