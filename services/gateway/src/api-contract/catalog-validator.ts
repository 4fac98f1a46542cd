import { entityApiComponents } from '../openapi/document/entity-components.js';
import type { JsonSchema } from './operation.js';
import { RequestValidator } from './request-input.js';

let components: Record<string, JsonSchema> | undefined;

/** The validator every route checks its requests with, against the operations the document renders. */
export const requestValidator = new RequestValidator(
  (name) => (components ??= entityApiComponents('validation'))[name],
);
