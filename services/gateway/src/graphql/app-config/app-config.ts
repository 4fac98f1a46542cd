import type { GraphQLContext } from '../context.js';

/**
 * `appConfig` (app.graphql): the parts of the ecosystem's application configuration this service has,
 * each read from its server configuration (the body of GET /config). The rest of the ecosystem's
 * AppConfig (its web app's feature flags, views, themes) configures a frontend this service has not.
 */
export const appConfigSchema = `
type TelemetryConfig { enableThirdPartyLogging: Boolean }
type LineageConfig { supportsImpactAnalysis: Boolean! }
type ManagedIngestionConfig { enabled: Boolean! }
type AppConfig {
  appVersion: String
  telemetryConfig: TelemetryConfig!
  lineageConfig: LineageConfig!
  managedIngestionConfig: ManagedIngestionConfig!
}
extend type Query { appConfig: AppConfig }
`;

type Json = Readonly<Record<string, unknown>>;

const record = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

/** The AppConfig of a server configuration. */
export function appConfigOf(config: Json) {
  const versions = Object.values(record(config['versions']));
  const version = record(versions[0])['version'];
  return {
    appVersion: typeof version === 'string' ? version : null,
    // The service sends nothing to third parties unless its telemetry is on.
    telemetryConfig: {
      enableThirdPartyLogging: Object.values(record(config['telemetry'])).some((on) => on === true),
    },
    lineageConfig: { supportsImpactAnalysis: config['supportsImpactAnalysis'] === true },
    managedIngestionConfig: { enabled: record(config['managedIngestion'])['enabled'] === true },
  };
}

export function appConfigResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      appConfig: (_root: unknown, _args: unknown, ctx: GraphQLContext) =>
        ctx.services.serverConfig === undefined ? null : appConfigOf(ctx.services.serverConfig),
    },
  };
}
