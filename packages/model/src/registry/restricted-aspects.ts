/**
 * Aspects that hold secret material: password hashes and salts, reset and invite tokens, secret values,
 * connection credentials. They never leave the store except to the system actor, whatever the route
 * (entity reads, lists, scrolls, search hits, GraphQL `aspects`, run descriptions), are never copied into
 * search documents, audit raw events or logs, and only the system actor may write them through the
 * generic proposal routes (the use cases that own them, such as sign-up or secret creation, write them
 * as the system).
 *
 * The ecosystem's schemas carry no annotation for this, so the list lives here, beside the registry it
 * marks: to restrict a new aspect, add its name. `AspectSpec.restricted` is derived from this list, and
 * the registry's unit test fails when a name here is not an aspect of the registry.
 */
export const RESTRICTED_ASPECTS: ReadonlySet<string> = new Set([
  // salt, hashedPassword, passwordResetToken of native users
  'corpUserCredentials',
  // the encrypted value of a stored secret
  'dataHubSecretValue',
  // the encrypted sign-up token of an invite
  'inviteToken',
  // the encrypted connection details (credentials of an external system)
  'dataHubConnectionDetails',
  // the encrypted signing key of a webhook subscription
  'webhookSecret',
]);

/** Whether the aspect named holds secret material (see RESTRICTED_ASPECTS). */
export function isRestrictedAspect(aspectName: string): boolean {
  return RESTRICTED_ASPECTS.has(aspectName);
}
