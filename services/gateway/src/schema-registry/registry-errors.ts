/** An error in the Confluent schema registry's shape: HTTP status plus `{error_code, message}`. */
export class RegistryError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** Confluent's error codes (status × 100 + a detail digit, or the bare status). */
export const registryErrors = {
  subjectNotFound: (subject: string) => new RegistryError(404, 40401, `Subject '${subject}' not found.`),
  versionNotFound: (version: string) => new RegistryError(404, 40402, `Version ${version} not found.`),
  schemaNotFound: (what = 'Schema not found') => new RegistryError(404, 40403, what),
  incompatible: (subject: string) =>
    new RegistryError(
      409,
      409,
      `Schema being registered is incompatible with an earlier schema for subject "${subject}"`,
    ),
  invalidSchema: (why: string) => new RegistryError(422, 42201, `Invalid schema: ${why}`),
  invalidVersion: (version: string) =>
    new RegistryError(
      422,
      42202,
      `The specified version '${version}' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"`,
    ),
  invalidCompatibility: (level: string) =>
    new RegistryError(
      422,
      42203,
      `Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive (got ${level})`,
    ),
  unavailable: (why: string) => new RegistryError(503, 50003, `Error while forwarding the request: ${why}`),
} as const;
