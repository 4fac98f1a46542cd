import type { GenericAspect } from './event-types.js';
import { SerdeError } from './serde-error.js';

export const JSON_CONTENT_TYPE = 'application/json';
export const JSON_PATCH_CONTENT_TYPE = 'application/json-patch+json';

/** Wraps a JSON-serializable value as a generic aspect (the value's JSON text as UTF-8 bytes). */
export function genericAspectFromJson(
  value: unknown,
  contentType: string = JSON_CONTENT_TYPE,
): GenericAspect {
  const text = JSON.stringify(value);
  if (text === undefined)
    throw new SerdeError('invalid-payload', 'the aspect value is not serializable as JSON');
  return { value: Buffer.from(text, 'utf8'), contentType };
}

/** Parses a generic aspect's JSON text; the caller validates the shape against the aspect schema. */
export function genericAspectToJson(aspect: GenericAspect): unknown {
  if (!aspect.contentType.startsWith('application/json')) {
    throw new SerdeError('invalid-payload', `unsupported aspect content type "${aspect.contentType}"`);
  }
  try {
    return JSON.parse(aspect.value.toString('utf8')) as unknown;
  } catch (cause) {
    throw new SerdeError('invalid-payload', 'the aspect value is not valid JSON', { cause });
  }
}
