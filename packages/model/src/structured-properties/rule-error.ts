import { SchemaValidationError } from '../errors.js';

/**
 * A write that breaks a structured-property rule. It is the ecosystem's aspect ValidationException
 * (the same one its schema checks throw), so it carries the code of a value that fails its aspect's
 * rules, SCHEMA_VALIDATION: every interface answers it as such (Rest.li 422, OpenAPI 400
 * "Validation Error" with the message, a failed proposal on the async path). The message joins every
 * broken rule with "; ", each in the ecosystem's words where it has them.
 */
export class StructuredPropertyRuleError extends SchemaValidationError {
  constructor(readonly rules: readonly string[]) {
    super(
      rules.join('; '),
      rules.map((message) => ({ path: '', message })),
    );
  }
}
